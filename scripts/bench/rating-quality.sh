#!/usr/bin/env bash
# How closely our Sudoku Explainer ratings follow SE's own, over the rated puzzle files.
#
# Usage: scripts/bench/rating-quality.sh [DIR] [--worst N]
#   DIR        folder of `PUZZLE RATING` .txt files (default: ../shared/data/rated, relative to
#              the repository root)
#   --worst N  also list the N biggest disagreements (puzzle, SE rating, ours, our hardest
#              technique), to find which rule differs
#
# Prints the Spearman rank correlation, the share of puzzles rated within 0.3 of SE and
# exactly equal, how many puzzles up to SE 9.0 got a rating at all, the mean absolute
# difference, and a confusion table of levels (rows: the SE rating's band, columns: ours).
# Targets (issue 14): Spearman >= 0.95, within 0.3 >= 80%, every puzzle up to 9.0 rated.
# Needs no network: builds and runs examples/rating_quality.rs in release mode.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir="../shared/data/rated"
if [[ $# -gt 0 && "$1" != --* ]]; then
    dir="$1"
    shift
fi
if [[ ! -d "$dir" ]]; then
    echo "rating-quality: no rated files at $dir" >&2
    exit 1
fi
cargo run --quiet --release --example rating_quality -- "$dir" "$@"
