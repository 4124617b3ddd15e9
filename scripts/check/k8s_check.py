#!/usr/bin/env python3
"""Cross-object checks on deploy/k8s/ that a schema cannot express.

usage: k8s_check.py [DIR]      (default: deploy/k8s)

Reads the files listed in DIR/kustomization.yaml and checks that the numbers and names in
them agree: the shutdown timeline fits in the grace period, probes and the Service use the
container's named port, selectors match the pod labels, the HPA floor leaves room for the
PDB, and the pod is locked down. Prints one line per failed check and exits 1 if any failed.
Needs PyYAML.
"""

import math
import os
import sys

import yaml

failures = []


def check(ok, message):
    if not ok:
        failures.append(message)
    return ok


def dig(obj, *keys, default=None):
    """obj[k1][k2]... or default when a key is missing (lists take int keys)."""
    for key in keys:
        try:
            obj = obj[key]
        except (KeyError, IndexError, TypeError):
            return default
        if obj is None:
            return default
    return obj


def cpu_cores(quantity):
    """A Kubernetes CPU quantity ("2", "1500m", 2) in cores."""
    text = str(quantity)
    if text.endswith("m"):
        return int(text[:-1]) / 1000
    return float(text)


def scaled(value, total):
    """An int-or-percent field resolved against total, rounded up as Kubernetes does."""
    if isinstance(value, str) and value.endswith("%"):
        return math.ceil(int(value[:-1]) * total / 100)
    return int(value)


def subset(selector, labels):
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def load(directory):
    with open(os.path.join(directory, "kustomization.yaml")) as f:
        kustomization = yaml.safe_load(f)
    listed = kustomization.get("resources") or []
    present = sorted(
        name
        for name in os.listdir(directory)
        if name.endswith((".yaml", ".yml")) and name != "kustomization.yaml"
    )
    check(
        sorted(listed) == present,
        f"kustomization.yaml lists {sorted(listed)} but the directory has {present}",
    )
    objects = {}
    for name in listed:
        with open(os.path.join(directory, name)) as f:
            for obj in yaml.safe_load_all(f):
                if not obj:
                    continue
                where = f"{name}: {obj.get('kind')}/{dig(obj, 'metadata', 'name')}"
                check(
                    dig(obj, "metadata", "namespace") is None,
                    f"{where} sets metadata.namespace (the manifests must stay namespace-agnostic)",
                )
                objects.setdefault(obj.get("kind"), []).append(obj)
    return objects


def the_one(objects, kind):
    found = objects.get(kind, [])
    if check(len(found) == 1, f"expected exactly one {kind}, found {len(found)}"):
        return found[0]
    return None


def env_value(container, name, default):
    for var in container.get("env") or []:
        if var.get("name") == name:
            return var.get("value", var.get("valueFrom"))
    return default


