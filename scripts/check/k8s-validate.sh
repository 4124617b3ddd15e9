#!/usr/bin/env bash
# Offline validation of the Kubernetes manifests in deploy/k8s/:
#   1. every manifest against the Kubernetes JSON schemas bundled in the PyPI package
#      kubernetes-validate, in strict mode (unknown fields are errors), for Kubernetes 1.30 (the
#      oldest release with the preStop sleep action on by default) and the newest bundled;
#   2. the kustomization rendered by `kubectl kustomize`, validated the same way; kubectl is
#      installed from Debian's packages (kubernetes-client) where missing, and the script
#      fails when it cannot be had (KUBECTL=PATH picks another kubectl);
#   3. scripts/check/k8s_check.py: cross-object consistency (grace period vs shutdown timeline, probe
#      paths and ports, selectors, HPA floor vs PDB, CPU limit vs solver threads, lock-down);
#   4. the same for deploy/k8s/bank/ (the puzzle bank's Indexed Job, its volume, and the merge
#      Job applied after it): schemas, its own kustomization, and k8s_check.py --bank.
# Needs no cluster and no network after the first install (pip, into a private venv).
# Bounded: install at most 5 minutes, each check at most 2 minutes.
# usage: scripts/check/k8s-validate.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=deploy/k8s
version=1.37.0 # kubernetes-validate; its schemas cover Kubernetes 1.25 to 1.37
k8s_versions=(1.30.0 1.37.0)
venv=${K8S_VALIDATE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/sudoku-service/k8s-validate}

fail() {
  echo "k8s-validate: FAIL: $*" >&2
  exit 1
}

# A venv of its own: the package pins jsonschema and friends, which other tools here
# (schemathesis) also use from the system Python.
if ! "$venv/bin/kubernetes-validate" --version 2>/dev/null | grep -qx "$version"; then
  echo "installing kubernetes-validate $version into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  timeout 300 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "kubernetes-validate==$version" || fail "could not install kubernetes-validate $version"
fi
py="$venv/bin/python"

# The manifests of a directory are the files its kustomization.yaml lists (k8s_check.py checks
# that this is every YAML file in it, but for a bank's merge-job.yaml, applied by hand).
listed() { # dir
  "$py" -c '
import sys, yaml
for name in yaml.safe_load(open(sys.argv[1]))["resources"]:
    print(sys.argv[2] + "/" + name)
' "$1/kustomization.yaml" "$1"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# kubernetes-validate prints ERROR for a schema violation (exit 1) but only WARN, with exit 0,
# for a kind/apiVersion it has no schema for - a typo there must fail too.
schema_check() { # what, files...
  local what=$1 rc=0 args=()
  shift
  for v in "${k8s_versions[@]}"; do args+=(-k "$v"); done
  timeout 120 "$venv/bin/kubernetes-validate" --strict "${args[@]}" "$@" >"$work/out" 2>&1 || rc=$?
  cat "$work/out"
  [ "$rc" -eq 0 ] || fail "$what: schema validation failed (exit $rc)"
  ! grep -q '^WARN' "$work/out" ||
    fail "$what: a resource has no schema (wrong kind or apiVersion?)"
}

kubectl=${KUBECTL:-kubectl}
if ! command -v "$kubectl" >/dev/null 2>&1; then
  echo "installing kubectl (Debian's kubernetes-client) to render the kustomization"
  { timeout 300 apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq kubernetes-client >/dev/null; } ||
    fail "kubectl is needed to render the kustomization and could not be installed"
  command -v "$kubectl" >/dev/null 2>&1 || fail "kubernetes-client installed no $kubectl"
fi
echo "$("$kubectl" version --client 2>/dev/null | head -n 1)"

# The schemas of a directory's manifests (and of `extra` files beside them), then its
# kustomization as kubectl renders it.
check_dir() { # dir, extra files...
  local d=$1 manifests rendered
  shift
  mapfile -t manifests < <(listed "$d")
  [ "${#manifests[@]}" -gt 0 ] || fail "$d/kustomization.yaml lists no resources"
  echo "== schemas: ${manifests[*]} $* (strict, Kubernetes ${k8s_versions[*]})"
  schema_check "$d manifests" "${manifests[@]}" "$@"
  echo "== kustomize build $d"
  timeout 120 "$kubectl" kustomize "$d" >"$work/rendered.yaml" ||
    fail "kubectl kustomize $d failed"
  rendered=$(grep -c '^kind:' "$work/rendered.yaml" || true)
  echo "kubectl kustomize: $rendered objects"
  [ "$rendered" = "${#manifests[@]}" ] ||
    fail "the kustomization of $d rendered $rendered objects, not the ${#manifests[@]} it lists"
  schema_check "rendered kustomization of $d" "$work/rendered.yaml"
}

check_dir "$dir"
check_dir "$dir/bank" "$dir/bank/merge-job.yaml"

echo "== consistency"
timeout 120 "$py" scripts/check/k8s_check.py "$dir" || fail "consistency checks failed"
timeout 120 "$py" scripts/check/k8s_check.py --bank "$dir/bank" || fail "bank consistency checks failed"

echo "k8s-validate: all checks passed"
