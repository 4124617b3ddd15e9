#!/usr/bin/env bash
# Instructions per puzzle of the classic solver in two builds, on the shared puzzle files:
# `solve --threads 1 --unique` (count to two, as /solve does; one thread solves inline) under
# callgrind, minus the same command on an empty file (start-up and exit), divided by the
# puzzles solved. Instruction counts do not depend on how busy the machine is, so this
# settles a speed question that wall-clock pairs on a shared machine cannot (they swing by a
# third on easy files, where a puzzle takes a few microseconds).
#
# OLD and NEW are what scripts/bench/bench-revisions.sh takes: git revisions (built once each into
# target/revisions/), `.` for this worktree's release build, or a built binary's path.
#
# usage: scripts/bench/bench-solver-instructions.sh OLD NEW [PUZZLES] [FILE...]
#        (defaults: 2000 puzzles from each of puzzles_17_clue, unbiased_first1000,
#        serg_benchmark, magictour_top1465 and forum_hardest_1106 in ../shared/data)
# Bounded: valgrind runs about 50x slower than native: a few seconds per file and build.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 2 ] || { sed -n 2,15p "$0" >&2; exit 2; }
old=$1 new=$2 puzzles=${3:-2000}
shift $(($# < 3 ? $# : 3))
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  for name in puzzles_17_clue unbiased_first1000 serg_benchmark magictour_top1465 forum_hardest_1106; do
    files+=("../shared/data/$name.txt")
  done
fi
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }

binaries=$(BENCH_BUILD_ONLY=1 bash scripts/bench/bench-revisions.sh "$old" "$new")
old_bin=$(sed -n '1s/^.*: //p' <<<"$binaries")
new_bin=$(sed -n '2s/^.*: //p' <<<"$binaries")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$work/empty.txt"

# instructions BINARY FILE -> the total callgrind counted for `solve` over FILE
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" solve --threads 1 --unique "$2" \
    2>&1 >/dev/null | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}

printf '%-28s %8s %14s %14s %7s\n' file puzzles old/puzzle new/puzzle new/old
for file in "${files[@]}"; do
  [ -s "$file" ] || { echo "$(basename "$0"): FAIL: puzzle file $file missing" >&2; exit 1; }
  head -n "$puzzles" "$file" >"$work/puzzles.txt"
  count=$(wc -l <"$work/puzzles.txt")
  per_puzzle() {
    local total empty
    total=$(instructions "$1" "$work/puzzles.txt")
    empty=$(instructions "$1" "$work/empty.txt")
    echo $(((total - empty) / count))
  }
  old_per=$(per_puzzle "$old_bin")
  new_per=$(per_puzzle "$new_bin")
  printf '%-28s %8d %14d %14d %7.3f\n' "$(basename "$file" .txt)" "$count" "$old_per" "$new_per" \
    "$(echo "$new_per / $old_per" | bc -l)"
done
