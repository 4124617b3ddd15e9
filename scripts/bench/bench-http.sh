#!/usr/bin/env bash
# HTTP throughput: POST /solve on the release service vs a baseline that parses the same JSON
# and board but does not solve (examples/baseline_server.rs), with wrk at 1, 16 and 64
# connections on loopback. Prints requests/s, p50/p99/p99.9 latency and the ratio.
#
# usage: scripts/bench/bench-http.sh [SECONDS_PER_RUN] [PUZZLE_FILE]
#        (defaults: 10 s, ../shared/data/puzzles_17_clue.txt)
#        BENCH_ROUNDS=N runs N service/baseline pairs per connection count (alternating which
#        goes first) and adds a row with the median ratio and median p99/p50;
#        BENCH_PIN=1 pins both servers to the last core and wrk to the others;
#        BENCH_CONNECTIONS="64" runs only the listed connection counts (default "1 16 64");
#        the service takes its settings from the environment (e.g. SUDOKU_INLINE_BUDGET=0).
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-10}
file=${2:-../shared/data/puzzles_17_clue.txt}
[ -s "$file" ] || { echo "$(basename "$0"): FAIL: puzzle file $file missing (../shared/data beside the repository)" >&2; exit 1; }

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
cargo build --quiet --release --bin sudoku-service --example baseline_server

source scripts/lib/server.sh
source scripts/lib/wrk.sh
work=$(mktemp -d)
cleanup() { kill "${svc_pid:-}" "${base_pid:-}" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

head -n 5000 "$file" | awk '{ printf "{\"board\":\"%s\"}\n", $0 }' >"$work/bodies.jsonl"

# BENCH_PIN=1: both servers on the last core, wrk on the others, so the load generator does
# not take turns with the server on the same core (as on a separate client machine).
server_cpus=() client_cpus=()
if [ "${BENCH_PIN:-0}" = 1 ] && [ "$(nproc)" -ge 2 ]; then
  last=$(( $(nproc) - 1 ))
  server_cpus=(taskset -c "$last") client_cpus=(taskset -c "0-$(( last - 1 ))")
fi
start_server svc "$work/service.log" "${server_cpus[@]}" target/release/sudoku-service serve \
  --host 127.0.0.1 --port 0
start_server base "$work/baseline.log" "${server_cpus[@]}" target/release/examples/baseline_server 0

run() { # url connections -> RESULT line
  local threads=$(( $2 < 2 ? 1 : 2 ))
  "${client_cpus[@]}" wrk -t "$threads" -c "$2" -d "${secs}s" --timeout 5s -s scripts/bench/wrk-bodies.lua "$1" \
    -- "$work/bodies.jsonl" | grep '^RESULT'
}
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

echo "file: $(basename "$file"), ${secs} s per run, $(nproc) cores, wrk on the same machine"
echo
echo "| connections | service 200s/s | p50 ms | p99 ms | p99.9 ms | baseline 200s/s | baseline p50 ms | baseline p99 ms | ratio | p99/p50 | statuses |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"

rounds=${BENCH_ROUNDS:-1}
for c in ${BENCH_CONNECTIONS:-1 16 64}; do
  ratios=() spreads=()
  for round in $(seq 1 "$rounds"); do
    # Alternate which server goes first, so a slow drift of the machine does not favour one.
    if (( round % 2 )); then
      s=$(run "$svc_base/solve" "$c")
      b=$(run "$base_base/solve" "$c")
    else
      b=$(run "$base_base/solve" "$c")
      s=$(run "$svc_base/solve" "$c")
    fi
    # Only 200s count: a shed request (503) is not throughput.
    row=$(awk -v c="$c" -v srps="$(field rps "$s")" -v s50="$(field p50_ms "$s")" \
        -v s99="$(field p99_ms "$s")" -v s999="$(field p999_ms "$s")" \
        -v sn="$(field requests "$s")" -v st="$(field statuses "$s")" \
        -v brps="$(field rps "$b")" -v b50="$(field p50_ms "$b")" -v b99="$(field p99_ms "$b")" \
        -v bn="$(field requests "$b")" -v bt="$(field statuses "$b")" '
      function ok(statuses, n,   parts, i, k) {
        if (n == 0) return 0
        k = split(statuses, parts, ",")
        for (i = 1; i <= k; i++) if (parts[i] ~ /^200=/) return substr(parts[i], 5) / n
        return 0
      }
      BEGIN {
        srps *= ok(st, sn); brps *= ok(bt, bn)
        printf "| %d | %.0f | %.3f | %.3f | %.3f | %.0f | %.3f | %.3f | %.2f | %.1f | %s |\n",
          c, srps, s50, s99, s999, brps, b50, b99, brps ? srps / brps : 0, s50 ? s99 / s50 : 0, st }')
    echo "$row"
    ratios+=("$(cut -d'|' -f10 <<<"$row")") spreads+=("$(cut -d'|' -f11 <<<"$row")")
  done
  if (( rounds > 1 )); then
    echo "| $c: median of $rounds | | | | | | | | $(echo ${ratios[*]} | median) | $(echo ${spreads[*]} | median) | |"
  fi
done