def env_int(container, name, default):
    """A literal integer env var, or default when unset."""
    value = env_value(container, name, default)
    try:
        return int(value)
    except (TypeError, ValueError):
        check(False, f"{name} must be a literal integer here so it can be checked, got {value!r}")
        return default


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else "deploy/k8s"
    objects = load(directory)
    deploy = the_one(objects, "Deployment")
    service = the_one(objects, "Service")
    hpa = the_one(objects, "HorizontalPodAutoscaler")
    pdb = the_one(objects, "PodDisruptionBudget")
    if not (deploy and service and hpa and pdb):
        return report()

    pod = dig(deploy, "spec", "template", "spec", default={})
    labels = dig(deploy, "spec", "template", "metadata", "labels", default={})
    containers = pod.get("containers") or []
    if not check(len(containers) == 1, f"expected one container, found {len(containers)}"):
        return report()
    c = containers[0]
    ports = {p.get("name"): p.get("containerPort") for p in c.get("ports") or []}
    check("http" in ports, "the container has no port named http")
    port_number = ports.get("http")

    # Shutdown timeline: preStop sleep, then SIGTERM, shutdown delay, drain; all inside the
    # grace period or the kubelet SIGKILLs a pod that is still answering requests.
    grace = pod.get("terminationGracePeriodSeconds", 30)
    pre_stop = dig(c, "lifecycle", "preStop", "sleep", "seconds", default=0)
    delay_s = env_int(c, "SUDOKU_SHUTDOWN_DELAY_MS", 0) / 1000
    drain_s = env_int(c, "SUDOKU_DRAIN_TIMEOUT_SECS", 30)
    request_s = env_int(c, "SUDOKU_REQUEST_TIMEOUT_MS", 10000) / 1000
    needed = pre_stop + delay_s + drain_s
    check(
        grace > needed,
        f"terminationGracePeriodSeconds {grace} must exceed preStop sleep {pre_stop} + "
        f"shutdown delay {delay_s:g} + drain timeout {drain_s} = {needed:g} s",
    )
    check(
        pre_stop + delay_s > 0,
        "neither a preStop sleep nor SUDOKU_SHUTDOWN_DELAY_MS: the pod would close its "
        "listener while still in the Service's endpoints",
    )
    check(
        drain_s >= request_s,
        f"SUDOKU_DRAIN_TIMEOUT_SECS {drain_s} is shorter than the request time limit "
        f"{request_s:g} s: in-flight requests could be cut off",
    )

    # Probes: the right endpoints, on the named port; liveness more patient than readiness.
    want = {"readinessProbe": "/readyz", "livenessProbe": "/healthz", "startupProbe": "/healthz"}
    for probe, path in want.items():
        if probe not in c:
            check(probe == "startupProbe", f"the container has no {probe}")
            continue
        got = dig(c, probe, "httpGet", "path")
        check(got == path, f"{probe} path is {got!r}, expected {path!r}")
        got = dig(c, probe, "httpGet", "port")
        check(got == "http", f"{probe} port is {got!r}, expected the named port 'http'")

    def patience(probe):
        return dig(c, probe, "periodSeconds", default=10) * dig(
            c, probe, "failureThreshold", default=3
        )

    check(
        patience("livenessProbe") > patience("readinessProbe"),
        f"liveness gives up after {patience('livenessProbe')} s, readiness after "
        f"{patience('readinessProbe')} s: liveness should be the more lenient",
    )

    # Service: its targetPort is the container's named port, its selector the pod labels.
    for p in dig(service, "spec", "ports", default=[]):
        check(
            p.get("targetPort") == "http",
            f"Service port {p.get('name')!r} targetPort is {p.get('targetPort')!r}, "
            "expected the container port name 'http'",
        )
    check(
        subset(dig(service, "spec", "selector"), labels),
        f"Service selector {dig(service, 'spec', 'selector')} does not match pod labels {labels}",
    )
    for what, obj in (("Deployment", deploy), ("PodDisruptionBudget", pdb)):
        selector = dig(obj, "spec", "selector", "matchLabels")
        check(
            subset(selector, labels),
            f"{what} selector {selector} does not match pod labels {labels}",
        )
    for i, spread in enumerate(pod.get("topologySpreadConstraints") or []):
        selector = dig(spread, "labelSelector", "matchLabels")
        check(
            subset(selector, labels),
            f"topologySpreadConstraints[{i}] selector {selector} does not match pod labels",
        )

    # HPA: targets this Deployment and owns its replica count.
    ref = dig(hpa, "spec", "scaleTargetRef", default={})
    check(
        (ref.get("apiVersion"), ref.get("kind"), ref.get("name"))
        == ("apps/v1", "Deployment", dig(deploy, "metadata", "name")),
        f"HPA scaleTargetRef {ref} is not the Deployment {dig(deploy, 'metadata', 'name')}",
    )
    check(
        "replicas" not in deploy.get("spec", {}),
        "Deployment sets spec.replicas although the HPA owns it: every apply would reset it",
    )
    low = dig(hpa, "spec", "minReplicas", default=1)
    high = dig(hpa, "spec", "maxReplicas", default=0)
    check(low <= high, f"HPA minReplicas {low} > maxReplicas {high}")

    # PDB vs HPA floor: at the minimum scale a drain must be able to evict a pod, and at least
    # two must keep serving while it does.
    spec = pdb.get("spec", {})
    if "minAvailable" in spec:
        floor = scaled(spec["minAvailable"], low)
    else:
        floor = low - scaled(spec.get("maxUnavailable", 0), low)
    check(
        low >= floor + 1,
        f"HPA minReplicas {low} must be at least the PDB's available floor {floor} + 1, "
        "or node drains block",
    )
    check(floor >= 2, f"the PDB lets voluntary disruptions go down to {floor} serving pod(s)")

    strategy = dig(deploy, "spec", "strategy", "rollingUpdate", default={})
    check(
        dig(deploy, "spec", "strategy", "type") == "RollingUpdate"
        and str(strategy.get("maxUnavailable")) in ("0", "0%")
        and strategy.get("maxSurge") not in (None, 0, "0", "0%"),
        f"rolling update should be maxUnavailable 0 with a surge, got {strategy}",
    )

    # Threads: SUDOKU_MAX_SOLVES is the CPU limit in whole cores.
    cpu_limit = dig(c, "resources", "limits", "cpu")
    solves = env_value(c, "SUDOKU_MAX_SOLVES", None)
    if check(cpu_limit is not None, "the container has no CPU limit"):
        if isinstance(solves, dict):
            field = solves.get("resourceFieldRef", {})
            check(
                field.get("resource") == "limits.cpu"
                and field.get("containerName", c.get("name")) == c.get("name")
                and cpu_cores(field.get("divisor", "1")) == 1,
                "SUDOKU_MAX_SOLVES should come from this container's limits.cpu in cores, "
                f"got {solves}",
            )
        else:
            check(
                solves is not None and int(solves) == math.ceil(cpu_cores(cpu_limit)),
                f"SUDOKU_MAX_SOLVES {solves} does not match the CPU limit {cpu_limit}",
            )
    for kind in ("requests", "limits"):
        for resource in ("cpu", "memory"):
            check(
                dig(c, "resources", kind, resource) is not None,
                f"the container has no {resource} {kind[:-1]}",
            )

    # Port agreement: PORT env and the Prometheus annotations name the container port.
    port_env = env_value(c, "PORT", "8080")
    check(str(port_env) == str(port_number), f"PORT {port_env} is not containerPort {port_number}")
    notes = dig(deploy, "spec", "template", "metadata", "annotations", default={})
    check(
        notes.get("prometheus.io/scrape") == "true",
        "pod template lacks prometheus.io/scrape: 'true'",
    )
    check(
        notes.get("prometheus.io/port") == str(port_number),
        f"prometheus.io/port {notes.get('prometheus.io/port')!r} is not containerPort "
        f"{port_number}",
    )
    check(notes.get("prometheus.io/path") == "/metrics", "prometheus.io/path is not /metrics")

    # Lock-down: non-root, read-only root, no escalation, no capabilities, seccomp.
    sc = c.get("securityContext") or {}
    psc = pod.get("securityContext") or {}
    check(sc.get("runAsNonRoot", psc.get("runAsNonRoot")) is True, "runAsNonRoot is not true")
    check(sc.get("readOnlyRootFilesystem") is True, "readOnlyRootFilesystem is not true")
    check(sc.get("allowPrivilegeEscalation") is False, "allowPrivilegeEscalation is not false")
    check("ALL" in (dig(sc, "capabilities", "drop") or []), "capabilities do not drop ALL")
    seccomp = dig(sc, "seccompProfile", "type") or dig(psc, "seccompProfile", "type")
    check(seccomp == "RuntimeDefault", f"seccompProfile is {seccomp!r}, expected RuntimeDefault")

    if not failures:
        print(
            f"consistency: grace {grace} s > preStop {pre_stop} + delay {delay_s:g} + "
            f"drain {drain_s} "
            f"= {needed:g} s; HPA {low}..{high} pods, PDB keeps {floor}; "
            f"SUDOKU_MAX_SOLVES = CPU limit {cpu_limit}"
        )
    return report()


def report():
    for message in failures:
        print(f"FAIL: {message}")
    if failures:
        print(f"k8s consistency: {len(failures)} check(s) failed")
        return 1
    print("k8s consistency: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
