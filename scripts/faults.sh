#!/usr/bin/env bash
# Fault drills against a release server on loopback, each bounded in time and count:
#   1. a batch of hard puzzles at 64 connections: health latency, peak RSS, nothing lost
#   2. overload far above capacity: fast 503s, instant recovery, bounded memory
#   3. SIGTERM under load: readiness flips first, accepted requests finish, exit 0
#   4. slow and broken clients: slowloris headers, stalled bodies, hang-ups
# usage: scripts/faults.sh [SECONDS_PER_DRILL]      (default 20; CI uses 5)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}
port=${FAULTS_PORT:-18500}
base="http://127.0.0.1:$port"
data=../shared/data

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
cargo build --quiet --release --bin sudoku-service

work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

hard="$data/forum_hardest_1905_11plus.txt"
[ -f "$hard" ] || hard="$data/forum_hardest_1106.txt"
head -n 5000 "$hard" | awk '{ printf "{\"board\":\"%s\"}\n", $0 }' >"$work/hard.jsonl"

start_server() { # extra flags...
  RUST_LOG=warn target/release/sudoku-service serve --host 127.0.0.1 --port "$port" "$@" \
    2>"$work/server.log" &
  server=$!
  for _ in $(seq 1 100); do
    curl -fs -o /dev/null -m 1 "$base/healthz" && return 0
    sleep 0.1
  done
  echo "server did not start"; cat "$work/server.log"; exit 1
}
stop_server() {
  kill -TERM "$server"; wait "$server" || true; server=""
}
peak_rss_mb() { awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$server/status"; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
load() { # connections seconds [close]
  wrk -t 2 -c "$1" -d "${2}s" --timeout 10s -s scripts/wrk-bodies.lua "$base/solve" \
    -- "$work/hard.jsonl" ${3:-} | grep '^RESULT'
}
probe_health() { # seconds -> "max_ms failures samples"
  local end=$((SECONDS + $1)) max=0 bad=0 n=0
  while [ $SECONDS -lt $end ]; do
    t=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -m 2 "$base/healthz" || echo "000 2")
    n=$((n + 1))
    [ "${t%% *}" = 200 ] || bad=$((bad + 1))
    max=$(awk -v a="$max" -v b="${t#* }" 'BEGIN { b *= 1000; print (b > a ? b : a) }')
    sleep 0.05
  done
  echo "$max $bad $n"
}

echo "== 1. hard batch: forum_hardest at 64 connections for ${secs}s"
start_server
probe_health "$secs" >"$work/health" &
probe=$!
r=$(load 64 "$secs")
wait "$probe"
read -r hmax hbad hn <"$work/health"
rss=$(peak_rss_mb)
echo "   $r"
echo "   health: $hn probes, max ${hmax} ms, $hbad failed; peak RSS ${rss} MiB"
awk -v m="$hmax" 'BEGIN { exit !(m < 50) }' || fail "health check took ${hmax} ms (limit 50)"
[ "$hbad" = 0 ] || fail "$hbad health probes failed"
[ "$(field missing_retry_after "$r")" = 0 ] || fail "503 without Retry-After"
[ "$(field read_err "$r")" = 0 ] || fail "connections reset under hard load"
grep -Eq '^(200=[0-9]+)?(,?503=[0-9]+)?$' <<<"$(field statuses "$r")" ||
  fail "unexpected statuses $(field statuses "$r")"
stop_server

echo "== 2. overload: 1 slot, queue 2, 256 connections of hard puzzles for ${secs}s"
start_server --max-solves 1 --queue-depth 2
r=$(load 256 "$secs")
rss=$(peak_rss_mb)
t=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -m 5 -H 'Content-Type: application/json' \
  -d "$(head -n 1 "$work/hard.jsonl")" "$base/solve")
echo "   $r"
echo "   first request after the load: ${t% *} in ${t#* } s; peak RSS ${rss} MiB"
grep -q '503=' <<<"$(field statuses "$r")" || fail "no load was shed"
[ "$(field missing_retry_after "$r")" = 0 ] || fail "503 without Retry-After"
[ "${t% *}" = 200 ] || fail "no recovery after the load stopped"
awk -v m="$rss" 'BEGIN { exit !(m < 200) }' || fail "peak RSS ${rss} MiB over 200 MiB"
stop_server

echo "== 3. SIGTERM under load (shutdown delay 1 s, one request per connection)"
# The load stops sending once readiness fails, as a balancer would; every request sent until
# then must be answered.
start_server --shutdown-delay-ms 1000
load 32 "$secs" close >"$work/shutdown-load" &
loader=$!
sleep "$(awk -v s="$secs" 'BEGIN { print s / 3 }')"
kill -TERM "$server"
flipped=""
for _ in $(seq 1 100); do
  code=$(curl -s -o /dev/null -w '%{http_code}' -m 1 "$base/readyz" || true)
  if [ "$code" = 503 ]; then flipped=yes; break; fi
  sleep 0.02
done
pkill -INT -P "$loader" wrk || true
code=0
wait "$server" || code=$?
server=""
wait "$loader" || true
r=$(cat "$work/shutdown-load")
echo "   $r"
echo "   readiness flipped to 503 before exit: ${flipped:-no}; exit code $code"
[ "$flipped" = yes ] || fail "readiness never reported 503 during the drain"
[ "$code" = 0 ] || fail "exit code $code after SIGTERM"
[ "$(field read_err "$r")" = 0 ] || fail "accepted requests lost during shutdown"

echo "== 4. slow and broken clients (header timeout 1 s, request timeout 3 s)"
start_server --header-timeout-ms 1000 --request-timeout-ms 3000
fds_before=$(ls "/proc/$server/fd" | wc -l)
python3 scripts/slow_clients.py "$port" 100 "$((secs < 8 ? 8 : secs))" >"$work/slow" &
slow=$!
sleep 0.5
r=$(load 8 "$((secs < 5 ? secs : 5))")
slow_code=0
wait "$slow" || slow_code=$?
sleep 1
fds_after=$(ls "/proc/$server/fd" | wc -l)
sed 's/^/   /' "$work/slow"
echo "   normal clients meanwhile: $r"
echo "   open file descriptors: $fds_before before, $fds_after after"
[ "$slow_code" = 0 ] || fail "some slow clients were never cut off"
grep -Eq '^200=[0-9]+$' <<<"$(field statuses "$r")" || fail "normal clients not all served: $(field statuses "$r")"
[ "$fds_after" -le $((fds_before + 2)) ] || fail "descriptors leaked: $fds_before -> $fds_after"
stop_server

if [ "$failures" -gt 0 ]; then
  echo "faults: $failures drill(s) failed"
  exit 1
fi
echo "faults: all drills passed"
