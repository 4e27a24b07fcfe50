#!/usr/bin/env python3
"""Runs the commands that README.md, CONTRIBUTING.md and docs/*.md mark runnable against llmperf-mock.

A runnable block is a ```sh (or ```bash) block whose previous line is an HTML comment
`<!-- runnable -->`, optionally with options separated by `;` (CONTRIBUTING.md, "Docs that run"):
  exit N [N...]      the block must exit with code N (or one of the codes given; default 0)
  with FLAG VALUE... every benchmark command of the block runs with FLAG set to VALUE(s),
                     replacing the values the command gives, or added
  mock ARGS...       the block gets an llmperf-mock of its own, started with ARGS

Each block runs with `bash -e -o pipefail` in a fresh temporary directory holding the sample files
the docs name, with every http(s)://HOST[:PORT] replaced by the mock's address (but
HOST:{port}, a `llmperf tune` template), `llmperf` and
`build/llmperf` running the build's binary (through a wrapper that applies `with`), and a timeout.
A failure names the block by file:line and shows its output.

With --check-links it instead checks that every relative link of those files (and of
bench/README.md and datasets/README.md) names a file that exists and, for a Markdown file, a
heading that exists.

Usage: run_doc_commands.py LLMPERF LLMPERF_MOCK [--timeout S] [FILE[:LINE]...]
       run_doc_commands.py --check-links
"""

import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^<!--\s*runnable(?::(.*?))?\s*-->\s*$")
FENCE = re.compile(r"^(`{3,}|~{3,})\s*([\w-]*)\s*$")
# A URL whose port is a template (`llmperf tune`'s http://127.0.0.1:{port}/...) is the study's own
# server, so it is left as it is.
URL = re.compile(r"https?://[A-Za-z0-9_.\-]+(?::\d+|:\{\w+\})?")
# Flags that are one flag under several names (the `with` option replaces all of them).
ALIASES = [{"-n", "--number", "--num-prompts"}, {"--parallel", "--max-concurrency"},
           {"--rate", "--request-rate"}]
# Subcommands that take no benchmark flags: `with` leaves their command lines alone.
NO_OVERRIDE_SUBCOMMANDS = {"compare", "report", "merge", "history"}


def doc_files():
    return [REPO / "README.md", REPO / "CONTRIBUTING.md"] + sorted((REPO / "docs").glob("*.md"))


def rel(path):
    return path.relative_to(REPO).as_posix()


def markdown_lines(path):
    """Yields (line number, line, fence) where fence is the open fence's marker or None."""
    fence = None
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        match = FENCE.match(line)
        if fence is None and match:
            yield number, line, None
            fence = match.group(1)
            continue
        if fence is not None and line.strip() == fence:
            fence = None
            yield number, line, "closing"
            continue
        yield number, line, fence


class Block:
    def __init__(self, path, line, options, text):
        self.where = f"{rel(path)}:{line}"
        self.path, self.line, self.text = path, line, text
        self.exit_codes, self.overrides, self.mock_args = [0], [], None
        for option in filter(None, (o.strip() for o in (options or "").split(";"))):
            word, _, rest = option.partition(" ")
            args = shlex.split(rest)
            if word == "exit" and args and all(a.isdigit() for a in args):
                self.exit_codes = [int(a) for a in args]
            elif word == "with" and args and args[0].startswith("-"):
                self.overrides.append(args)
            elif word == "mock":
                self.mock_args = args
            else:
                raise ValueError(f"{self.where}: unknown runnable option '{option}' "
                                 "(exit N; with FLAG VALUE...; mock ARGS...)")


def find_blocks(paths):
    blocks, errors = [], []
    for path in paths:
        lines = list(markdown_lines(path))
        for i, (number, line, fence) in enumerate(lines):
            match = MARKER.match(line) if fence is None else None
            if not match:
                continue
            nxt = FENCE.match(lines[i + 1][1]) if i + 1 < len(lines) else None
            if not nxt or nxt.group(2) not in ("sh", "bash"):
                errors.append(f"{rel(path)}:{number}: a runnable marker must be followed at once "
                              "by a ```sh block")
                continue
            body = []
            for _, text, inner in lines[i + 2:]:
                if inner == "closing":
                    break
                body.append(text)
            try:
                blocks.append(Block(path, number, match.group(1), "\n".join(body) + "\n"))
            except ValueError as e:
                errors.append(str(e))
    return blocks, errors


