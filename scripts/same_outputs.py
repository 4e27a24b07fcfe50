#!/usr/bin/env python3
"""Checks that two builds of llmperf write the same outputs: for refactors that must not change
behaviour.

Usage: scripts/same_outputs.py OLD_BIN_DIR NEW_BIN_DIR [--keep] [SCENARIO...]

(every scenario when none is named)

Each BIN_DIR holds an `llmperf` (and NEW_BIN_DIR an `llmperf-mock`, started once on a free
loopback port). For every scenario below, both builds run the same benchmark with a fixed seed,
and two things are compared:

1. Exactly: one run's directory copied twice and rebuilt in place by each build's
   `llmperf report` (which rewrites every summary, table and page from requests.jsonl). Every
   file must be byte-identical, except the time vllm_result.json says it was written.
2. Structurally: the two live runs' directories and stdout. They cannot match byte for byte
   (the mock's timings vary from run to run), so requests.jsonl is compared without its timing
   fields (*_ns, *_ms, *_s, the mock's response ids, the worker), in id order; vLLM's result
   files with their per-request arrays sorted (they are in completion order); the other files
   (benchmark_data.db as its tables' rows, sorted, as rows go in when requests complete) and
   stdout with every number, date and client-bound flag masked and runs of blanks made one
   (table columns are as wide as their numbers); the HTML pages, whose charts follow the
   timings, only by name. What is left (file names, keys and their order, texts, prompts, every
   per-request count of tokens and characters) must be identical.

`llmperf tune` studies (TUNE_SCENARIOS) run once per build against servers the study starts from
NEW_BIN_DIR's llmperf-mock, and are compared structurally only: study.jsonl,
study_summary.json/.csv/.md, study.json, each trial's server.log and run directory, and stdout with
every number (timings, ports) masked and paths as <out>; study.html by name.

Where other tools' formats are compared: vllm_result.json and EvalScope's benchmark_summary.json,
benchmark_percentile.json and benchmark_data.db are in every run directory (openqa, ...);
vLLM's --save-result file in rate_vllm_file; EvalScope's legacy text summary in
no_stream_legacy's stdout.

Prints SAME or DIFFERENT per scenario and file, and exits 1 on any difference.
"""
import difflib
import json
import os
import pathlib
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parent.parent

