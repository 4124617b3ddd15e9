#!/usr/bin/env bash
# Runs every cargo-fuzz target for a fixed time (default 60 s each; CI uses a few seconds).
# cargo fuzz needs a nightly toolchain: when the machine has none it is installed with rustup
# (minimal profile), and cargo-fuzz with cargo; when either cannot be had the script fails,
# so fuzzing is never skipped quietly. Each target must report libFuzzer's closing "Done N
# runs" line, so a run that never started cannot pass either.
# usage: scripts/check/fuzz.sh [SECONDS_PER_TARGET]
#        FUZZ_TOOLCHAIN=NAME uses that toolchain instead of `nightly`;
#        FUZZ_PROFILE=dev builds the targets unoptimised (`cargo fuzz run --dev`), with debug
#        assertions and overflow checks: CI's smoke run uses it, because the optimised build
#        with one codegen unit took about 640 s of a cold CI run against 200 s for dev, and
#        a few seconds of fuzzing need no speed. Long runs keep the default, `release`.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
toolchain=${FUZZ_TOOLCHAIN:-nightly}

fail() {
  echo "fuzz: FAIL: $*" >&2
  exit 1
}

case ${FUZZ_PROFILE:-release} in
  release) build_args=() input_timeout=10 ;;
  # Unoptimised code with AddressSanitizer ran solve_board roughly 20 times slower (11 inputs
  # a second replaying its corpus, about 220 in a release run), so 60 s, not 10, means a hang.
  dev) build_args=(--dev) input_timeout=60 ;;
  *) fail "FUZZ_PROFILE must be release or dev, not ${FUZZ_PROFILE}" ;;
esac

# Asked of the toolchain itself, not by grepping a listing: `grep -q` closing the pipe early
# made rustup fail under pipefail and read as "no nightly".
if ! rustup run "$toolchain" rustc --version >/dev/null 2>&1; then
  echo "fuzz: no $toolchain toolchain here; installing it (cargo fuzz needs one)"
  timeout 900 rustup toolchain install "$toolchain" --profile minimal ||
    fail "the $toolchain toolchain could not be installed"
fi
echo "fuzz: $(rustup run "$toolchain" rustc --version)"
if ! command -v cargo-fuzz >/dev/null; then
  echo "fuzz: installing cargo-fuzz"
  timeout 1200 cargo install --locked cargo-fuzz || fail "cargo-fuzz could not be installed"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for target in parse_board solve_board http_request; do
  echo "== fuzz $target for ${secs}s"
  mkdir -p "fuzz/corpus/$target"
  code=0
  cargo "+$toolchain" fuzz run "${build_args[@]}" "$target" "fuzz/corpus/$target" -- \
    -max_total_time="$secs" -rss_limit_mb=2048 -timeout="$input_timeout" >"$work/out" 2>&1 || code=$?
  tail -n 3 "$work/out"
  [ "$code" = 0 ] || fail "$target: cargo fuzz exited $code (a crash, or the build failed; see above)"
  grep -Eq '^Done [0-9]+ runs' "$work/out" || fail "$target: libFuzzer never reported its runs"
done
echo "fuzz: every target ran for ${secs}s (${FUZZ_PROFILE:-release} build) without a crash"
