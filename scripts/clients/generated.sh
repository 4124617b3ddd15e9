#!/usr/bin/env bash
# Generated clients, as an integrator makes them: the Python client (openapi-python-client)
# and the TypeScript types (openapi-typescript, compiled with `tsc --strict`) are generated
# from the spec the release server serves, with no warning allowed from either generator,
# and a short program over each (play.py, play.ts beside this script) runs against release
# servers: a classic game played to the end, a Killer solved, a batch, and a 429 read as a
# typed problem from a second server started with a low rate limit.
#
# Installs what it needs itself, every version pinned (requirements.txt into a fresh venv,
# package-lock.json into a temporary directory); nothing generated is kept or committed.
# usage: scripts/clients/generated.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
cargo build --quiet --release --bin sudoku-service
source scripts/lib/server.sh

work=$(mktemp -d)
trap 'kill "${svc_pid:-}" "${limited_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

start_server svc "$work/svc.log" target/release/sudoku-service serve --host 127.0.0.1 --port 0
# One request a second, two at once: the program's third quick request is a 429.
start_server limited "$work/limited.log" target/release/sudoku-service serve --host 127.0.0.1 \
  --port 0 --rate-limit 1 --rate-burst 2

curl -sSf "$svc_base/openapi.json" -o "$work/openapi.json"

# Fails when a generator said anything but its progress lines (a warning is a piece of the
# API an integrator's client silently lacks).
quiet_or_fail() {
  local what=$1 output=$2 allowed=$3
  if grep -Evq "$allowed" <<<"$output"; then
    echo "FAIL: $what printed more than its progress:"
    echo "$output"
    return 1
  fi
}

echo "--- Python: openapi-python-client"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
# The generator writes a request body with two media types as an `isinstance` test on a
# parameterized `list[...]`, which raises TypeError whichever body is passed (its issue
# #1276 family): the batch's text/plain form, which is for curl, is left out of the copy it
# reads, so the Python client speaks the JSON form. The generator cannot model a picture
# (image/svg+xml, image/png, application/pdf: "Unsupported content_type", the response left
# out with a warning), so the pictures of /render, /booklet and GET /generate are left out of
# the copy too: a Python caller gets the status and the raw bytes. Nothing else in the spec
# is changed.
python3 - "$work/openapi.json" "$work/openapi-python.json" <<'PY'
import json, sys
spec = json.load(open(sys.argv[1]))
for body in spec["components"]["requestBodies"].values():
    if "application/json" in body["content"]:
        body["content"].pop("text/plain", None)
for item in spec["paths"].values():
    for operation in item.values():
        for response in operation.get("responses", {}).values() if isinstance(operation, dict) else ():
            content = response.get("content", {})
            for media in [m for m in content if m.startswith("image/") or m == "application/pdf"]:
                del content[media]
            if "content" in response and not content:
                del response["content"]
json.dump(spec, open(sys.argv[2], "w"))
PY
# ruff (a dependency of the generator) formats the client in the generator's post hooks.
output=$(cd "$work" && PATH="$work/venv/bin:$PATH" openapi-python-client generate \
  --path openapi-python.json --config "$here/python-client.yaml" --output-path python 2>&1)
quiet_or_fail openapi-python-client "$output" '^(Generating .*|All checks passed!|[0-9]+ files? (reformatted|left unchanged)(, [0-9]+ files? (reformatted|left unchanged))?|Found [0-9]+ errors? \([0-9]+ fixed, 0 remaining\)\.|)$'
PYTHONPATH="$work/python" timeout 60 "$work/venv/bin/python" "$here/play.py" "$svc_base" "$limited_base"

echo "--- TypeScript: openapi-typescript, tsc --strict"
mkdir "$work/ts"
cp "$here/package.json" "$here/package-lock.json" "$here/play.ts" "$work/ts/"
(cd "$work/ts" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
output=$(cd "$work/ts" && ./node_modules/.bin/openapi-typescript ../openapi.json -o api.d.ts 2>&1)
quiet_or_fail openapi-typescript "$output" '^(✨ openapi-typescript [0-9.]+|🚀 .* → .*api\.d\.ts \[[0-9.]+m?s\]|)$'
(cd "$work/ts" && ./node_modules/.bin/tsc --strict --noEmitOnError --target es2022 \
  --module nodenext --moduleResolution nodenext --types node play.ts)
timeout 60 node "$work/ts/play.js" "$svc_base" "$limited_base"

stop_server svc
stop_server limited
echo "generated clients: Python and TypeScript passed"
