#!/usr/bin/env python3
"""Checks the Kubernetes manifests of configs/cluster/ without a cluster.

No cluster is at hand in CI, so this loads the YAML (PyYAML) and checks what the recipe in
docs/clusters.md relies on: an Indexed Job whose completions are the N of `--shard env/N`,
`--resume` and `--out` on the persistent volume claim, koom as the container's process (or
`exec koom` under a shell) so that Kubernetes sees its exit status, a podFailurePolicy under
which exit 2 fails the Job and exit 143 is retried, and a merge Job reading the shards' folder
from the same claim. Keys outside the few each object uses are refused, so a misspelt field
(which Kubernetes would reject or drop) is caught here.

Then it breaks copies of the manifests in the ways the recipe must not be broken and checks
that each is refused, so that the checks above cannot pass vacuously.
"""

import copy
import os
import shlex
import sys

try:
    import yaml
except ImportError:
    print("SKIPPED: PyYAML is not installed (pip install pyyaml, or apt-get install python3-yaml)")
    sys.exit(0)

HERE = os.path.dirname(os.path.abspath(__file__))
CLUSTER = os.path.join(HERE, "..", "..", "configs", "cluster")
SHARDS = "kubernetes-shards.yaml"
MERGE = "kubernetes-merge.yaml"
SHELLS = {"sh", "bash", "dash"}

# The keys each object may have: what these manifests use and close relatives.
KEYS = {
    "object": {"apiVersion", "kind", "metadata", "spec", "data"},
    "metadata": {"name", "labels", "annotations", "namespace"},
    "job": {
        "completionMode", "completions", "parallelism", "backoffLimit", "backoffLimitPerIndex",
        "maxFailedIndexes", "podFailurePolicy", "template", "activeDeadlineSeconds",
        "ttlSecondsAfterFinished", "suspend",
    },
    "pvc": {"accessModes", "resources", "storageClassName", "volumeMode"},
    "template": {"metadata", "spec"},
    "pod": {
        "restartPolicy", "terminationGracePeriodSeconds", "containers", "volumes",
        "nodeSelector", "tolerations", "securityContext", "serviceAccountName",
    },
    "container": {
        "name", "image", "imagePullPolicy", "command", "args", "env", "resources",
        "volumeMounts", "workingDir", "securityContext",
    },
    "mount": {"name", "mountPath", "readOnly", "subPath"},
    "volume": {"name", "persistentVolumeClaim", "configMap", "emptyDir"},
    "rule": {"action", "onExitCodes", "onPodConditions"},
    "exit_codes": {"containerName", "operator", "values"},
}


def load(name):
    with open(os.path.join(CLUSTER, name), encoding="utf-8") as f:
        return [doc for doc in yaml.safe_load_all(f) if doc is not None]