WRAPPER = """#!/usr/bin/env python3
# llmperf as the docs test runs it: the build's binary, with the block's `with` flags applied.
import json, os, sys
real = os.environ["DOC_LLMPERF_BIN"]
args = sys.argv[1:]
aliases = json.loads(os.environ["DOC_ALIASES"])
skip = set(json.loads(os.environ["DOC_NO_OVERRIDE"]))
if not (args and args[0] in skip):
    for flag, *values in json.loads(os.environ.get("DOC_WITH", "[]")):
        names = next((set(a) for a in aliases if flag in a), {flag})
        kept, i = [], 0
        while i < len(args):
            name = args[i].split("=", 1)[0]
            if name in names:
                i += 1
                if "=" not in args[i - 1]:
                    while i < len(args) and not args[i].startswith("-"):
                        i += 1
                continue
            kept.append(args[i])
            i += 1
        args = kept + [flag] + values
os.execv(real, [real] + args)
"""


def write_samples(work):
    """The files that the documented commands name, in the block's working directory."""
    (work / "datasets").symlink_to(REPO / "datasets")
    (work / "open_qa.jsonl").symlink_to(REPO / "datasets" / "open_qa.jsonl")
    (work / "ShareGPT_V3_unfiltered_cleaned_split.json").symlink_to(
        REPO / "tests" / "fixtures" / "sharegpt" / "sample.json")
    prompt = "Summarise the history of the printing press in three sentences.\n"
    (work / "prompt.txt").write_text(prompt)
    (work / "ci").mkdir()
    (work / "ci" / "prompt.txt").write_text(prompt)
    chats = []
    for i in range(12):
        chats.append(json.dumps({"messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": f"Question {i}: what is a load generator?"},
            {"role": "assistant", "content": "A program that sends requests to a server."},
            {"role": "user", "content": "And why measure TTFT?"},
            {"role": "assistant", "content": "It is how long a user waits for the first token."},
            {"role": "user", "content": "Thank you."}]}))
    (work / "chats.jsonl").write_text("\n".join(chats) + "\n")
    trace = []  # Mooncake: 40 requests over 2 s, sharing their first blocks
    for i in range(40):
        trace.append(json.dumps({"timestamp": i * 50, "input_length": 700 + 10 * (i % 5),
                                 "output_length": 8, "hash_ids": [0, 100 + i]}))
    (work / "conversation_trace.jsonl").write_text("\n".join(trace) + "\n")
    bodies = []  # EvalScope's workload trace: whole bodies at their times
    for i in range(10):
        bodies.append(json.dumps({"timestamp": i * 0.05, "body": {
            "messages": [{"role": "user", "content": f"Request {i} of a recorded workload."}],
            "max_tokens": 16}}))
    (work / "workload_trace.jsonl").write_text("\n".join(bodies) + "\n")


class Mock:
    def __init__(self, binary, args, log):
        self.log = log
        with open(log, "wb") as out:
            self.process = subprocess.Popen([binary, "--port", "0"] + list(args), stdout=out,
                                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        self.url = None
        while time.monotonic() < deadline and self.process.poll() is None:
            match = re.search(r"listening on (http://\S+)", log.read_text(errors="replace"))
            if match:
                self.url = match.group(1)
                return
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"llmperf-mock {' '.join(args)} did not start:\n"
                           + log.read_text(errors="replace"))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def run_block(block, args, shared_mock, scratch):
    work = pathlib.Path(tempfile.mkdtemp(prefix="doc-", dir=scratch))
    write_samples(work)
    bin_dir = work / ".bin"
    bin_dir.mkdir()
    # A link to the one wrapper main() wrote before any block started: a file written here could
    # still be open in a child another block's thread is forking, and its exec then fails with
    # "Text file busy".
    wrapper = bin_dir / "llmperf"
    wrapper.symlink_to(scratch / "llmperf-wrapper")
    (bin_dir / "llmperf-mock").symlink_to(args.mock)
    (work / "build").mkdir()
    (work / "build" / "llmperf").symlink_to(wrapper)
    (work / "build" / "llmperf-mock").symlink_to(args.mock)

    mock = shared_mock
    if block.mock_args is not None:
        mock = Mock(args.mock, block.mock_args, work / ".mock.log")
    script = URL.sub(lambda m: m.group(0) if "{" in m.group(0) else mock.url, block.text)
    env = dict(os.environ)
    env.update(PATH=f"{bin_dir}:{env.get('PATH', '')}", DOC_LLMPERF_BIN=args.llmperf,
               DOC_WITH=json.dumps(block.overrides),
               DOC_ALIASES=json.dumps([sorted(a) for a in ALIASES]),
               DOC_NO_OVERRIDE=json.dumps(sorted(NO_OVERRIDE_SUBCOMMANDS)))
    started = time.monotonic()
    process = subprocess.Popen(["bash", "-e", "-o", "pipefail", "-c", script], cwd=work, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=args.timeout)
        code = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        code = None
    try:  # whatever the block left in the background
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    if mock is not shared_mock:
        mock.stop()
    seconds = time.monotonic() - started
    text = output.decode(errors="replace")
    if code in block.exit_codes:
        shutil.rmtree(work, ignore_errors=True)
        return (text if args.verbose else None), seconds
    why = (f"timed out after {args.timeout:.0f} s" if code is None
           else f"exit code {code}, expected {' or '.join(map(str, block.exit_codes))}")
    lines = text.rstrip("\n").split("\n")
    if len(lines) > 80:
        lines = [f"... ({len(lines) - 80} lines left out)"] + lines[-80:]
    report = "\n".join([f"FAIL {block.where}: {why} ({seconds:.1f} s, in {work})",
                        "--- the block as run:", script.rstrip("\n"), "--- its output:"]
                       + lines)
    return report, seconds


