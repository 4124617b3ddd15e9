#!/usr/bin/env bash
# Three release replicas behind nginx on loopback, with deploy/nginx.conf's directives (the
# compose upstream `sudoku:8080` becomes three 127.0.0.1 ports). Drives load through nginx and
#   (a) rolls a replica: SIGTERM, wait for exit, start it again - no client may see a failure;
#   (b) SIGKILLs a replica mid-load - nginx retries on the others, so no client may see a
#       failure either;
#   (c) compares throughput through the balancer with one replica direct;
#   (d) checks the balancer's own limits and errors: a /solve/batch body above 8 KiB passes,
#       an oversize body, a client over its rate, and "no replica left" are answered as
#       problem+json.
# The load comes from one address, so the load phases run with the per-client rate limit
# raised; (d) puts deploy/nginx.conf's own limit back and checks that it bites.
# Nothing is timed on faith: each restart and the kill wait until the replica concerned (and
# then the others) is seen serving the load in its own /metrics, and (d) floods until the
# balancer's limit answers. Bounded in time (about 3 x SECONDS plus the restarts, each wait
# at most 30 s), loopback only. The puzzles come from ../shared/data; without it the script
# fails, saying so. usage: scripts/drills/lb-test.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/server.sh
source scripts/lib/data.sh
need_data puzzles_17_clue.txt
secs=${1:-8}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
command -v nginx >/dev/null || { apt-get update -qq && apt-get install -y -qq nginx-light >/dev/null; }
cargo build --quiet --release --bin sudoku-service