class Checker:
    def __init__(self):
        self.problems = []

    def need(self, ok, what):
        if not ok:
            self.problems.append(what)
        return ok

    def keys(self, obj, kind, where):
        if not self.need(isinstance(obj, dict), f"{where} is not a mapping"):
            return {}
        unknown = sorted(set(obj) - KEYS[kind])
        self.need(not unknown, f"{where}: unknown key(s) {', '.join(unknown)}")
        return obj

    def objects(self, docs, file):
        found = {}
        for doc in docs:
            doc = self.keys(doc, "object", file)
            kind = doc.get("kind")
            name = self.keys(doc.get("metadata", {}), "metadata", f"{file} {kind}").get("name")
            self.need(bool(name), f"{file}: a {kind} without metadata.name")
            found.setdefault(kind, []).append(doc)
        return found

    def one(self, found, kind, file):
        docs = found.get(kind, [])
        self.need(len(docs) == 1, f"{file}: expected one {kind}, found {len(docs)}")
        return docs[0] if docs else None

    def pod(self, job, where):
        spec = self.keys(job.get("spec", {}), "job", f"{where} spec")
        template = self.keys(spec.get("template", {}), "template", f"{where} template")
        pod = self.keys(template.get("spec", {}), "pod", f"{where} pod")
        containers = pod.get("containers", [])
        koom = [c for c in containers if isinstance(c, dict) and c.get("name") == "koom"]
        if not self.need(len(koom) == 1, f"{where}: no container named koom"):
            return spec, pod, {}
        container = self.keys(koom[0], "container", f"{where} container koom")
        for mount in container.get("volumeMounts", []):
            self.keys(mount, "mount", f"{where} volumeMount")
        for volume in pod.get("volumes", []):
            self.keys(volume, "volume", f"{where} volume")
        return spec, pod, container

    def words(self, container, where, subcommand):
        """The koom command line the container runs, checking that koom is its process."""
        line = list(container.get("command", [])) + list(container.get("args", []))
        if line and os.path.basename(str(line[0])) in SHELLS:
            script = line[-1] if len(line) >= 3 and line[-2] == "-c" else ""
            words = shlex.split(script)
            if not self.need(words[:1] == ["exec"], f"{where}: the shell must `exec koom`"):
                return []
            line = words[1:]
        ok = self.need(
            len(line) >= 2 and os.path.basename(str(line[0])) == "koom" and line[1] == subcommand,
            f"{where}: the container must run `koom {subcommand}`",
        )
        return [str(w) for w in line] if ok else []

    def claim_mount(self, pod, container, claim, where):
        """Where the container mounts the claim, or None."""
        volumes = {
            v.get("name"): v for v in pod.get("volumes", []) if isinstance(v, dict)
        }
        for mount in container.get("volumeMounts", []):
            volume = volumes.get(mount.get("name"), {})
            if (volume.get("persistentVolumeClaim") or {}).get("claimName") == claim:
                return mount.get("mountPath", "").rstrip("/")
        self.need(False, f"{where}: no volumeMount of the claim {claim}")
        return None

    def failure_action(self, rules, code):
        """The action of the first podFailurePolicy rule that matches exit `code` of koom."""
        for rule in rules:
            rule = self.keys(rule, "rule", "podFailurePolicy rule")
            codes = rule.get("onExitCodes")
            if not codes:
                continue
            codes = self.keys(codes, "exit_codes", "onExitCodes")
            if codes.get("containerName", "koom") != "koom":
                continue
            within = code in codes.get("values", [])
            if within == (codes.get("operator") == "In"):
                return rule.get("action")
        return "Count"

    def check(self, shards_docs, merge_docs):
        found = self.objects(shards_docs, SHARDS)
        pvc = self.one(found, "PersistentVolumeClaim", SHARDS)
        job = self.one(found, "Job", SHARDS)
        if pvc is None or job is None:
            return self.problems
        self.keys(pvc.get("spec", {}), "pvc", f"{SHARDS} PersistentVolumeClaim spec")
        claim = pvc["metadata"]["name"]
        where = f"{SHARDS} Job"
        self.need(job.get("apiVersion") == "batch/v1", f"{where}: apiVersion is not batch/v1")
        spec, pod, container = self.pod(job, where)
        self.need(spec.get("completionMode") == "Indexed", f"{where}: completionMode is not Indexed")
        completions = spec.get("completions")
        self.need(isinstance(completions, int) and completions > 0, f"{where}: no completions")
        parallelism = spec.get("parallelism", 1)
        self.need(
            isinstance(parallelism, int) and isinstance(completions, int)
            and 0 < parallelism <= completions,
            f"{where}: parallelism must be between 1 and completions",
        )
        self.need(
            pod.get("restartPolicy") == "Never",
            f"{where}: a podFailurePolicy needs restartPolicy Never",
        )
        rules = (spec.get("podFailurePolicy") or {}).get("rules", [])
        self.need(
            self.failure_action(rules, 2) == "FailJob",
            f"{where}: exit 2 (bad input) must fail the Job (podFailurePolicy FailJob)",
        )
        self.need(
            self.failure_action(rules, 143) == "Ignore",
            f"{where}: exit 143 (SIGTERM) must be retried without counting (podFailurePolicy Ignore)",
        )
        words = self.words(container, where, "run")
        mount = self.claim_mount(pod, container, claim, where)

        def after(flag):
            i = words.index(flag) if flag in words else -1
            return words[i + 1] if 0 <= i < len(words) - 1 else None

        self.need("--resume" in words, f"{where}: koom run without --resume")
        shard = after("--shard") or ""
        self.need(
            shard == f"env/{completions}",
            f"{where}: --shard is `{shard}`, not env/{completions} (the completions)",
        )
        out = after("--out") or ""
        self.need(
            out.endswith("/$(JOB_COMPLETION_INDEX)"),
            f"{where}: --out `{out}` does not end in the pod's index, /$(JOB_COMPLETION_INDEX)",
        )
        shards_dir = out.rsplit("/", 1)[0]
        if mount is not None:
            self.need(
                shards_dir.startswith(mount + "/"),
                f"{where}: --out `{out}` is not on the claim mounted at {mount}",
            )
        mounts = [m.get("mountPath", "").rstrip("/") for m in container.get("volumeMounts", [])]
        config = words[2] if len(words) > 2 else ""
        self.need(
            any(config.startswith(m + "/") for m in mounts if m),
            f"{where}: the config `{config}` is not on a mounted volume",
        )

        merge = self.one(self.objects(merge_docs, MERGE), "Job", MERGE)
        if merge is None:
            return self.problems
        where = f"{MERGE} Job"
        _, pod, container = self.pod(merge, where)
        words = self.words(container, where, "merge")
        self.need(
            f"{shards_dir}/*" in words,
            f"{where}: koom merge does not read every shard, `{shards_dir}/*`",
        )
        self.need("--out" in words, f"{where}: koom merge without --out")
        self.claim_mount(pod, container, claim, where)
        return self.problems


