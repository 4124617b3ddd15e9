#!/usr/bin/env python3
"""Cross-object checks on deploy/k8s/ that a schema cannot express.

usage: k8s_check.py [DIR]             (default: deploy/k8s)
       k8s_check.py --bank [DIR]      (default: deploy/k8s/bank)

Reads the files listed in DIR/kustomization.yaml and checks that the numbers and names in
them agree: the shutdown timeline fits in the grace period, probes and the Service use the
container's named port, selectors match the pod labels, the HPA floor leaves room for the
PDB, and the pod is locked down. With --bank, the bank's Indexed Job and its merge step
instead: each index writes its own file from its own seed, every $(VAR) in the arguments is
defined, the merge reads exactly the Job's files from the same volume. Prints one line per
failed check and exits 1 if any failed. Needs PyYAML.
"""

import math
import os
import re
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


def load(directory, unlisted=()):
    """The objects of the files DIR/kustomization.yaml lists, by kind; the directory must hold
    no other YAML files but `unlisted` (applied by hand, as the bank's merge step)."""
    with open(os.path.join(directory, "kustomization.yaml")) as f:
        kustomization = yaml.safe_load(f)
    listed = kustomization.get("resources") or []
    present = sorted(
        name
        for name in os.listdir(directory)
        if name.endswith((".yaml", ".yml"))
        and name != "kustomization.yaml"
        and name not in unlisted
    )
    check(
        sorted(listed) == present,
        f"kustomization.yaml lists {sorted(listed)} but the directory has {present}",
    )
    return read_objects(directory, listed)


def read_objects(directory, names):
    objects = {}
    for name in names:
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


def locked_down(pod, c, what):
    """Non-root, read-only root, no escalation, no capabilities, seccomp."""
    sc = c.get("securityContext") or {}
    psc = pod.get("securityContext") or {}
    check(sc.get("runAsNonRoot", psc.get("runAsNonRoot")) is True, f"{what}: runAsNonRoot is not true")
    check(sc.get("readOnlyRootFilesystem") is True, f"{what}: readOnlyRootFilesystem is not true")
    check(
        sc.get("allowPrivilegeEscalation") is False,
        f"{what}: allowPrivilegeEscalation is not false",
    )
    check("ALL" in (dig(sc, "capabilities", "drop") or []), f"{what}: capabilities do not drop ALL")
    seccomp = dig(sc, "seccompProfile", "type") or dig(psc, "seccompProfile", "type")
    check(
        seccomp == "RuntimeDefault",
        f"{what}: seccompProfile is {seccomp!r}, expected RuntimeDefault",
    )
    check(
        pod.get("automountServiceAccountToken") is False,
        f"{what}: automountServiceAccountToken is not false",
    )


def option(args, name):
    """The value of `--name=value` or `--name value` in a container's args; None if absent,
    True for a flag without a value."""
    for i, arg in enumerate(args):
        if arg == name:
            following = args[i + 1] if i + 1 < len(args) else None
            if following is None or following.startswith("--"):
                return True
            return following
        if arg.startswith(name + "="):
            return arg[len(name) + 1 :]
    return None


def only_container(job, what):
    pod = dig(job, "spec", "template", "spec", default={})
    containers = pod.get("containers") or []
    if check(len(containers) == 1, f"{what}: expected one container, found {len(containers)}"):
        return pod, containers[0]
    return pod, None


def mounted_claim(pod, c, path):
    """The PersistentVolumeClaim mounted at the directory of `path` in container c."""
    mounts = {m.get("name"): m.get("mountPath") for m in c.get("volumeMounts") or []}
    claims = {
        v.get("name"): dig(v, "persistentVolumeClaim", "claimName") for v in pod.get("volumes") or []
    }
    directory = os.path.dirname(path)
    for name, mount in mounts.items():
        if mount and mount.rstrip("/") == directory:
            return claims.get(name)
    return None


