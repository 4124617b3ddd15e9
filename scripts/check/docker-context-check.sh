#!/usr/bin/env bash
# Docker has no engine on CI machines, so this checks the one thing about the image build that
# the release build elsewhere cannot: that the files the Dockerfile's build stage COPYs are all
# the crate needs (a new include_str! of a file outside them would break `docker build` only).
# It copies exactly those paths into an empty directory and runs `cargo check --locked` there.
set -euo pipefail
cd "$(dirname "$0")/../.."
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT

# COPY lines of the first stage (up to the second FROM), without --from: "COPY a b ./dest".
awk '/^FROM /{stage++} stage==1 && /^COPY / && !/--from/' Dockerfile | while read -r _ args; do
  read -ra parts <<<"$args"
  for source in "${parts[@]:0:${#parts[@]}-1}"; do
    mkdir -p "$context/$(dirname "$source")"
    cp -R "$source" "$context/$source"
  done
done
echo "build context as the Dockerfile copies it: $(cd "$context" && ls | tr '\n' ' ')"
CARGO_TARGET_DIR="$PWD/target" cargo check --quiet --release --locked --bins \
  --manifest-path "$context/Cargo.toml"
echo "docker build stage: sources complete"
