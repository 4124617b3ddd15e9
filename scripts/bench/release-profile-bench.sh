#!/usr/bin/env bash
# Release build time against solver speed, for choosing the release profile: builds the
# binary from scratch under each candidate profile (its own target dir, so nothing is shared),
# timing the build, then times `sudoku-service solve --threads 1 --unique` on a puzzle file
# with each binary in alternating rounds (median of the rounds, as a ratio to the first).
# usage: scripts/bench/release-profile-bench.sh [ROUNDS] [FILE]     (default 5, forum_hardest_1905_11plus)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
file=${2:-../shared/data/forum_hardest_1905_11plus.txt}
out=target/profile-bench
mkdir -p "$out"
# name lto codegen-units
profiles=("fat-cu1 fat 1" "thin-cu16 thin 16" "off-cu16 off 16")
for profile in "${profiles[@]}"; do
  read -r name lto units <<<"$profile"
  dir="$out/$name"
  rm -rf "$dir"
  start=$(date +%s.%N)
  CARGO_PROFILE_RELEASE_LTO=$lto CARGO_PROFILE_RELEASE_CODEGEN_UNITS=$units \
    CARGO_TARGET_DIR="$dir" cargo build --quiet --release --locked --bin sudoku-service
  end=$(date +%s.%N)
  echo "$name build_seconds $(echo "$end - $start" | bc)" | tee -a "$out/results.txt"
done
for round in $(seq 1 "$rounds"); do
  for profile in "${profiles[@]}"; do
    read -r name _ _ <<<"$profile"
    rate=$("$out/$name/release/sudoku-service" solve --threads 1 --unique "$file" 2>&1 >/dev/null \
      | grep -o '[0-9]* puzzles/s' | cut -d' ' -f1)
    echo "$name round $round puzzles_per_second $rate" | tee -a "$out/results.txt"
  done
done
python3 - "$out/results.txt" <<'PY'
import statistics, sys, collections
builds, rates = {}, collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    if f[1] == "build_seconds": builds[f[0]] = float(f[2])
    else: rates[f[0]].append(float(f[4]))
base = statistics.median(rates["fat-cu1"])
print("| profile | build from scratch | solve puzzles/s (median) | speed vs fat-cu1 |")
print("|---|---|---|---|")
for name in builds:
    m = statistics.median(rates[name])
    print(f"| {name} | {builds[name]:.0f} s | {m:.0f} | {m / base:.2f} |")
PY
