#!/usr/bin/env bash
# Fault drills against a release server on loopback, each bounded in time and count, each with
# a pass condition that matches what it promises:
#   1. a batch of hard puzzles at 64 connections: every /healthz probe answers 200 with p95
#      under 100 ms and none over 1 s; only 200s (or 503s with Retry-After); no resets
#   2. overload far above capacity: load is shed, every shed answer is a 503 with Retry-After,
#      shed answers are fast (p95 under 100 ms), peak RSS under 200 MiB, and the first request
#      after the load is a 200 within 1 s
#   3. SIGTERM under load: readiness flips first, accepted requests finish, exit 0
#   4. slow and broken clients: slowloris headers are cut at the header timeout, stalled bodies
#      get a 503 timeout at the request timeout (each within a tolerance), normal clients are
#      all served meanwhile, and no descriptor leaks
#   5. expensive small bodies (25x25 with forty 7-cell cages, 16x16 with 8-cell cages) to
#      /solve and /validate at once: at most 0.5 s of server CPU per request, answers within
#      the time limit, nothing left running, a hard classic solve right after under 0.5 s
#      (scripts/hostile_bodies.py)
#   6. hostile clients at the edge, the server limited to 1,024 descriptors
#      (scripts/edge_drills.py): 1,100 silent connections and /healthz still within 8 s;
#      unread streams and batch answers under 256 MiB with /healthz under 100 ms; a 2 MB body
#      and a huge Content-Length get their 413; misspelled and unsupported fields a 422;
#      120 headers a problem+json; one client's batch flood leaves another's solves fast
# The timing bounds are generous on purpose (2 shared cores): they catch a stall, not jitter.
# usage: scripts/faults.sh [SECONDS_PER_DRILL]      (default 20; CI uses 5)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh
secs=${1:-20}
data=../shared/data

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
cargo build --quiet --release --bin sudoku-service

work=$(mktemp -d)
cleanup() { kill "${svc_pid:-}" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

hard="$data/forum_hardest_1905_11plus.txt"
[ -f "$hard" ] || hard="$data/forum_hardest_1106.txt"
head -n 5000 "$hard" | awk '{ printf "{\"board\":\"%s\"}\n", $0 }' >"$work/hard.jsonl"

start() { # extra flags...
  start_server svc "$work/server.log" target/release/sudoku-service serve --host 127.0.0.1 --port 0 "$@"
  base=$svc_base
}
peak_rss_mb() { awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$svc_pid/status"; }
open_fds() { ls "/proc/$svc_pid/fd" | wc -l; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
load() { # connections seconds [close]
  wrk -t 2 -c "$1" -d "${2}s" --timeout 10s -s scripts/wrk-bodies.lua "$base/solve" \
    -- "$work/hard.jsonl" ${3:-} | grep '^RESULT'
}
# probe SECONDS OUT [curl args...]: one request every 50 ms; "status seconds" lines in OUT.
probe() {
  local end=$((SECONDS + $1)) out=$2
  shift 2
  : >"$out"
  while [ $SECONDS -lt "$end" ]; do
    curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -m 2 "$@" >>"$out" || echo "000 2" >>"$out"
    sleep 0.05
  done
}
# percentile P FILE [STATUS]: the P-th percentile of the times (ms) in a probe file.
percentile() {
  awk -v s="${3:-}" 's == "" || $1 == s { print $2 * 1000 }' "$2" | sort -g |
    awk -v p="$1" '{ v[NR] = $1 } END { if (NR == 0) { print "nan"; exit } i = int((NR * p + 99) / 100); print v[i < 1 ? 1 : i] }'
}
count_status() { awk -v s="$2" '$1 == s' "$1" | wc -l; }
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "nan" && a < b) }'; }

echo "== 1. hard batch: forum_hardest at 64 connections for ${secs}s"
start
probe "$secs" "$work/health" "$base/healthz" &
prober=$!
r=$(load 64 "$secs")
wait "$prober"
n=$(wc -l <"$work/health")
ok=$(count_status "$work/health" 200)
p95=$(percentile 95 "$work/health")
max=$(percentile 100 "$work/health")
rss=$(peak_rss_mb)
echo "   $r"
echo "   health: $n probes, $ok answered 200, p95 ${p95} ms, max ${max} ms; peak RSS ${rss} MiB"
[ "$n" -gt 0 ] && [ "$ok" = "$n" ] || fail "$((n - ok)) of $n health probes failed"
below "$p95" 100 || fail "health p95 ${p95} ms (limit 100)"
below "$max" 1000 || fail "a health probe took ${max} ms (limit 1000)"
[ "$(field missing_retry_after "$r")" = 0 ] || fail "503 without Retry-After"
[ "$(field read_err "$r")" = 0 ] || fail "connections reset under hard load"
grep -Eq '^(200=[0-9]+)?(,?503=[0-9]+)?$' <<<"$(field statuses "$r")" ||
  fail "unexpected statuses $(field statuses "$r")"
stop_server svc

echo "== 2. overload: 1 slot, queue 2, 256 connections of hard puzzles for ${secs}s"
start --max-solves 1 --queue-depth 2
probe "$secs" "$work/shed" -H 'Content-Type: application/json' -d "$(sed -n 2p "$work/hard.jsonl")" \
  "$base/solve" &
prober=$!
r=$(load 256 "$secs")
wait "$prober"
rss=$(peak_rss_mb)
t=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -m 5 -H 'Content-Type: application/json' \
  -d "$(head -n 1 "$work/hard.jsonl")" "$base/solve")
