#!/usr/bin/env python3
"""Helpers of deploy_recipes_test.sh: check the Kubernetes manifests of deploy/kubernetes/, turn
the Job's container into the command line a pod would run (Kubernetes' $(VAR) expansion), and
check a merged result. Subcommands:

  k8s-check DIR                       the manifests are consistent (the sharded benchmark's, and
                                      the shared tuning study's); prints the shard count
  k8s-args JOB [--set VAR=VALUE]... [--root DIR]
                                      the Job's args after $(VAR) expansion, NUL-separated; paths
                                      under the results volume's mountPath moved under DIR
  k8s-merge-script JOB [--set ...] [--root DIR]
                                      the merge Job's shell script, likewise
  check-merged RESULTS MERGED REQUESTS SHARDS SOURCE
                                      every run under MERGED (llmperf merge's output) holds
                                      REQUESTS requests from SHARDS shards, none started before
                                      --start-at; the shards RESULTS/*_shard_* name SOURCE (e.g.
                                      Slurm) in their shard.source
"""
import glob
import json
import os
import re
import sys

try:
    import yaml
except ImportError:
    sys.exit("python3 cannot import yaml: install python3-yaml (scripts/setup.sh --test)")

RESULTS_CLAIM = "llmperf-results"


def load(path):
    with open(path, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d is not None]
    if len(docs) != 1:
        sys.exit(f"{path}: expected one YAML document, found {len(docs)}")
    return docs[0]


def container(job):
    containers = job["spec"]["template"]["spec"]["containers"]
    if len(containers) != 1:
        sys.exit(f"Job {job['metadata']['name']}: expected one container")
    return containers[0]


def results_mount(job):
    """The mountPath of the PersistentVolumeClaim llmperf-results in the Job's container."""
    pod = job["spec"]["template"]["spec"]
    names = [v["name"] for v in pod.get("volumes", [])
             if v.get("persistentVolumeClaim", {}).get("claimName") == RESULTS_CLAIM]
    mounts = [m["mountPath"] for m in container(job).get("volumeMounts", []) if m["name"] in names]
    return mounts[0] if mounts else None


def option(args, name):
    """The value of `name` in an argv (`--x v` or `--x=v`), or None."""
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(name + "="):
            return arg[len(name) + 1:]
    return None


def k8s_check(directory):
    problems = []
    job = load(os.path.join(directory, "llmperf-job.yaml"))
    merge = load(os.path.join(directory, "llmperf-merge-job.yaml"))
    pvc = load(os.path.join(directory, "llmperf-results-pvc.yaml"))
    spec = job["spec"]
    args = [str(a) for a in container(job).get("args", [])]
    if job.get("kind") != "Job" or job.get("apiVersion") != "batch/v1":
        problems.append("llmperf-job.yaml is not a batch/v1 Job")
    if spec.get("completionMode") != "Indexed":
        problems.append(f"completionMode is {spec.get('completionMode')!r}, not Indexed")
    shards = option(args, "--shards")
    if not (shards and str(spec.get("completions")) == str(spec.get("parallelism")) == shards):
        problems.append(f"completions ({spec.get('completions')}), parallelism "
                        f"({spec.get('parallelism')}) and --shards ({shards}) differ")
    for flag in ("--start-at", "--outputs-dir", "--url"):
        if option(args, flag) is None:
            problems.append(f"the Job's args have no {flag}")
    if "--no-timestamp" not in args:
        problems.append("the Job's args lack --no-timestamp (shards would write to different "
                        "timestamp directories)")
    mount = results_mount(job)
    if mount is None:
        problems.append(f"the Job's container does not mount the PVC {RESULTS_CLAIM}")
    elif not (option(args, "--outputs-dir") or "").startswith(mount + "/"):
        problems.append(f"--outputs-dir is not under the results volume {mount}")
    if results_mount(merge) != mount:
        problems.append(f"the merge Job does not mount {RESULTS_CLAIM} at {mount}")
    if "llmperf merge" not in " ".join(container(merge).get("args", [])):
        problems.append("the merge Job does not run llmperf merge")
    if pvc.get("kind") != "PersistentVolumeClaim" or pvc["metadata"]["name"] != RESULTS_CLAIM:
        problems.append(f"llmperf-results-pvc.yaml is not the PVC {RESULTS_CLAIM}")
    elif "ReadWriteMany" not in pvc["spec"].get("accessModes", []):
        problems.append("the results PVC is not ReadWriteMany (shards on several nodes write)")
    problems += tune_problems(directory)
    if problems:
        sys.exit("; ".join(problems))
    print(shards)


