#!/usr/bin/env bash
# Instructions per request: POST /solve on the release service and on the parse-only baseline
# of bench-http.sh (examples/baseline_server.rs), each under callgrind, driven by a fixed
# sequential client (scripts/lib/post_bodies.py, one keep-alive connection). Instruction
# counts do not depend on how busy the machine is, so two builds compare to a fraction of a
# percent where wall clock moves by 10-20%.
#
# For each server: start it under callgrind (default settings, RUST_LOG=warn), send WARMUP
# requests (connection set up, caches of the allocator and the solver warm), zero the
# counters, send REQUESTS more, dump, and divide the instructions of every thread of the
# process by REQUESTS. A server that answers anything but 200 fails the script.
#
# usage: scripts/bench/bench-instructions.sh [REQUESTS] [PUZZLE_FILE]
#        (defaults: 2000, ../shared/data/puzzles_17_clue.txt)
#        SERVICE_BIN / BASELINE_BIN: other binaries to measure (e.g. another revision's,
#        built by scripts/bench/bench-revisions.sh); BENCH_SKIP_BUILD=1 uses them as they are;
#        BENCH_PROFILE=DIR keeps the callgrind files there, for callgrind_annotate;
#        BENCH_SERVICE_ARGS: extra arguments for `serve`.
# Bounded: about a minute per server with the defaults.
set -euo pipefail
cd "$(dirname "$0")/../.."
requests=${1:-2000}
file=${2:-../shared/data/puzzles_17_clue.txt}
warmup=${BENCH_WARMUP:-200}
[ -s "$file" ] || { echo "$(basename "$0"): FAIL: puzzle file $file missing (../shared/data beside the repository)" >&2; exit 1; }
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }

service_bin=${SERVICE_BIN:-target/release/sudoku-service}
baseline_bin=${BASELINE_BIN:-target/release/examples/baseline_server}
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
  cargo build --quiet --release --bin sudoku-service --example baseline_server
fi

source scripts/lib/server.sh
work=$(mktemp -d)
profile_dir=${BENCH_PROFILE:-$work}
mkdir -p "$profile_dir"
cleanup() { kill "${cg_pid:-}" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

head -n 5000 "$file" | awk '{ printf "{\"board\":\"%s\"}\n", $0 }' >"$work/bodies.jsonl"

# measure NAME COMMAND... -> instructions per request on stdout; the word PORT in COMMAND
# becomes a free port, and the server is waited for until it accepts connections (so that any
# revision works, whatever it logs).
measure() {
  local name=$1 out="$profile_dir/$1.callgrind" port
  shift
  rm -f "$out" "$out".*
  port=$(free_port)
  RUST_LOG=warn valgrind --tool=callgrind --callgrind-out-file="$out" "${@//PORT/$port}" \
    >"$work/$name.log" 2>&1 &
  cg_pid=$!
  wait_until 120 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null ||
    { echo "$(basename "$0"): FAIL: $name did not start" >&2; cat "$work/$name.log" >&2; exit 1; }
  local address="127.0.0.1:$port"
  python3 scripts/lib/post_bodies.py "$address" /solve "$work/bodies.jsonl" "$warmup" >&2
  callgrind_control -z "$cg_pid" >/dev/null 2>&1
  python3 scripts/lib/post_bodies.py "$address" /solve "$work/bodies.jsonl" "$requests" "$warmup" >&2
  callgrind_control -d "$cg_pid" >/dev/null 2>&1
  kill -TERM "$cg_pid"
  wait "$cg_pid" || true
  cg_pid=""
  # The dump after zeroing is the file with the highest part number.
  local dump
  dump=$(ls "$out".* 2>/dev/null | sort -t. -k3 -n | tail -n 1)
  [ -s "$dump" ] || { echo "$(basename "$0"): FAIL: no callgrind dump for $name" >&2; cat "$work/$name.log" >&2; exit 1; }
  local total
  total=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$dump" | head -n 1)
  [ -n "$total" ] || total=$(sed -n 's/^totals: \([0-9]*\).*/\1/p' "$dump" | head -n 1)
  echo "$name: $dump" >&2
  awk -v t="$total" -v n="$requests" 'BEGIN { printf "%.0f\n", t / n }'
}

svc=$(measure service "$service_bin" serve --host 127.0.0.1 --port PORT ${BENCH_SERVICE_ARGS:-})
base=$(measure baseline "$baseline_bin" PORT)
echo "file: $(basename "$file"), $requests requests after $warmup warm-up, one keep-alive connection"
echo
echo "| server | instructions per request |"
echo "|---|---:|"
echo "| service ($service_bin) | $svc |"
echo "| baseline ($baseline_bin) | $base |"
echo "| service - baseline | $((svc - base)) |"
awk -v s="$svc" -v b="$base" 'BEGIN { printf "| service / baseline | %.2f |\n", s / b }'