def breakages():
    """Ways to break the manifests, each of which the checks must refuse."""

    def job(docs):
        return next(d for d in docs if d["kind"] == "Job")

    def container(docs):
        return job(docs)["spec"]["template"]["spec"]["containers"][0]

    def drop_resume(s, m):
        container(s)["args"].remove("--resume")

    def not_indexed(s, m):
        job(s)["spec"]["completionMode"] = "NonIndexed"

    def other_count(s, m):
        job(s)["spec"]["completions"] += 1

    def retry_bad_input(s, m):
        job(s)["spec"]["podFailurePolicy"]["rules"][0]["onExitCodes"]["values"] = [1]

    def count_sigterm(s, m):
        rules = job(s)["spec"]["podFailurePolicy"]["rules"]
        job(s)["spec"]["podFailurePolicy"]["rules"] = [r for r in rules if r["action"] != "Ignore"]

    def on_failure(s, m):
        job(s)["spec"]["template"]["spec"]["restartPolicy"] = "OnFailure"

    def misspelt(s, m):
        spec = job(s)["spec"]
        spec["completionsMode"] = spec.pop("completionMode")

    def out_of_claim(s, m):
        args = container(s)["args"]
        args[args.index("--out") + 1] = "/tmp/shards/$(JOB_COMPLETION_INDEX)"

    def merge_without_exec(s, m):
        container(m)["command"][-1] = container(m)["command"][-1].replace("exec ", "", 1)

    def shell_without_exec(s, m):
        c = container(s)
        c["command"] = ["sh", "-c", " ".join(["koom"] + c.pop("args"))]

    return [
        drop_resume, not_indexed, other_count, retry_bad_input, count_sigterm, on_failure,
        misspelt, out_of_claim, merge_without_exec, shell_without_exec,
    ]


def main():
    shards, merge = load(SHARDS), load(MERGE)
    problems = Checker().check(shards, merge)
    for problem in problems:
        print(f"configs/cluster/{problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"configs/cluster/{SHARDS} and {MERGE}: the Indexed Job, its failure policy and the merge check out")
    missed = []
    for breakage in breakages():
        s, m = copy.deepcopy(shards), copy.deepcopy(merge)
        breakage(s, m)
        if not Checker().check(s, m):
            missed.append(breakage.__name__)
    if missed:
        print(f"the checks did not refuse: {', '.join(missed)}", file=sys.stderr)
        return 1
    print(f"and refuse each of {len(breakages())} broken copies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
