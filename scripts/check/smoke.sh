#!/usr/bin/env bash
# Starts the given binary on a free loopback port, checks a few endpoints with curl,
# plays whole games with examples/play.py, sends SIGTERM, and requires a clean exit 0.
# usage: scripts/check/smoke.sh [BINARY]     (default target/release/sudoku-service)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/server.sh
bin=${1:-target/release/sudoku-service}
log=$(mktemp)
trap 'kill "${svc_pid:-}" 2>/dev/null || true; rm -f "$log"' EXIT
start_server svc "$log" "$bin" serve --host 127.0.0.1 --port 0
base=$svc_base

seed='9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1'
answer=$(curl -fsS -m 5 -H 'Content-Type: application/json' -d "{\"board\":\"$seed\"}" "$base/solve")
echo "solve: $answer"
grep -q '"solution":"957214386123689457468357129271563894539841672684972513315726948746198235892435761"' <<<"$answer"
grep -q '"unique":true' <<<"$answer"

status=$(curl -s -o /dev/null -w '%{http_code}' -m 5 -d 'board=1' "$base/solve")
echo "form body: $status"
[ "$status" = 415 ]

# Capture first: `curl | grep -q` fails under pipefail when grep stops reading early.
grep -q '"ok"' <<<"$(curl -fsS -m 5 "$base/healthz")"
grep -q '"ready"' <<<"$(curl -fsS -m 5 "$base/readyz")"
grep -q 'http_requests_total{route="/solve",method="POST",status="200"} 1' \
  <<<"$(curl -fsS -m 5 "$base/metrics")"
"$bin" healthcheck --port "$svc_port"

# A whole game loop as a puzzle site plays it: one /validate per move, slips named, won games.
python3 examples/play.py "$base"

stop_server svc
echo "exit code after SIGTERM: $svc_exit"
[ "$svc_exit" = 0 ]
echo "smoke test passed"
