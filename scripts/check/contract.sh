#!/usr/bin/env bash
# Contract test: schemathesis (all checks) against a release server, driven by openapi.yaml.
# usage: scripts/check/contract.sh [EXAMPLES_PER_OPERATION]     (default 300)
set -euo pipefail
cd "$(dirname "$0")/../.."
examples=${1:-300}
version=4.32.5
if ! schemathesis --version 2>/dev/null | grep -q "$version"; then
  python3 -m pip install --quiet "schemathesis==$version"
fi
cargo build --quiet --release --bin sudoku-service
source scripts/lib/server.sh
log=$(mktemp)
trap 'kill "${svc_pid:-}" 2>/dev/null || true; rm -f "$log"' EXIT
# Random rating ranges often hold no puzzle (e.g. 15-20): a small generation budget makes
# each of those a quick 422 generation-failed instead of seconds of search. A random batch
# `count` runs to the 10,000 default, each such request then streaming until the time limit
# (10 s): three puzzles a batch keep the run's length what it was before the batch endpoint.
start_server svc "$log" target/release/sudoku-service serve --host 127.0.0.1 --port 0 \
  --generate-work-budget 200000 --generate-batch-max 3 --booklet-max-pages 3
schemathesis --config-file tests/contract/schemathesis.toml run openapi.yaml \
  --url "$svc_base" \
  --checks all \
  --max-examples "$examples" \
  --seed "${CONTRACT_SEED:-20261130}" \
  --request-timeout 10 \
  --no-color
