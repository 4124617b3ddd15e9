#!/usr/bin/env bash
# Single-thread solver speed, ours (examples/throughput.rs) against the peer crate
# (shared/peer-bench, the AGPL `sudoku` crate: a yardstick, never a dependency), on every
# puzzle file, in both modes: `one` (first solution) and `unique` (count solutions up to 2).
#
# For each file it runs PAIRS pairs of the two programs back to back, alternating which goes
# first, each looping over the file for MIN_SECS per mode, and takes the time ratio ours/peer
# (lower is faster) of each pair. The table shows every pair's ratio and their median: noise
# from other jobs on the machine hits both programs of a pair alike, and the median drops
# the pairs it hit unevenly.
#
# Bounded: about 4 * MIN_SECS * PAIRS seconds per file (2 min for the six shared files with
# the defaults), plus the builds. Offline: the peer builds from its lock file and the local
# cargo cache once it has been built here before.
#
# usage: scripts/bench/solver-vs-peer.sh [MIN_SECS] [PAIRS] [FILE...]
#        (defaults: 1 s, 5 pairs, ../shared/data/*.txt)
set -euo pipefail
cd "$(dirname "$0")/../.."
min_secs=${1:-1}
pairs=${2:-5}
shift $(($# < 2 ? $# : 2))
shared=../shared
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=("$shared"/data/*.txt)
fi
work=${TMPDIR:-/tmp}/sudoku-peer-bench
# The shared folder may be read-only: build the peer from a copy.
mkdir -p "$work"
cp -r "$shared/peer-bench/." "$work/"
chmod -R u+w "$work"
cargo build --quiet --release --offline --manifest-path "$work/Cargo.toml" 2>/dev/null ||
  cargo build --quiet --release --manifest-path "$work/Cargo.toml"
cargo build --quiet --release --example throughput
peer="$work/target/release/peer-bench"
ours=target/release/examples/throughput

# Both programs print `| file | puzzles | one/s | one us | unique/s | unique us |` rows.
median() {
  printf '%s\n' "$@" | sort -n |
    awk '{ v[NR] = $1 } END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
us_per_puzzle() { "$1" --min-secs "$min_secs" "$2" | tail -n 1 | awk -F'|' '{print $5, $7}'; }

echo "| file | one: ours/peer per pair | one: median | unique: ours/peer per pair | unique: median |"
echo "|---|---|---:|---|---:|"
for file in "${files[@]}"; do
  one=() unique=()
  for ((i = 0; i < pairs; i++)); do
    if ((i % 2 == 0)); then
      read -r p1 p2 < <(us_per_puzzle "$peer" "$file")
      read -r o1 o2 < <(us_per_puzzle "$ours" "$file")
    else
      read -r o1 o2 < <(us_per_puzzle "$ours" "$file")
      read -r p1 p2 < <(us_per_puzzle "$peer" "$file")
    fi
    one+=("$(awk -v o="$o1" -v p="$p1" 'BEGIN { printf "%.3f", o / p }')")
    unique+=("$(awk -v o="$o2" -v p="$p2" 'BEGIN { printf "%.3f", o / p }')")
  done
  echo "| $(basename "$file" .txt) | ${one[*]} | $(median "${one[@]}") | ${unique[*]} | $(median "${unique[@]}") |"
done
