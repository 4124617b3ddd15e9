#!/usr/bin/env bash
# Docker has no engine on CI machines, so this checks the one thing about the image build that
# the release build elsewhere cannot: that the files the Dockerfile's build stage COPYs are all
# the crate needs (a new include_str! of a file outside them would break `docker build` only).
# It compiles nothing (a `cargo check` of a copied context took 74 s of every CI run):
# 1. the manifest: `cargo fetch --locked` in a directory holding exactly the copied paths, which
#    fails when a target the manifest declares (the bench) has no file there, or the lock is
#    stale;
# 2. the sources: every file of this repository that the compiler read for the release binary
#    (cargo's dep-info, target/release/sudoku-service.d: modules, include_str!, include_bytes!)
#    lies under a copied path.
# usage: scripts/check/docker-context-check.sh   (after `cargo build --release --locked`)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
dep_info=target/release/sudoku-service.d
[ -f "$dep_info" ] || {
  echo "FAIL: $dep_info is missing: run cargo build --release --locked first" >&2
  exit 1
}
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT

# COPY lines of the first stage (up to the second FROM), without --from: "COPY a b ./dest".
copied=()
while read -r _ args; do
  read -ra parts <<<"$args"
  for source in "${parts[@]:0:${#parts[@]}-1}"; do
    copied+=("${source%/}")
    mkdir -p "$context/$(dirname "$source")"
    cp -R "$source" "$context/$source"
  done
done < <(awk '/^FROM /{stage++} stage==1 && /^COPY / && !/--from/' Dockerfile)
echo "build context as the Dockerfile copies it: ${copied[*]}"

(cd "$context" && cargo fetch --locked --quiet) ||
  { echo "FAIL: the manifest does not resolve in the copied context (see above)" >&2; exit 1; }

# dep-info is "target: file file ...", spaces in names escaped with a backslash.
missing=0
read_files=0
while IFS= read -r file; do
  case $file in
    "$root"/target/* | "") continue ;;
    "$root"/*) relative=${file#"$root"/} ;;
    *) continue ;; # the registry and the toolchain: not the context's business
  esac
  read_files=$((read_files + 1))
  covered=no
  for source in "${copied[@]}"; do
    if [ "$relative" = "$source" ] || [[ $relative == "$source"/* ]]; then
      covered=yes
      break
    fi
  done
  if [ "$covered" = no ]; then
    echo "FAIL: the build reads $relative, which the Dockerfile does not COPY" >&2
    missing=1
  fi
done < <(sed -e 's/^[^:]*: //' -e 's/\\ /\x00/g' "$dep_info" | tr ' ' '\n' | tr '\0' ' ')
[ "$missing" = 0 ] || exit 1
echo "docker build stage: sources complete ($read_files files the release build read, all copied)"
