#!/usr/bin/env bash
# Bank throughput: `sudoku-service generate --distinct` per level on every core, as a table of
# puzzles per second (written puzzles only: skipped seeds cost time but give no line), with
# the seeds skipped and the load average beside it (the machine is shared; the figures move
# with it). Each level's count is sized to take seconds, not minutes, in a release build.
# usage: scripts/bench/bench-bank.sh [THREADS]   (default: all cores)
#        BANK_LEVELS="easy:2000 hard:300" scripts/bench/bench-bank.sh   (levels and counts)
#        SUDOKU_BIN=path/to/sudoku-service scripts/bench/bench-bank.sh   (that binary, no build)
set -euo pipefail
cd "$(dirname "$0")/../.."
threads=${1:-$(nproc)}
levels=${BANK_LEVELS:-"easy:2000 medium:1000 hard:300 expert:300 master:300 extreme:12"}
bin=${SUDOKU_BIN:-target/release/sudoku-service}
[ -n "${SUDOKU_BIN:-}" ] || cargo build --quiet --release --bin sudoku-service
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| level | puzzles | seeds skipped | seconds | puzzles/s | threads | load average |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for entry in $levels; do
  level=${entry%%:*} count=${entry##*:}
  summary=$(timeout 1800 "$bin" generate --count "$count" \
    --level "$level" --distinct --seed 2026 --threads "$threads" \
    --out "$work/$level.ndjson" 2>&1 >/dev/null | tail -n 1)
  # "N puzzles written (K seeds skipped in all) in T s (R puzzles/s, C threads); seed S"
  read -r written skipped secs rate < <(echo "$summary" |
    sed -E 's/^([0-9]+) puzzles written \(([0-9]+) seeds skipped in all\) in ([0-9.]+) s \(([0-9.]+) puzzles\/s.*/\1 \2 \3 \4/')
  [ "$written" = "$count" ] || { echo "bench-bank: FAIL: $level: $summary" >&2; exit 1; }
  lines=$(grep -c '"cursor"' "$work/$level.ndjson")
  [ "$lines" = "$count" ] || { echo "bench-bank: FAIL: $level: $lines puzzle lines" >&2; exit 1; }
  echo "| $level | $written | $skipped | $secs | $rate | $threads | $(cut -d' ' -f1 /proc/loadavg) |"
done