def main_bank(directory):
    objects = load(directory, unlisted=("merge-job.yaml",))
    merge_objects = read_objects(directory, ["merge-job.yaml"])
    job = the_one(objects, "Job")
    pvc = the_one(objects, "PersistentVolumeClaim")
    merge = merge_objects.get("Job", [None])[0]
    check(merge is not None, "merge-job.yaml holds no Job")
    if not (job and pvc and merge):
        return report()
    spec = job.get("spec", {})
    check(spec.get("completionMode") == "Indexed", "the bank Job is not completionMode: Indexed")
    completions = spec.get("completions", 1)
    parallelism = spec.get("parallelism", 1)
    pod, c = only_container(job, "the bank Job")
    if c is None:
        return report()
    check(
        "backoffLimitPerIndex" not in spec or pod.get("restartPolicy") == "Never",
        "backoffLimitPerIndex needs restartPolicy: Never",
    )
    args = [str(a) for a in c.get("args") or []]
    check(args[:1] == ["generate"], f"the bank Job runs {args[:1]}, not generate")

    # Every $(VAR) is defined in the container's env: the kubelet leaves an undefined one as
    # it is, and the CLI would refuse "--seed=$(BANK_SEED)" only once the pods run.
    defined = {var.get("name") for var in c.get("env") or []}
    for arg in args:
        for name in re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", arg):
            check(name in defined, f"argument {arg!r} uses $({name}), which env does not define")
    index = "$(JOB_COMPLETION_INDEX)"
    index_env = env_value(c, "JOB_COMPLETION_INDEX", None)
    check(
        isinstance(index_env, dict)
        and dig(index_env, "fieldRef", "fieldPath")
        == "metadata.annotations['batch.kubernetes.io/job-completion-index']",
        f"JOB_COMPLETION_INDEX should come from the completion-index annotation, got {index_env}",
    )

    # Disjoint parts: each index its own seed and its own file, resumed when retried.
    check(option(args, "--shard") == index, f"--shard is {option(args, '--shard')!r}, not {index}")
    check(isinstance(option(args, "--seed"), str), "the bank Job sets no --seed")
    check(option(args, "--distinct") is True, "the bank Job's parts are not --distinct")
    check(option(args, "--resume") is True, "a retried pod must --resume its part")
    out = option(args, "--out")
    check(isinstance(out, str) and index in out, f"--out {out!r} is not one file per index")
    claim = mounted_claim(pod, c, str(out))
    check(
        claim == dig(pvc, "metadata", "name"),
        f"--out {out!r} is not on the PersistentVolumeClaim {dig(pvc, 'metadata', 'name')}",
    )
    check(
        parallelism <= 1 or "ReadWriteMany" in (dig(pvc, "spec", "accessModes") or []),
        f"{parallelism} pods at once write the volume, which is not ReadWriteMany",
    )
    threads = env_value(c, "THREADS", None)
    cpu_limit = dig(c, "resources", "limits", "cpu")
    check(
        option(args, "--threads") != "$(THREADS)"
        or (isinstance(threads, dict) and dig(threads, "resourceFieldRef", "resource") == "limits.cpu"),
        f"--threads comes from THREADS {threads}, not from the CPU limit",
    )
    check(cpu_limit is not None, "the bank Job has no CPU limit")
    locked_down(pod, c, "the bank Job")

    # The merge reads exactly the Job's files, in index order, from the same volume.
    merge_pod, m = only_container(merge, "the merge Job")
    if m is None:
        return report()
    margs = [str(a) for a in m.get("args") or []]
    check(margs[:1] == ["merge"], f"the merge Job runs {margs[:1]}, not merge")
    merged_out = option(margs, "--out")
    inputs = [a for a in margs[1:] if not a.startswith("--")]
    want = [str(out).replace(index, str(k)) for k in range(completions)]
    check(
        inputs == want,
        f"the merge reads {inputs}, not the {completions} parts {want} in index order",
    )
    check(
        isinstance(merged_out, str) and merged_out not in want,
        f"the merge writes {merged_out!r}, which must be a file of its own",
    )
    check(
        mounted_claim(merge_pod, m, str(merged_out)) == claim,
        "the merge Job does not mount the bank's PersistentVolumeClaim where it writes",
    )
    for path in want[:1]:
        check(
            mounted_claim(merge_pod, m, path) == claim,
            f"the merge Job does not read {path} from the bank's PersistentVolumeClaim",
        )
    locked_down(merge_pod, m, "the merge Job")

    if not failures:
        print(
            f"bank consistency: {completions} parts ({parallelism} at once) of "
            f"--seed {option(args, '--seed')} --shard {index} to {out}; the merge reads all "
            f"{completions} into {merged_out}"
        )
    return report()


def main():
    if sys.argv[1:2] == ["--bank"]:
        return main_bank(sys.argv[2] if len(sys.argv) > 2 else "deploy/k8s/bank")
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

    locked_down(pod, c, "the service")

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
