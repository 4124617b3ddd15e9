#!/usr/bin/env bash
# Batch throughput: POST /solve/batch (text/plain, 10,000 puzzles per request, sequential
# requests) against `sudoku-service solve --threads <cores> --unique` on the same puzzles:
# the batch always checks uniqueness, so the CLI is asked for the same work.
# usage: scripts/bench/bench-batch.sh [PUZZLE_FILE] [PUZZLES]   (defaults: 17-clue file, 40000)
set -euo pipefail
cd "$(dirname "$0")/../.."
file=${1:-../shared/data/puzzles_17_clue.txt}
[ -s "$file" ] || { echo "$(basename "$0"): FAIL: puzzle file $file missing (../shared/data beside the repository)" >&2; exit 1; }
count=${2:-40000}
cargo build --quiet --release --bin sudoku-service
source scripts/lib/server.sh
work=$(mktemp -d)
trap 'kill "${svc_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
head -n "$count" "$file" >"$work/puzzles.txt"
split -l 10000 -d "$work/puzzles.txt" "$work/part-"
cores=$(nproc)

cli_start=$(date +%s.%N)
target/release/sudoku-service solve --threads "$cores" --unique "$work/puzzles.txt" \
  >"$work/cli.out" 2>/dev/null
cli_secs=$(awk -v s="$cli_start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')

start_server svc "$work/service.log" target/release/sudoku-service serve --host 127.0.0.1 --port 0
http_start=$(date +%s.%N)
for part in "$work"/part-*; do
  curl -fsS -m 120 -H 'Content-Type: text/plain' --data-binary "@$part" \
    "$svc_base/solve/batch" >>"$work/http.out"
done
http_secs=$(awk -v s="$http_start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
cmp -s "$work/cli.out" "$work/http.out" && same=yes || same=no

awk -v n="$(wc -l <"$work/puzzles.txt")" -v c="$cli_secs" -v h="$http_secs" -v cores="$cores" \
    -v same="$same" -v f="$(basename "$file")" 'BEGIN {
  printf "| file | puzzles | CLI --threads %d --unique puzzles/s | /solve/batch puzzles/s | ratio | same answers |\n", cores
  print "|---|---:|---:|---:|---:|---|"
  printf "| %s | %d | %.0f | %.0f | %.2f | %s |\n", f, n, n / c, n / h, c / h, same
}'
