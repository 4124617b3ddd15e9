#!/usr/bin/env bash
# HTTP throughput of two builds of the service side by side: POST /solve with wrk on loopback
# (2 threads, default server settings), ROUNDS alternating pairs (which build goes first
# alternates, so a drift of the shared machine favours neither), and the median of the
# per-pair ratios NEW/OLD in 200 answers per second. For bisecting a regression, or checking
# that a branch serves at least what an older revision did.
#
# OLD and NEW are git revisions (built once each from `git archive` into
# target/revisions/COMMIT, with their own target dir and lock file, so the worktree is never
# touched), `.` for this worktree's own release build, or the path of a built binary. Each server gets a port from
# free_port and is waited for on /healthz, so revisions that log differently work alike.
#
# usage: scripts/bench/bench-revisions.sh OLD NEW [SECONDS] [ROUNDS] [PUZZLE_FILE]
#        (defaults: 5 s, 5 rounds, ../shared/data/puzzles_17_clue.txt)
#        BENCH_CONNECTIONS (default 64); BENCH_PIN=1 puts both servers on the last core and
#        wrk on the others; BENCH_BUILD_ONLY=1 builds and prints the binaries' paths (for
#        SERVICE_BIN of scripts/bench/bench-instructions.sh) without measuring.
# Bounded: 2 * SECONDS * ROUNDS plus the builds (a fresh revision: several minutes of LTO).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 2 ] || { sed -n 2,19p "$0" >&2; exit 2; }
old=$1 new=$2 secs=${3:-5} rounds=${4:-5}
file=${5:-../shared/data/puzzles_17_clue.txt}
connections=${BENCH_CONNECTIONS:-64}
[ -s "$file" ] || { echo "$(basename "$0"): FAIL: puzzle file $file missing (../shared/data beside the repository)" >&2; exit 1; }
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
source scripts/lib/server.sh
source scripts/lib/wrk.sh

# binary_of REV -> path of its release sudoku-service (built if need be)
binary_of() {
  if [ -f "$1" ] && [ -x "$1" ]; then
    echo "$1"
    return
  fi
  if [ "$1" = . ]; then
    cargo build --quiet --release --bin sudoku-service >&2
    echo target/release/sudoku-service
    return
  fi
  local commit dir
  commit=$(git rev-parse --verify "$1^{commit}")
  dir=target/revisions/$commit
  if [ ! -x "$dir/sudoku-service" ]; then
    rm -rf "$dir/src"
    mkdir -p "$dir/src"
    git archive "$commit" | tar -x -C "$dir/src"
    echo "building $1 ($commit) in $dir" >&2
    (cd "$dir/src" && CARGO_TARGET_DIR=../target cargo build --quiet --release --bin sudoku-service >&2)
    cp "$dir/target/release/sudoku-service" "$dir/sudoku-service"
  fi
  echo "$dir/sudoku-service"
}

old_bin=$(binary_of "$old")
new_bin=$(binary_of "$new")
if [ "${BENCH_BUILD_ONLY:-0}" = 1 ]; then
  echo "$old: $old_bin"
  echo "$new: $new_bin"
  exit 0
fi

work=$(mktemp -d)
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
wrk_bodies "$file" "$work/bodies.jsonl"

server_cpus=() client_cpus=()
if [ "${BENCH_PIN:-0}" = 1 ] && [ "$(nproc)" -ge 2 ]; then
  last=$(( $(nproc) - 1 ))
  server_cpus=(taskset -c "$last") client_cpus=(taskset -c "0-$(( last - 1 ))")
fi
# start NAME BINARY -> sets NAME_url
start() {
  local port
  port=$(free_port)
  RUST_LOG=warn "${server_cpus[@]}" "$2" serve --host 127.0.0.1 --port "$port" >"$work/$1.log" 2>&1 &
  pids+=($!)
  wait_until 60 curl -sf "http://127.0.0.1:$port/healthz" -o /dev/null ||
    { echo "$1 ($2) did not start:" >&2; cat "$work/$1.log" >&2; exit 1; }
  printf -v "${1}_url" 'http://127.0.0.1:%s/solve' "$port"
}
start old "$old_bin"
start new "$new_bin"

echo "file: $(basename "$file"), $connections connections, ${secs} s per run, $(nproc) cores, wrk on the same machine"
echo "old: $old ($old_bin); new: $new ($new_bin)"
echo
echo "| round | old 200s/s | old p50 ms | new 200s/s | new p50 ms | new/old | statuses old; new |"
echo "|---:|---:|---:|---:|---:|---:|---|"
ratios=()
for round in $(seq 1 "$rounds"); do
  if (( round % 2 )); then
    o=$(wrk_result "$old_url" "$connections" "$secs" "$work/bodies.jsonl" "${client_cpus[@]}")
    n=$(wrk_result "$new_url" "$connections" "$secs" "$work/bodies.jsonl" "${client_cpus[@]}")
  else
    n=$(wrk_result "$new_url" "$connections" "$secs" "$work/bodies.jsonl" "${client_cpus[@]}")
    o=$(wrk_result "$old_url" "$connections" "$secs" "$work/bodies.jsonl" "${client_cpus[@]}")
  fi
  orps=$(ok_rps "$o") nrps=$(ok_rps "$n")
  ratio=$(awk -v a="$orps" -v b="$nrps" 'BEGIN { printf "%.2f", a ? b / a : 0 }')
  ratios+=("$ratio")
  echo "| $round | $orps | $(result_field p50_ms "$o") | $nrps | $(result_field p50_ms "$n") | $ratio | $(result_field statuses "$o"); $(result_field statuses "$n") |"
done
echo "| median | | | | | $(echo "${ratios[*]}" | median) | |"
