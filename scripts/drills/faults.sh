#!/usr/bin/env bash
# Fault drills against a release server on loopback, each bounded in time and count, each with
# a pass condition that matches what it promises, and every load phase checked in full: the
# requests made, the statuses (200s among them), the kind of every 503, and no connect, read,
# write or timeout error:
#   1. a batch of hard puzzles at 64 connections: every /healthz probe answers 200 with p95
#      under 100 ms and none over 1 s; puzzles solved (200s), the rest 503 `overloaded` with
#      Retry-After, no error of any kind
#   2. overload far above capacity: load is shed, every shed answer is a 503 with Retry-After,
#      shed answers are fast (p95 under 100 ms from connection to answer, every connection
#      made within 2 s), peak RSS under 200 MiB, and the first request
#      after the load is a 200 within 1 s
#   3. SIGTERM under load: readiness flips first, every request sent is answered 200 (no 5xx,
#      no error), exit 0
#   4. slow and broken clients: slowloris headers are cut at the header timeout, stalled bodies
#      get a 503 timeout at the request timeout (each within a tolerance), normal clients are
#      all served meanwhile, and no descriptor leaks
#   5. expensive small bodies (25x25 with forty 7-cell cages, 16x16 with 8-cell cages) to
#      /solve and /validate at once: each answered 200 or 422 `budget-exhausted`, at most
#      0.5 s of server CPU per request, answers within the time limit, nothing left running,
#      a hard classic solve right after answered 200 within 1 s (scripts/drills/hostile_bodies.py)
#   6. hostile clients at the edge, the server limited to 1,024 descriptors
#      (scripts/drills/edge_drills.py): 1,100 silent connections and /healthz still within 8 s;
#      unread streams and batch answers under 256 MiB with every /healthz answered (median
#      under 100 ms, none over 1 s); a 2 MB body and a huge Content-Length get their 413;
#      misspelled and unsupported fields a 422; 120 headers a problem+json; while one client
#      floods with batches (some of them served), another's hard solves are all answered 200
#      (median under 0.5 s, 90% under 2 s)
#   7. fair generations (scripts/drills/generation_fairness.py): while one client loops extreme
#      generations on 8 connections, another's hard solves are all answered 200, the slowest
#      within 1 s, and the server's CPU stays under 1.5 cores; while five addresses flood the
#      pool past its places, a sixth that holds none is served
# The timing bounds are generous on purpose (2 shared cores): they catch a stall, not jitter.
# The puzzles come from ../shared/data; without it the script fails, saying so.
# usage: scripts/drills/faults.sh [SECONDS_PER_DRILL] [DRILL...]   (default 20 s, every drill; CI: 5)
#        SERVER_BIN=PATH drills that binary instead of building and using the release one
#        (to see a drill fail on a broken build without a release build of it).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/server.sh
source scripts/lib/data.sh
secs=${1:-20}
shift $(($# > 0 ? 1 : 0))
drills=("$@")
want() { [ "${#drills[@]}" -eq 0 ] || [[ " ${drills[*]} " == *" $1 "* ]]; }
need_data forum_hardest_1905_11plus.txt

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
if [ -n "${SERVER_BIN:-}" ]; then
  bin=$SERVER_BIN
else
  cargo build --quiet --release --bin sudoku-service
  bin=target/release/sudoku-service
fi

work=$(mktemp -d)
cleanup() { kill "${svc_pid:-}" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

head -n 5000 "$(data_dir)/forum_hardest_1905_11plus.txt" |
  awk '{ printf "{\"board\":\"%s\"}\n", $0 }' >"$work/hard.jsonl"

start() { # extra flags...
  start_server svc "$work/server.log" "$bin" serve --host 127.0.0.1 --port 0 "$@"
  base=$svc_base
}
peak_rss_mb() { awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$svc_pid/status"; }
open_fds() { ls "/proc/$svc_pid/fd" | wc -l; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
load() { # connections seconds [close]
  wrk -t 2 -c "$1" -d "${2}s" --timeout 10s -s scripts/bench/wrk-bodies.lua "$base/solve" \
    -- "$work/hard.jsonl" ${3:-} | grep '^RESULT'
}
# probe SECONDS OUT [curl args...]: one request every 50 ms; "status seconds connect-seconds"
# lines in OUT.
probe() {
  local end=$((SECONDS + $1)) out=$2
  shift 2
  : >"$out"
  while [ $SECONDS -lt "$end" ]; do
    curl -s -o /dev/null -w '%{http_code} %{time_total} %{time_connect}\n' -m 2 "$@" >>"$out" ||
      echo "000 2 2" >>"$out"
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
# answered WHAT RESULT STATUS...: the load phase WHAT made requests, got 200s, only the
# statuses listed, every 503 an `overloaded` one with Retry-After, and no connect, read, write
# or timeout error. A stuck pool (nothing solved, requests timing out) fails here whatever
# /healthz says.
answered() {
  local what=$1 r=$2 code n total=0 ok=0
  shift 2
  [ -n "$r" ] || { fail "$what: the load generator printed no result"; return; }
  [ "$(field requests "$r")" -gt 0 ] || fail "$what: no request completed"
  for pair in $(field statuses "$r" | tr ',' ' '); do
    code=${pair%=*} n=${pair#*=}
    total=$((total + n))
    [ "$code" = 200 ] && ok=$n
    [[ " $* " == *" $code "* ]] || fail "$what: $n answers with status $code (allowed: $*)"
  done
  [ "$ok" -gt 0 ] || fail "$what: no request answered 200"
  [ "$total" = "$(field requests "$r")" ] ||
    fail "$what: $(field requests "$r") requests but $total statuses"
  [ "$(field missing_retry_after "$r")" = 0 ] || fail "$what: 503 without Retry-After"
  [ "$(field other_503 "$r")" = 0 ] || fail "$what: $(field other_503 "$r") 503s that were not load shedding"
  for e in connect_err read_err write_err timeout_err; do
    [ "$(field "$e" "$r")" = 0 ] || fail "$what: $e=$(field "$e" "$r")"
  done
}

if want 1; then
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
answered "hard load" "$r" 200 503
stop_server svc
fi

if want 2; then
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
# Shedding is timed from the connection to the answer: a connection made during wrk's burst
# of 256 once waited for a retried SYN (1,024 ms, a failed CI run), which is the kernel's
# doing, not the pool's; connections are bounded on their own below.
awk '{ print $1, $2 - $3 }' "$work/shed" >"$work/shed-served"
shed_p95=$(percentile 95 "$work/shed-served" 503)
unanswered=$(count_status "$work/shed" 000)
connect_max=$(awk '$1 != "000" && $3 > m { m = $3 } END { print m * 1000 }' "$work/shed")
echo "   $r"
echo "   probes during the load: $(wc -l <"$work/shed"), $shed shed with p95 ${shed_p95} ms" \
  "from connection to answer, $unanswered unanswered; slowest connection ${connect_max} ms"
echo "   first request after the load: ${t% *} in ${t#* } s; peak RSS ${rss} MiB"
grep -q '503=' <<<"$(field statuses "$r")" || fail "no load was shed"
answered "overload" "$r" 200 503
[ "$shed" -gt 0 ] || fail "no probe was shed while the pool was full"
[ "$shed" = 0 ] || below "$shed_p95" 100 || fail "shedding is slow: p95 ${shed_p95} ms (limit 100)"
[ "$unanswered" = 0 ] || fail "$unanswered probes got no answer within 2 s"
below "$connect_max" 2000 || fail "a probe's connection took ${connect_max} ms (limit 2000: one retried SYN)"
[ "${t% *}" = 200 ] || fail "no recovery after the load stopped (status ${t% *})"
below "${t#* }" 1 || fail "first request after the load took ${t#* } s (limit 1 s)"
below "$rss" 200 || fail "peak RSS ${rss} MiB over 200 MiB"
stop_server svc
fi

if want 3; then
echo "== 3. SIGTERM under load (shutdown delay 3 s, one request per connection)"
# The load stops sending once readiness fails, as a balancer would; every request sent until
# then must be answered, and answered 200: 32 connections are far from the pool's places, so
# a 503 (or any 5xx) here would be a request lost to the drain. The delay leaves the load
# time to stop before the listener closes, so even a refused connect counts as lost.
start --shutdown-delay-ms 3000
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
answered "load during the drain" "$r" 200
fi

if want 4; then
echo "== 4. slow and broken clients (header timeout 1 s, request timeout 3 s)"
start --header-timeout-ms 1000 --request-timeout-ms 3000
fds_before=$(open_fds)
clients=100
python3 scripts/drills/slow_clients.py "$svc_port" "$clients" "$((secs < 8 ? 8 : secs))" 1.0 3.0 \
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
answered "normal clients among the slow ones" "$r" 200
[ "$fds_after" -le $((fds_before + 2)) ] || fail "descriptors leaked: $fds_before -> $fds_after"
stop_server svc
fi

if want 5; then
echo "== 5. expensive small bodies, default settings"
start
python3 scripts/drills/hostile_bodies.py "$svc_port" "$svc_pid" 2 10 0.5 | sed 's/^/   /' ||
  fail "expensive bodies broke a promise (see above)"
stop_server svc
fi

if want 6; then
echo "== 6. hostile clients at the edge (ulimit -n 1024, default settings)"
start_server svc "$work/server.log" bash -c \
  'ulimit -n 1024 && exec "$0" serve --host 127.0.0.1 --port 0' "$bin"
python3 scripts/drills/edge_drills.py "$svc_port" "$svc_pid" "$secs" ||
  fail "a hostile client broke a promise (see above)"
stop_server svc
fi

if want 7; then
echo "== 7. fair generations, default settings"
start
python3 scripts/drills/generation_fairness.py "$svc_port" "$svc_pid" "$secs" | sed 's/^/   /' ||
  fail "generations were not fair (see above)"
stop_server svc
fi

if [ "$failures" -gt 0 ]; then
  echo "faults: $failures check(s) failed"
  exit 1
fi
echo "faults: all drills passed"
