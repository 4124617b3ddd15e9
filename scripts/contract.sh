#!/usr/bin/env bash
# Contract test: schemathesis (all checks) against a release server, driven by openapi.yaml.
# usage: scripts/contract.sh [EXAMPLES_PER_OPERATION]     (default 300)
set -euo pipefail
cd "$(dirname "$0")/.."
examples=${1:-300}
port=${CONTRACT_PORT:-18490}
version=4.32.5
if ! schemathesis --version 2>/dev/null | grep -q "$version"; then
  python3 -m pip install --quiet "schemathesis==$version"
fi
cargo build --quiet --release --bin sudoku-service
RUST_LOG=warn target/release/sudoku-service serve --host 127.0.0.1 --port "$port" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  curl -fs -o /dev/null -m 1 "http://127.0.0.1:$port/healthz" && break
  sleep 0.1
done
schemathesis --config-file tests/contract/schemathesis.toml run openapi.yaml \
  --url "http://127.0.0.1:$port" \
  --checks all \
  --max-examples "$examples" \
  --seed "${CONTRACT_SEED:-20261130}" \
  --request-timeout 10 \
  --no-color
