#!/usr/bin/env bash
# Single-thread solver throughput, ours vs the peer crate (shared/peer-bench), on every puzzle
# file, measured in one run and interleaved per file so machine noise hits both alike.
# Prints a markdown table of puzzles/s and the ratio ours/peer for modes `one` and `unique`.
#
# usage: scripts/solver-vs-peer.sh [MIN_SECS]    (default 2 s per file and mode)
set -euo pipefail
cd "$(dirname "$0")/.."
min_secs=${1:-2}
shared=../shared
work=${TMPDIR:-/tmp}/sudoku-peer-bench
# The shared folder may be read-only: build the peer from a copy.
mkdir -p "$work"
cp -r "$shared/peer-bench/." "$work/"
cargo build --quiet --release --manifest-path "$work/Cargo.toml"
cargo build --quiet --release --example throughput
peer="$work/target/release/peer-bench"
ours=target/release/examples/throughput

echo "| file | peer one/s | ours one/s | ratio one | peer unique/s | ours unique/s | ratio unique |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for file in "$shared"/data/*.txt; do
  p=$("$peer" --min-secs "$min_secs" "$file" | tail -n 1)
  o=$("$ours" --min-secs "$min_secs" "$file" | tail -n 1)
  awk -v p="$p" -v o="$o" 'BEGIN {
    split(p, a, "|"); split(o, b, "|");
    gsub(/ /, "", a[2]);
    printf "| %s | %.0f | %.0f | %.2f | %.0f | %.0f | %.2f |\n",
      a[2], a[4], b[4], b[4] / a[4], a[6], b[6], b[6] / a[6]
  }'
done