def tune_problems(directory):
    """tune-job.yaml (workers of one shared `llmperf tune` study) against tune-postgres.yaml (the
    PostgreSQL they share it through): an Indexed Job of workers each in its own study directory,
    a learned strategy, the storage URL naming the Service's host and port without a password, and
    the password from the Secret the database reads."""
    problems = []
    job = load(os.path.join(directory, "tune-job.yaml"))
    with open(os.path.join(directory, "tune-postgres.yaml"), encoding="utf-8") as f:
        docs = {d["kind"]: d for d in yaml.safe_load_all(f) if d is not None}
    spec = job["spec"]
    if job.get("kind") != "Job" or job.get("apiVersion") != "batch/v1":
        problems.append("tune-job.yaml is not a batch/v1 Job")
    if spec.get("completionMode") != "Indexed":
        problems.append("tune-job.yaml: completionMode is not Indexed")
    if spec.get("completions") != spec.get("parallelism"):
        problems.append("tune-job.yaml: the workers do not all run at once")
    pod = container(job)
    if pod.get("command") != ["llmperf", "tune"]:
        problems.append("tune-job.yaml does not run llmperf tune")
    args = [str(a) for a in pod.get("args", [])]
    env = pod_env(job, {"WORKER": "0"})
    strategy = option(args, "--strategy") or ""
    if strategy.split(":")[0] not in ("tpe", "cmaes", "nsga2"):
        problems.append(f"tune-job.yaml: --strategy {strategy!r} is not a learned search")
    storage = expand(option(args, "--storage") or "", env)
    match = re.fullmatch(r"postgresql://([^:@/]+)@([^:/]+):(\d+)/(\w+)", storage)
    service = docs.get("Service", {})
    deployment = docs.get("Deployment", {})
    if not match:
        problems.append(f"tune-job.yaml: --storage {storage!r} is not postgresql://USER@HOST:PORT/DB "
                        "(without a password)")
    else:
        user, host, port, db = match.groups()
        if host != service.get("metadata", {}).get("name"):
            problems.append(f"tune-job.yaml: --storage names host {host}, not the Service")
        if int(port) not in [p.get("port") for p in service.get("spec", {}).get("ports", [])]:
            problems.append(f"tune-job.yaml: --storage names port {port}, not the Service's")
        db_env = {e["name"]: e for e in container(deployment).get("env", [])}
        if db_env.get("POSTGRES_USER", {}).get("value") != user or \
                db_env.get("POSTGRES_DB", {}).get("value") != db:
            problems.append("tune-job.yaml: --storage's user or database is not the Deployment's")
        secret = db_env.get("POSTGRES_PASSWORD", {}).get("valueFrom", {}).get("secretKeyRef")
        mine = [e for e in pod.get("env", []) if e["name"] == "PGPASSWORD"]
        if not mine or mine[0].get("valueFrom", {}).get("secretKeyRef") != secret:
            problems.append("tune-job.yaml: PGPASSWORD is not the database's Secret")
    if not option(args, "--study-name"):
        problems.append("tune-job.yaml: no --study-name")
    study_dir = option(args, "--study-dir") or ""
    if "$(WORKER)" not in study_dir or not study_dir.startswith(results_mount(job) or "?"):
        problems.append("tune-job.yaml: --study-dir is not per worker under the results volume")
    return problems


def expand(text, env):
    """Kubernetes' expansion of container command and args: $(VAR) becomes the variable's value,
    $$ an escaped $, and a reference to an undefined variable stays as it is."""
    return re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)",
                  lambda m: "$" if m.group(0) == "$$" else env.get(m.group(1), m.group(0)),
                  text)


def pod_env(job, overrides):
    """The container's variables as a pod of the Job sees them: `value`s, the Job's name for the
    job-name label, then the test's overrides."""
    env = {}
    for var in container(job).get("env", []):
        if "value" in var:
            env[var["name"]] = expand(str(var["value"]), env)
        elif var.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") in (
                "metadata.labels['job-name']", "metadata.labels['batch.kubernetes.io/job-name']"):
            env[var["name"]] = job["metadata"]["name"]
    env.update(overrides)
    return env