# name -> llmperf flags (the URL, --outputs-dir, --name and --seed are added).
SCENARIOS = {
    "openqa": ["--dataset", "openqa", "--dataset-path", "datasets/open_qa.jsonl",
               "--parallel", "2", "-n", "12", "--max-tokens", "16"],
    "sweep_slo_junit": ["--dataset", "openqa", "--dataset-path", "datasets/open_qa.jsonl",
                        "--parallel", "1", "3", "-n", "4", "9", "--max-tokens", "8",
                        "--slo", "ttft.p99<=30s", "--slo", "success_rate>=99%",
                        "--junit", "{out}/junit.xml"],
    "random_grid": ["--dataset", "random", "--input-tokens", "32", "64", "--output-tokens", "8",
                    "16", "--parallel", "2", "-n", "6"],
    "rate_vllm_file": ["--dataset", "openqa", "--dataset-path", "datasets/open_qa.jsonl",
                       "--rate", "10", "--parallel", "4", "-n", "12", "--max-tokens", "8",
                       "--save-result", "--result-dir", "{out}/vllm", "--result-filename",
                       "result.json"],
    "sharegpt": ["--dataset", "sharegpt", "--dataset-path", "tests/fixtures/sharegpt/sample.json",
                 "--parallel", "2", "-n", "6"],
    "shared_prefix": ["--dataset", "shared_prefix", "--prefix-length", "64", "--input-tokens", "16",
                      "--output-tokens", "8", "--prefix-groups", "2", "--parallel", "2", "-n", "8"],
    "multi_turn": ["--dataset", "random_multi_turn", "--min-turns", "2", "--max-turns", "3",
                   "--input-tokens", "24", "--output-tokens", "8", "--parallel", "2", "-n", "4"],
    "embeddings": ["--api", "openai_embedding", "--dataset", "openqa", "--dataset-path",
                   "datasets/open_qa.jsonl", "--batch-size", "2", "--parallel", "2", "-n", "6"],
    "no_stream_legacy": ["--dataset", "openqa", "--dataset-path", "datasets/open_qa.jsonl",
                         "--no-stream", "--parallel", "2", "-n", "6", "--max-tokens", "8",
                         "--summary-format", "evalscope-legacy"],
    # A trace sets -n and the rate from its requests (plan_benchmark).
    "mooncake_trace": ["--dataset", "mooncake_trace", "--dataset-path",
                       "tests/fixtures/trace/mooncake_small.jsonl", "--trace-block-tokens", "16",
                       "--trace-speedup", "3", "--parallel", "2", "4"],
    # The key figures' labels and keys (metrics/catalogue.h): the baseline's table, the repeats'
    # intervals, and the history's judgement (too few runs: each figure named, not judged).
    "repeats_baseline": ["--dataset", "openqa", "--dataset-path", "datasets/open_qa.jsonl",
                         "--parallel", "2", "-n", "6", "--max-tokens", "8", "--num-runs", "2",
                         "--baseline", "tests/fixtures/outputs/run_b/summary.json",
                         "--tolerance", "100000%"],
    "history_baseline": ["--dataset", "openqa", "--dataset-path", "datasets/open_qa.jsonl",
                         "--parallel", "2", "-n", "6", "--max-tokens", "8", "--results-db",
                         "{out}/history.db", "--baseline", "db:{out}/history.db"],
    # --search's probes and search_summary.md; the early-stop rules watch every record.
    "search_parallel": ["--dataset", "openqa", "--dataset-path", "datasets/open_qa.jsonl",
                        "--search", "parallel", "--search-range", "1", "2", "-n", "4",
                        "--max-tokens", "8", "--slo", "success_rate>=99%", "--max-errors", "100"],
    # Each API kind's adapter (workload/api/): completions, rerank, the Responses API streamed and
    # not, and synthetic images in chat's image_url parts and the Responses API's input_image ones
    # (chat and embeddings are above). The URL's path is in PATHS.
    "completions": ["--dataset", "openqa", "--dataset-path", "datasets/open_qa.jsonl",
                    "--parallel", "2", "-n", "6", "--max-tokens", "8"],
    "rerank": ["--dataset", "openqa", "--dataset-path", "datasets/open_qa.jsonl", "--documents",
               "3", "--parallel", "2", "-n", "6"],
    "responses": ["--dataset", "openqa", "--dataset-path", "datasets/open_qa.jsonl",
                  "--parallel", "2", "-n", "6", "--max-tokens", "8"],
    "responses_images_no_stream": ["--dataset", "random", "--input-tokens", "16",
                                   "--output-tokens", "8", "--image-num", "1", "--image-width",
                                   "8", "--image-height", "8", "--no-stream", "--parallel", "2",
                                   "-n", "4"],
    "chat_images": ["--dataset", "random", "--input-tokens", "16", "--output-tokens", "8",
                    "--image-num", "2", "--image-width", "16", "--image-height", "8",
                    "--parallel", "2", "-n", "4"],
    # No --model: the one the server lists (SERVED_MODEL).
    "served_model": ["{served-model}", "--dataset", "openqa", "--dataset-path",
                     "datasets/open_qa.jsonl", "--parallel", "2", "-n", "6", "--max-tokens", "8"],
}
# name -> `llmperf tune` flags ({mock} is NEW_BIN_DIR's llmperf-mock, {out} the scenario's
# directory). The parameters are far apart and one trial is better on every figure, so that
# neither the best trial nor the Pareto fronts follow the timings.
TUNE_SCENARIOS = {
    # A grid of two servers, the default objective (output_throughput) under an SLO.
    "tune_grid": ["--serve", "{mock} --port {port} --ttft-ms {t} --itl-ms {t} --output-tokens 16",
                  "--param", "t=1,80", "--stop-timeout", "5",
                  "--url", "http://127.0.0.1:{port}/v1/chat/completions", "--model", "llmperf-mock",
                  "--dataset", "openqa", "--dataset-path", "datasets/open_qa.jsonl",
                  "--parallel", "2", "-n", "6", "--max-tokens", "8", "--slo", "ttft.p99<=30s"],
    # A latency objective (ttft.p99, lower is better) with a trial whose server cannot start
    # (start_failed, its own error in the study's files) and --num-runs' spread.
    "tune_latency_objective": [
        "--serve", "{mock} --port {port} --ttft-ms {ttft} --itl-ms 1 --output-tokens 16 {bad}",
        "--param", "ttft=2,300", "--param", "bad=flag:--no-such-flag", "--objective", "ttft.p99",
        "--num-runs", "2", "--stop-timeout", "5", "--ready-timeout", "20",
        "--url", "http://127.0.0.1:{port}/v1/chat/completions", "--model", "llmperf-mock",
        "--dataset", "random", "--input-tokens", "16", "--output-tokens", "8",
        "--parallel", "2", "-n", "4"],
    # Two objectives: the study's answer is the Pareto front (one trial, better on both).
    "tune_two_objectives": [
        "--serve", "{mock} --port {port} --ttft-ms {t} --itl-ms {t} --output-tokens 16",
        "--param", "t=1,80", "--objective", "output_throughput", "--objective", "ttft.p99",
        "--stop-timeout", "5", "--url", "http://127.0.0.1:{port}/v1/chat/completions",
        "--model", "llmperf-mock", "--dataset", "random", "--input-tokens", "16",
        "--output-tokens", "8", "--parallel", "2", "-n", "4"],
}
# A scenario's flag that drops the --model run() adds, so that the server's model is used.
SERVED_MODEL = "{served-model}"
# The URL's path of the scenarios that do not use the chat API.
PATHS = {"embeddings": "/v1/embeddings", "completions": "/v1/completions",
         "rerank": "/v1/rerank", "responses": "/v1/responses",
         "responses_images_no_stream": "/v1/responses"}