def slug(heading):
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    seen, result = {}, set()
    for _, line, fence in markdown_lines(path):
        if fence is None and re.match(r"^#{1,6} ", line):
            base = slug(line.lstrip("#"))
            n = seen.get(base, 0)
            seen[base] = n + 1
            result.add(base if n == 0 else f"{base}-{n}")
    return result


def check_links():
    problems, count = [], 0
    files = doc_files() + [REPO / "bench" / "README.md", REPO / "datasets" / "README.md"]
    for path in files:
        for number, line, fence in markdown_lines(path):
            if fence is not None:
                continue
            line = re.sub(r"`[^`]*`", "", line)
            for target in re.findall(r"\]\(([^)\s]+)\)", line):
                if re.match(r"^[a-z]+:", target):
                    continue
                count += 1
                file_part, _, anchor = target.partition("#")
                dest = (path.parent / file_part).resolve() if file_part else path
                if not dest.exists():
                    problems.append(f"{rel(path)}:{number}: {target}: no such file")
                elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                    problems.append(f"{rel(path)}:{number}: {target}: no heading #{anchor} "
                                    f"in {rel(dest)}")
    for p in problems:
        print(p)
    print(f"{count} relative links checked, {len(problems)} broken")
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("llmperf", nargs="?")
    parser.add_argument("mock", nargs="?")
    parser.add_argument("only", nargs="*", help="FILE or FILE:LINE of the blocks to run")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per block")
    parser.add_argument("--jobs", type=int, default=2, help="blocks run at the same time")
    parser.add_argument("--check-links", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true", help="show every block's output")
    args = parser.parse_intermixed_args()
    if args.check_links:
        return check_links()
    if not args.llmperf or not args.mock:
        parser.error("give the llmperf and llmperf-mock binaries")
    args.llmperf = str(pathlib.Path(args.llmperf).resolve())
    args.mock = str(pathlib.Path(args.mock).resolve())

    blocks, errors = find_blocks(doc_files())
    if args.only:
        blocks = [b for b in blocks if any(b.where == o or rel(b.path) == o for o in args.only)]
    for e in errors:
        print(f"FAIL {e}")
    failures, started = len(errors), time.monotonic()
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="llmperf-docs-"))
    (scratch / "llmperf-wrapper").write_text(WRAPPER)
    (scratch / "llmperf-wrapper").chmod(0o755)
    shared = Mock(args.mock, [], scratch / "mock.log")
    try:
        # Blocks run two at a time by default; those whose checks depend on the server's own
        # counters get a mock of their own (the `mock` option).
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            runs = [pool.submit(run_block, block, args, shared, scratch) for block in blocks]
            for block, run in zip(blocks, runs):
                report, seconds = run.result()
                if report and not report.startswith("FAIL "):
                    print(f"ok   {block.where} ({seconds:.1f} s)\n{report}", flush=True)
                elif report:
                    failures += 1
                    print(report, flush=True)
                else:
                    print(f"ok   {block.where} ({seconds:.1f} s)", flush=True)
    finally:
        shared.stop()
    if failures == 0:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{len(blocks)} runnable blocks, {failures} failed, "
          f"{time.monotonic() - started:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