def parse_overrides(argv):
    overrides, root = {}, None
    while argv:
        flag = argv.pop(0)
        if flag == "--set":
            name, _, value = argv.pop(0).partition("=")
            overrides[name] = value
        elif flag == "--root":
            root = argv.pop(0)
        else:
            sys.exit(f"unknown argument {flag}")
    return overrides, root


def relocate(text, mount, root):
    return text.replace(mount, root.rstrip("/") + mount) if root and mount else text


def k8s_args(path, argv):
    job = load(path)
    overrides, root = parse_overrides(argv)
    env = pod_env(job, overrides)
    mount = results_mount(job)
    args = [relocate(expand(str(a), env), mount, root) for a in container(job).get("args", [])]
    sys.stdout.write("".join(a + "\0" for a in args))


def k8s_merge_script(path, argv):
    job = load(path)
    overrides, root = parse_overrides(argv)
    c = container(job)
    if c.get("command", [])[:2] != ["sh", "-c"] or len(c.get("args", [])) != 1:
        sys.exit(f"{path}: expected command [sh, -c] and one script in args")
    print(relocate(expand(c["args"][0], pod_env(job, overrides)), results_mount(job), root))


def check_merged(results, directory, requests, shards, source):
    summaries = []
    for path in sorted(glob.glob(os.path.join(directory, "**", "summary.json"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            summaries.append((path, json.load(f)))
    if not summaries:
        sys.exit(f"no summary.json under {directory}")
    problems = []
    # The shards' own summaries: which launcher's environment each one read, and --start-at.
    shard_dirs = glob.glob(os.path.join(results, "*_shard_*", "**", "summary.json"),
                           recursive=True)
    start_ats = set()
    for path in shard_dirs:
        with open(path, encoding="utf-8") as f:
            summary = json.load(f)
        got = (summary.get("shard") or {}).get("source", "")
        if source not in got:
            problems.append(f"{path}: shard.source is {got!r}, expected {source}")
        start_ats.add((summary.get("config") or {}).get("start_at_unix_ns"))
    if len(start_ats) != 1:
        problems.append(f"the shards were given different --start-at: {sorted(start_ats, key=str)}")
    start_at = next(iter(start_ats)) if start_ats else None
    for path, s in summaries:
        total = s.get("requests", {}).get("total")
        succeeded = s.get("requests", {}).get("succeeded")
        shard = s.get("shard") or {}
        if total != requests or succeeded != requests:
            problems.append(f"{path}: requests.total {total}, succeeded {succeeded}, "
                            f"expected {requests}")
        if shard.get("count") != shards or shard.get("merged") is not True:
            problems.append(f"{path}: shard.count {shard.get('count')}, shard.merged "
                            f"{shard.get('merged')}, expected {shards} and true")
        starts = shard.get("starts_unix_ns") or []
        if len(starts) != shards:
            problems.append(f"{path}: {len(starts)} shard starts, expected {shards}")
        elif start_at is None or min(starts) < start_at:
            problems.append(f"{path}: a shard started at {min(starts)}, before --start-at "
                            f"{start_at}")
        print(f"  {os.path.relpath(path, directory)}: {total} requests from {shard.get('count')} "
              f"shards, start spread {shard.get('start_spread_ms')} ms")
    shard_count = len(glob.glob(os.path.join(results, "*_shard_*")))
    if shard_count != shards:
        problems.append(f"{results} holds {shard_count} shard directories, expected {shards}")
    if problems:
        sys.exit("\n".join(problems))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    command, rest = sys.argv[1], sys.argv[2:]
    if command == "k8s-check":
        k8s_check(rest[0])
    elif command == "k8s-args":
        k8s_args(rest[0], rest[1:])
    elif command == "k8s-merge-script":
        k8s_merge_script(rest[0], rest[1:])
    elif command == "check-merged":
        check_merged(rest[0], rest[1], int(rest[2]), int(rest[3]), rest[4])
    else:
        sys.exit(f"unknown subcommand {command}\n{__doc__}")


if __name__ == "__main__":
    main()