shed=$(count_status "$work/shed" 503)
shed_p95=$(percentile 95 "$work/shed" 503)
echo "   $r"
echo "   probes during the load: $(wc -l <"$work/shed"), $shed shed with p95 ${shed_p95} ms"
echo "   first request after the load: ${t% *} in ${t#* } s; peak RSS ${rss} MiB"
grep -q '503=' <<<"$(field statuses "$r")" || fail "no load was shed"
grep -Eq '^(200=[0-9]+,)?503=[0-9]+$' <<<"$(field statuses "$r")" ||
  fail "unexpected statuses under overload: $(field statuses "$r")"
[ "$(field missing_retry_after "$r")" = 0 ] || fail "503 without Retry-After"
[ "$shed" -gt 0 ] || fail "no probe was shed while the pool was full"
[ "$shed" = 0 ] || below "$shed_p95" 100 || fail "shedding is slow: p95 ${shed_p95} ms (limit 100)"
[ "${t% *}" = 200 ] || fail "no recovery after the load stopped (status ${t% *})"
below "${t#* }" 1 || fail "first request after the load took ${t#* } s (limit 1 s)"
below "$rss" 200 || fail "peak RSS ${rss} MiB over 200 MiB"
stop_server svc

echo "== 3. SIGTERM under load (shutdown delay 1 s, one request per connection)"
# The load stops sending once readiness fails, as a balancer would; every request sent until
# then must be answered.
start --shutdown-delay-ms 1000
load 32 "$secs" close >"$work/shutdown-load" &
loader=$!
sleep "$(awk -v s="$secs" 'BEGIN { print s / 3 }')" # load time before the signal, not a wait
kill -TERM "$svc_pid"
readiness_off() { [ "$(curl -s -o /dev/null -w '%{http_code}' -m 1 "$base/readyz" || true)" = 503 ]; }
flipped=no
wait_until 2 readiness_off && flipped=yes
pkill -INT -P "$loader" wrk || true
code=0
wait "$svc_pid" || code=$?
svc_pid=""
wait "$loader" || true
r=$(cat "$work/shutdown-load")
echo "   $r"
echo "   readiness flipped to 503 before exit: $flipped; exit code $code"
[ "$flipped" = yes ] || fail "readiness never reported 503 during the drain"
[ "$code" = 0 ] || fail "exit code $code after SIGTERM"
[ "$(field read_err "$r")" = 0 ] || fail "accepted requests lost during shutdown"

echo "== 4. slow and broken clients (header timeout 1 s, request timeout 3 s)"
start --header-timeout-ms 1000 --request-timeout-ms 3000
fds_before=$(open_fds)
clients=100
python3 scripts/slow_clients.py "$svc_port" "$clients" "$((secs < 8 ? 8 : secs))" 1.0 3.0 \
  >"$work/slow" &
slow=$!
# The normal load starts once the slow clients hold their connections.
all_connected() { [ "$(open_fds)" -ge $((fds_before + clients)) ]; }
wait_until 10 all_connected || fail "the slow clients never connected"
r=$(load 8 "$((secs < 5 ? secs : 5))")
slow_code=0
wait "$slow" || slow_code=$?
settled() { [ "$(open_fds)" -le $((fds_before + 2)) ]; }
wait_until 5 settled || true
fds_after=$(open_fds)
sed 's/^/   /' "$work/slow"
echo "   normal clients meanwhile: $r"
echo "   open file descriptors: $fds_before before, $fds_after after"
[ "$slow_code" = 0 ] || fail "slow clients were not cut off as configured (see above)"
grep -Eq '^200=[0-9]+$' <<<"$(field statuses "$r")" || fail "normal clients not all served: $(field statuses "$r")"
[ "$fds_after" -le $((fds_before + 2)) ] || fail "descriptors leaked: $fds_before -> $fds_after"
stop_server svc

echo "== 5. expensive small bodies, default settings"
start
python3 scripts/hostile_bodies.py "$svc_port" "$svc_pid" 2 10 0.5 | sed 's/^/   /' ||
  fail "expensive bodies broke a promise (see above)"
stop_server svc

echo "== 6. hostile clients at the edge (ulimit -n 1024, default settings)"
start_server svc "$work/server.log" bash -c \
  'ulimit -n 1024 && exec target/release/sudoku-service serve --host 127.0.0.1 --port 0'
python3 scripts/edge_drills.py "$svc_port" "$svc_pid" "$secs" ||
  fail "a hostile client broke a promise (see above)"
stop_server svc

if [ "$failures" -gt 0 ]; then
  echo "faults: $failures check(s) failed"
  exit 1
fi
echo "faults: all drills passed"
