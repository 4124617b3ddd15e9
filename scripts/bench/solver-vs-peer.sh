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
# With TDOKU_BUILD=DIR the peer is tdoku instead (github.com/t-dillon/tdoku, MIT): DIR is
# the build directory of the person running this, holding its `run_benchmark`, built from
# tdoku's sources by its own CMake (e.g. clang -O3 -march=native); nothing of tdoku is in
# this repository and nothing here builds it. Its benchmark runs on the same puzzles in file
# order (`-r 0`, and `-n` the file's puzzle count so that it does not pad the set), `-f`
# for the first solution and without it counting to 2, each for
# MIN_SECS (whole seconds) after a second of warm-up, and reports microseconds per puzzle.
#
# Bounded: about 4 * MIN_SECS * PAIRS seconds per file (2 min for the six shared files with
# the defaults; with tdoku, whose warm-up adds a second per mode, about 6 * MIN_SECS *
# PAIRS), plus the builds. Offline: the peer builds from its lock file and the local cargo
# cache once it has been built here before.
#
# usage: [TDOKU_BUILD=DIR] scripts/bench/solver-vs-peer.sh [MIN_SECS] [PAIRS] [FILE...]
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
if [ -n "${TDOKU_BUILD:-}" ]; then
  peer="$TDOKU_BUILD/run_benchmark"
  [ -x "$peer" ] || { echo "$(basename "$0"): FAIL: no run_benchmark in TDOKU_BUILD=$TDOKU_BUILD (build tdoku there first)" >&2; exit 1; }
  peer_name=tdoku
else
  work=${TMPDIR:-/tmp}/sudoku-peer-bench
  # The shared folder may be read-only: build the peer from a copy.
  mkdir -p "$work"
  cp -r "$shared/peer-bench/." "$work/"
  chmod -R u+w "$work"
  cargo build --quiet --release --offline --manifest-path "$work/Cargo.toml" 2>/dev/null ||
    cargo build --quiet --release --manifest-path "$work/Cargo.toml"
  peer="$work/target/release/peer-bench"
  peer_name=peer
fi
cargo build --quiet --release --example throughput
ours=target/release/examples/throughput

# Both programs print `| file | puzzles | one/s | one us | unique/s | unique us |` rows.
median() {
  printf '%s\n' "$@" | sort -n |
    awk '{ v[NR] = $1 } END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# "first-solution-us count-to-2-us" of one program on one file.
us_per_puzzle() {
  if [ "$1" = "$peer" ] && [ -n "${TDOKU_BUILD:-}" ]; then
    local secs=$((${min_secs%.*} > 0 ? ${min_secs%.*} : 1)) mode us=()
    # `-n` the file's own count: without it tdoku pads its test set to 100,000 puzzles with
    # random picks from the file, so the set would not be exactly the file ours runs on.
    local count
    count=$(grep -cv -e '^$' -e '^#' "$2")
    for mode in -f ""; do
      # CSV rows: compiler, version, flags, file, solver, puzzles/s, us/puzzle, ...
      us+=("$("$peer" -s tdoku -c 1 -r 0 -n "$count" -w 1 -t "$secs" $mode "$2" | awk -F, '$5 == "tdoku" { print $7 }')")
    done
    echo "${us[*]}"
  else
    "$1" --min-secs "$min_secs" "$2" | tail -n 1 | awk -F'|' '{print $5, $7}'
  fi
}

echo "| file | one: ours/$peer_name per pair | one: median | unique: ours/$peer_name per pair | unique: median |"
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
