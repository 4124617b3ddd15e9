#!/usr/bin/env bash
# Starts the given binary on a free loopback port, checks a few endpoints with curl, sends
# SIGTERM, and requires a clean exit 0. Bounded: gives up after 30 s.
set -euo pipefail
bin=${1:-target/release/sudoku-service}
log=$(mktemp)
"$bin" serve --host 127.0.0.1 --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$log"' EXIT

port=""
for _ in $(seq 1 300); do
  port=$(grep -o 'listening on 127.0.0.1:[0-9]*' "$log" | head -n 1 | cut -d: -f2 || true)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "server did not start"; cat "$log"; exit 1; }
base="http://127.0.0.1:$port"

seed='9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1'
answer=$(curl -fsS -m 5 -H 'Content-Type: application/json' -d "{\"board\":\"$seed\"}" "$base/solve")
echo "solve: $answer"
grep -q '"solution":"957214386' <<<"$answer"
grep -q '"unique":true' <<<"$answer"

status=$(curl -s -o /dev/null -w '%{http_code}' -m 5 -d 'board=1' "$base/solve")
echo "form body: $status"
[ "$status" = 415 ]

# Capture first: `curl | grep -q` fails under pipefail when grep stops reading early.
grep -q '"ok"' <<<"$(curl -fsS -m 5 "$base/healthz")"
grep -q '"ready"' <<<"$(curl -fsS -m 5 "$base/readyz")"
grep -q 'http_requests_total{route="/solve",method="POST",status="200"} 1' \
  <<<"$(curl -fsS -m 5 "$base/metrics")"
"$bin" healthcheck --port "$port"

kill -TERM "$pid"
code=0
wait "$pid" || code=$?
echo "exit code after SIGTERM: $code"
[ "$code" = 0 ]
trap - EXIT
rm -f "$log"
echo "smoke test passed"
