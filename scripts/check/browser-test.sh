#!/usr/bin/env bash
# The playground page end to end in headless Chromium: a release server on a free loopback
# port, Playwright (playwright-core from npm) driving Debian's Chromium. Installs what it
# lacks (apt: chromium; npm: tests/browser's locked packages). Screenshots go to
# artifacts/browser/. Bounded: the whole run is cut off after 5 minutes.
# usage: scripts/check/browser-test.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! [ -x /usr/bin/chromium ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if ! command -v npm >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi
(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
cargo build --quiet --release --bin sudoku-service

export SUDOKU_BIN="$PWD/target/release/sudoku-service"
export ARTIFACTS="$PWD/artifacts/browser"
export CHROMIUM=/usr/bin/chromium
rm -rf "$ARTIFACTS"
cd tests/browser
timeout 300 node --test --test-reporter=spec playground.test.mjs
echo "screenshots: $(ls "$ARTIFACTS" | tr '\n' ' ')in $ARTIFACTS"