MASKS = [
    (re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?Z?"), "<time>"),
    (re.compile(r"\d{8}_\d{6}"), "<stamp>"),
    (re.compile(r"-?\d+(\.\d+)?(e[-+]?\d+)?"), "<n>"),
    (re.compile(r'"client_bound": (true|false)'), '"client_bound": <bool>'),
    # The client's own health follows the machine's load, not the build.
    (re.compile(r'("client_bound": <bool>,\s*"warnings": )\[[^\]]*\]'), r"\1<warnings>"),
    (re.compile(r"^WARNING: client-bound.*\n", re.M), ""),
    # So does the machine's (llmperf's own lateness beside other processes' CPU).
    (re.compile(r'"machine_busy": (true|false)'), '"machine_busy": <bool>'),
    (re.compile(r'("machine_busy": <bool>,\s*"machine_warnings": )\[[^\]]*\]'), r"\1<warnings>"),
    (re.compile(r"^WARNING: machine busy.*\n", re.M), ""),
    # --num-runs: whether a metric's repeats varied by more than 5 % (timings do, run to run).
    (re.compile(r'"noisy": (true|false)'), '"noisy": <bool>'),
    (re.compile(r",(true|false)$", re.M), ",<bool>"),
    (re.compile(r" +noisy$", re.M), ""),
    (re.compile(r" noisy \|$", re.M), " |"),  # sweep_repeats.md's cells
]
# The exact comparison's one mask: the time a file was written (vllm_result.json's "date").
WRITTEN_AT = re.compile(r'"date":"\d{8}-\d{6}"')
# A database's hexadecimal ids (history.db's run ids and keys).
HEX_ID = re.compile(r"'[0-9a-f]{12,}'")
# Per-request fields that depend on time (or on the mock's running count).
# Whether a request found an idle connection to reuse depends on timing too.
TIMING_FIELDS = re.compile(r"(_ns|_ms|_s)$|^(response_id|worker|connection)$")


def masked(text):
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    text = re.sub(r"-{2,}", "--", text)  # table columns are as wide as their numbers
    return re.sub(r"[ \t]+", " ", text)


def records(text):
    """requests.jsonl without its timing fields: its ids, then its records without their ids
    (a conversation's turns take ids in the order they are sent), each sorted."""
    ids, rows = [], []
    for line in text.splitlines():
        record = json.loads(line)
        ids.append(record.pop("id", None))
        rows.append(json.dumps({k: v for k, v in record.items() if not TIMING_FIELDS.search(k)},
                               sort_keys=True))
    return "\n".join([json.dumps(sorted(i for i in ids if i is not None))] + sorted(rows))


def vllm_arrays(text):
    """vLLM's result file masked, with its per-request arrays (ttfts, itls, generated_texts, ...:
    in the order requests completed, which follows the timings) each sorted."""
    result = json.loads(text)
    for key, value in result.items():
        if isinstance(value, list):
            result[key] = sorted(masked(json.dumps(item, ensure_ascii=False)) for item in value)
    return masked(json.dumps(result, ensure_ascii=False))


def db_rows(path, root):
    """An SQLite file (benchmark_data.db, history.db) as text: each table's columns, then its
    rows, with `root` (the run's directory) as <out> and hexadecimal ids as <id>, each masked like
    the other files and then sorted (rows go in as requests complete)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    out = []
    tables = con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
    for (table,) in tables.fetchall():
        cursor = con.execute(f'SELECT * FROM "{table}"')
        out.append(f"{table}: {[d[0] for d in cursor.description]}")
        # Run ids and the history's keys are random or hash the run's own path: masked.
        out += sorted(masked(HEX_ID.sub("'<id>'", repr(row).replace(str(root), "<out>")))
                      for row in cursor)
    con.close()
    return "\n".join(out)


def written_at_masked(text):
    return WRITTEN_AT.sub('"date":<written at>', text)


def start_mock(bin_dir, log_path):
    log = open(log_path, "w")
    mock = subprocess.Popen([str(bin_dir / "llmperf-mock"), "--port", "0", "--ttft-ms", "5",
                             "--itl-ms", "1", "--output-tokens", "16"],
                            stdout=log, stderr=subprocess.STDOUT)
    for _ in range(200):
        text = pathlib.Path(log_path).read_text()
        found = re.search(r"listening on (http://\S+)", text)
        if found:
            return mock, found.group(1).rstrip("/")
        if mock.poll() is not None:
            break
        subprocess.run(["sleep", "0.05"])
    mock.kill()
    sys.exit(f"llmperf-mock did not start: {pathlib.Path(log_path).read_text()}")


def run(bin_dir, base_url, flags, out, name):
    api = PATHS.get(name, "/v1/chat/completions")
    model = [] if SERVED_MODEL in flags else ["--model", "llmperf-mock"]
    args = ([str(bin_dir / "llmperf"), "--url", base_url + api] + model +
            ["--outputs-dir", str(out), "--name", name, "--no-timestamp", "--seed", "7",
             "--sleep-interval", "0"] +
            [f.replace("{out}", str(out)) for f in flags if f != SERVED_MODEL])
    done = subprocess.run(args, cwd=REPO, capture_output=True, text=True, timeout=300)
    if done.returncode not in (0, 3):
        print(f"    {bin_dir / 'llmperf'} exited {done.returncode}: {done.stderr[-2000:]}")
    return done.returncode, done.stdout.replace(str(out), "<out>")


def run_tune(bin_dir, mock_bin, flags, out):
    args = ([str(bin_dir / "llmperf"), "tune", "--study-dir", str(out / "study"), "--seed", "7",
             "--sleep-interval", "0"] +
            [f.replace("{out}", str(out)).replace("{mock}", str(mock_bin)) for f in flags])
    done = subprocess.run(args, cwd=REPO, capture_output=True, text=True, timeout=600)
    if done.returncode not in (0, 3):
        print(f"    {bin_dir / 'llmperf'} tune exited {done.returncode}: {done.stderr[-2000:]}")
    return done.returncode, done.stdout.replace(str(out), "<out>")


def files_of(root):
    return sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file())


def compare_trees(a, b, transform, label):
    """Differences between the files under a and b (after `transform`, with each root's own path
    replaced by <out>)."""
    different = []
    names_a, names_b = files_of(a), files_of(b)
    if names_a != names_b:
        different.append(f"{label}: file lists differ: {sorted(set(names_a) ^ set(names_b))}")
    for name in sorted(set(names_a) & set(names_b)):
        left = (a / name).read_bytes()
        right = (b / name).read_bytes()
        if transform is written_at_masked:
            left = transform(left.decode(errors="replace"))
            right = transform(right.decode(errors="replace"))
        elif transform is not None:
            if name.suffix == ".html":
                continue
            if name.suffix == ".db":
                left, right = db_rows(a / name, a), db_rows(b / name, b)
                if left != right:
                    different.append(f"{label}: {name} differs (its rows)")
                continue
            left = left.decode(errors="replace").replace(str(a), "<out>")
            right = right.decode(errors="replace").replace(str(b), "<out>")
            if name.name == "requests.jsonl":
                left, right = records(left), records(right)
            elif name.name == "vllm_result.json" or name.parent.name == "vllm":
                left, right = vllm_arrays(left), vllm_arrays(right)
            else:
                left, right = transform(left), transform(right)
        if left != right:
            detail = ""
            if isinstance(left, str):
                diff = difflib.unified_diff(left.splitlines(), right.splitlines(), lineterm="", n=0)
                detail = "\n      " + "\n      ".join(line[:160] for line in list(diff)[2:12])
            different.append(f"{label}: {name} differs{detail}")
    return different, len(names_a)


def run_both(run_one, outs, bins, label):
    """Runs `run_one(bin_dir, out)` with each build into outs["old"] and outs["new"], and compares
    their exit codes, stdout and files (masked). Returns the problems, the two directories, the new
    build's exit code and how many files it wrote."""
    (code_old, text_old), (code_new, text_new) = (run_one(bins[0], outs["old"]),
                                                  run_one(bins[1], outs["new"]))
    problems = []
    if code_old != code_new:
        problems.append(f"exit codes differ: {code_old} (old) and {code_new} (new)")
    if masked(text_old) != masked(text_new):
        diff = difflib.unified_diff(masked(text_old).splitlines(), masked(text_new).splitlines(),
                                    lineterm="", n=0)
        problems.append("stdout differs after masking:\n      " +
                        "\n      ".join(line[:160] for line in list(diff)[2:12]))
    found, count = compare_trees(outs["old"], outs["new"], masked, label)
    return problems + found, (outs["old"], outs["new"]), code_new, count


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    old, new = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]).resolve()
    only = [a for a in sys.argv[3:] if a != "--keep"]
    unknown = set(only) - set(SCENARIOS) - set(TUNE_SCENARIOS)
    if unknown:
        sys.exit(f"no scenario {sorted(unknown)}")
    chosen = lambda scenarios: {k: v for k, v in scenarios.items() if not only or k in only}
    work = pathlib.Path(tempfile.mkdtemp(prefix="llmperf-same-"))
    mock, base_url = start_mock(new, work / "mock.log")
    failures = 0
    try:
        for scenario, flags in chosen(SCENARIOS).items():
            problems, (out_old, out_new), code_new, count = run_both(
                lambda bin_dir, out: run(bin_dir, base_url, flags, out, scenario),
                {side: work / side / scenario / "out" for side in ("old", "new")},
                (old, new), "live runs (masked)")
            # Exact: the new run's directory rebuilt by each build, in the same place (paths are
            # part of the files), then moved aside.
            place = work / "rebuilt" / scenario / "out"
            for side, bin_dir in (("old", old), ("new", new)):
                if out_new.is_dir():
                    shutil.copytree(out_new, place)
                else:
                    place.mkdir(parents=True)
                subprocess.run([str(bin_dir / "llmperf"), "report", str(place / scenario)],
                               cwd=REPO, capture_output=True, timeout=300)
                place.rename(work / "rebuilt" / scenario / side)
            found, rebuilt = compare_trees(work / "rebuilt" / scenario / "old",
                                           work / "rebuilt" / scenario / "new", written_at_masked,
                                           "rebuilt")
            problems += found
            verdict = "SAME" if not problems else "DIFFERENT"
            print(f"{verdict:9} {scenario}: {count} files live (masked), {rebuilt} rebuilt "
                  f"(exact), exit {code_new}")
            for problem in problems:
                print(f"    {problem}")
            failures += bool(problems)
        for scenario, flags in chosen(TUNE_SCENARIOS).items():
            problems, _, code_new, count = run_both(
                lambda bin_dir, out: run_tune(bin_dir, new / "llmperf-mock", flags, out),
                {side: work / side / scenario for side in ("old", "new")}, (old, new),
                "study (masked)")
            verdict = "SAME" if not problems else "DIFFERENT"
            print(f"{verdict:9} {scenario}: {count} files of the study (masked), exit {code_new}")
            for problem in problems:
                print(f"    {problem}")
            failures += bool(problems)
    finally:
        mock.terminate()
        mock.wait()
        if "--keep" in sys.argv:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print("all scenarios SAME" if failures == 0 else f"{failures} scenario(s) DIFFERENT")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