work=$(mktemp -d)
declare -A pid
cleanup() {
  for p in "${pid[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

start_replica() { # port (0 for a free one); echoes nothing, records pid[port]
  start_server replica "$work/replica-$RANDOM.log" target/release/sudoku-service serve \
    --host 127.0.0.1 --port "$1" --shutdown-delay-ms 1500
  pid[$replica_port]=$replica_pid
  last_port=$replica_port
}
ports=()
for _ in 1 2 3; do start_replica 0; ports+=("$last_port"); done
lb_port=$(free_port)

# deploy/nginx.conf, adapted: loopback upstreams, no Docker DNS, files in the work folder.
servers=""
for p in "${ports[@]}"; do servers+="        server 127.0.0.1:$p max_fails=2 fail_timeout=2s;\n"; done
sed -e "s|^\( *\)server sudoku:8080.*|$servers|" \
    -e '/resolver 127.0.0.11/d' \
    -e "s|listen 8080;|listen 127.0.0.1:$lb_port;|" \
    -e "s|^events {|pid $work/nginx.pid;\nerror_log $work/nginx-error.log warn;\nevents {|" \
    -e "s|^http {|http {\n    client_body_temp_path $work;\n    proxy_temp_path $work;|" \
    deploy/nginx.conf >"$work/nginx-as-deployed.conf"
grep -q 'limit_req zone=per_client_rate' "$work/nginx-as-deployed.conf" ||
  fail "deploy/nginx.conf has no per-client rate limit"
sed -e 's|rate=[0-9]*r/s|rate=1000000r/s|' -e 's|limit_conn per_client_conn [0-9]*|limit_conn per_client_conn 10000|' \
  "$work/nginx-as-deployed.conf" >"$work/nginx.conf"
nginx -t -q -c "$work/nginx.conf" -p "$work"
nginx -c "$work/nginx.conf" -p "$work"

head -n 5000 "$(data_dir)/puzzles_17_clue.txt" | awk '{ printf "{\"board\":\"%s\"}\n", $0 }' >"$work/bodies.jsonl"
load() { # url seconds
  wrk -t 2 -c 32 -d "${2}s" --timeout 5s -s scripts/bench/wrk-bodies.lua "$1" -- "$work/bodies.jsonl" |
    grep '^RESULT'
}
# The load phases that wait on conditions run wrk for up to this long and stop it (SIGINT,
# after which it still prints its result) once their conditions are met.
open_ended=300
stop_load() { pkill -INT -P "$1" wrk || true; wait "$1" || true; }
solved_by() { # port -> /solve requests that replica has answered 200 (0 when it does not answer)
  local n
  n=$(curl -s -m 2 "http://127.0.0.1:$1/metrics" |
    sed -n 's|^http_requests_total{route="/solve",method="POST",status="200"} ||p' || true)
  echo "${n:-0}"
}
solved_by_all() { # port... -> the sum of solved_by
  local sum=0 p
  for p in "$@"; do sum=$((sum + $(solved_by "$p"))); done
  echo "$sum"
}
# serving N PORT...: waits (at most 30 s) until the replicas at PORT... have answered N more
# /solve requests than when it was called, i.e. the load runs through them now.
serving() {
  local n=$1 from
  shift
  from=$(solved_by_all "$@")
  served_more() { [ $(($(solved_by_all "$@") - from)) -ge "$n" ]; }
  wait_until 30 served_more "$@"
}
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
lost() { # RESULT line -> requests not answered 200
  local r=$1 ok
  ok=$(field statuses "$r" | tr ',' '\n' | sed -n 's/^200=//p')
  echo $(( $(field requests "$r") - ${ok:-0} + $(field connect_err "$r") + $(field read_err "$r") \
    + $(field write_err "$r") + $(field timeout_err "$r") ))
}

echo "== (c) throughput: through nginx vs one replica direct (${secs}s each)"
via=$(load "http://127.0.0.1:$lb_port/solve" "$secs")
direct=$(load "http://127.0.0.1:${ports[0]}/solve" "$secs")
echo "   via nginx:  $via"
echo "   direct:     $direct"
awk -v a="$(field rps "$via")" -v b="$(field rps "$direct")" \
  'BEGIN { printf "   ratio via nginx / one replica direct: %.2f\n", a / b }'

echo "== (a) rolling restart of every replica under load"
load "http://127.0.0.1:$lb_port/solve" "$open_ended" >"$work/rolling" &
loader=$!
for p in "${ports[@]}"; do
  serving 20 "$p" || fail "replica $p took no load before its restart"
  kill -TERM "${pid[$p]}"
  code=0; wait "${pid[$p]}" || code=$?
  [ "$code" = 0 ] || fail "replica $p exited $code after SIGTERM"
  start_replica "$p"
  # Back in the balancer's rotation (after nginx's fail_timeout) before the next one goes.
  serving 20 "$p" || fail "replica $p took no load after its restart"
done
stop_load "$loader"
r=$(cat "$work/rolling")
echo "   $r"
echo "   failed requests seen by the client: $(lost "$r")"
[ "$(lost "$r")" = 0 ] || fail "requests failed during the rolling restart"

echo "== (b) SIGKILL one replica under load"
load "http://127.0.0.1:$lb_port/solve" "$open_ended" >"$work/kill" &
loader=$!
serving 20 "${ports[2]}" || fail "replica ${ports[2]} took no load before the kill"
kill -KILL "${pid[${ports[2]}]}"
wait "${pid[${ports[2]}]}" 2>/dev/null || true
unset "pid[${ports[2]}]"
# The load goes on through the two left: the kill happened in the middle of it.
serving 200 "${ports[0]}" "${ports[1]}" || fail "the load did not go on after the kill"
stop_load "$loader"
r=$(cat "$work/kill")
echo "   $r"
echo "   failed requests seen by the client: $(lost "$r") (nginx retries connect errors on the others)"
[ "$(lost "$r")" = 0 ] || fail "requests failed when a replica was killed"

echo "== (d) the balancer's body limits and its own errors"
head -n 200 "$(data_dir)/puzzles_17_clue.txt" >"$work/batch.txt"
answers=$(curl -fsS -m 10 -H 'Content-Type: text/plain' --data-binary @"$work/batch.txt" \
  "http://127.0.0.1:$lb_port/solve/batch" | grep -c '^[1-9]\{81\}$' || true)
echo "   /solve/batch with $(wc -c <"$work/batch.txt") bytes via nginx: $answers of 200 solved"
[ "$answers" = 200 ] || fail "a batch above 8 KiB did not pass the balancer"
ask() { # curl-args...: the answer's headers in $work/headers, its body in $work/body
  : >"$work/headers"
  curl -s -m 10 -D "$work/headers" -o "$work/body" "$@" || true
}
check_answer() { # what expected-status type: the answer `ask` stored
  local what=$1 status=$2 kind=$3 out
  out=$(cat "$work/body")
  echo "   $what: $(head -n 1 "$work/headers" | tr -d '\r') $out"
  grep -q " $status" <(head -n 1 "$work/headers") || fail "$what: expected $status"
  grep -qi '^content-type: application/problem+json' "$work/headers" || fail "$what: not problem+json"
  grep -q "\"urn:sudoku-service:problem:$kind\"" <<<"$out" || fail "$what: expected type $kind"
}
check_problem() { # what expected-status type curl-args...
  local what=$1 status=$2 kind=$3
  shift 3
  ask "$@"
  check_answer "$what" "$status" "$kind"
}
head -c 9000 /dev/zero | tr '\0' ' ' >"$work/big.json"
check_problem "9,000-byte /solve body" 413 body-too-large -H 'Content-Type: application/json' \
  --data-binary @"$work/big.json" "http://127.0.0.1:$lb_port/solve"
# deploy/nginx.conf's own per-client limits: a quick burst from one address meets them.
cp "$work/nginx-as-deployed.conf" "$work/nginx.conf"
nginx -s reload -c "$work/nginx.conf" -p "$work"
wrk -t 1 -c 16 -d "${open_ended}s" "http://127.0.0.1:$lb_port/healthz" >/dev/null 2>&1 &
flood=$!
# Once the flood has used up the burst, requests from this address are over the rate: wait
# for the first refusal, and check that one.
limited() {
  ask "http://127.0.0.1:$lb_port/healthz"
  grep -q ' 429' <(head -n 1 "$work/headers")
}
wait_until 30 limited || fail "a flood from one address never met the balancer's rate limit"
check_answer "a client far above 500 requests/s" 429 too-many-requests
kill -INT "$flood"
wait "$flood" || true
grep -qi '^retry-after: 1' "$work/headers" || fail "no Retry-After on the balancer's 429"
for p in "${!pid[@]}"; do kill -TERM "${pid[$p]}"; wait "${pid[$p]}" || true; unset "pid[$p]"; done
check_problem "every replica gone" 503 overloaded -H 'Content-Type: application/json' \
  -d '{"board":"9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1"}' \
  "http://127.0.0.1:$lb_port/solve"
grep -qi '^retry-after: 1' "$work/headers" || fail "no Retry-After when every replica is gone"

if [ "$failures" -gt 0 ]; then echo "lb-test: $failures check(s) failed"; exit 1; fi
echo "lb-test: passed"
