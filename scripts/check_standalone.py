#!/usr/bin/env python3
"""Checks that every source of llmperf and llmperf-mock compiles on its own.

The builds of scripts/test.sh and the demo are unity builds: each compiler run sees several sources
at once, so a source that forgets an #include can compile there only because a neighbour included
it. This compiles each source of src/ and mock/ alone, with `-fsyntax-only` and the flags of its
target in a unity build directory's compile_commands.json (CMAKE_EXPORT_COMPILE_COMMANDS), without
precompiled headers, and lists every source that fails.

Usage: check_standalone.py BUILD_DIR [JOBS]
"""
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys

# Flags of a unity compile command that are not about the language: its output, its dependency
# file, and the precompiled header (-Xclang -include-pch ..., -include cmake_pch.hxx), which would
# hide a missing #include as well as a unity build does.
DROP_WITH_VALUE = {"-o", "-c", "-MT", "-MF", "-MQ", "-include", "-Xclang"}
DROP = {"-MD", "-MMD", "-Winvalid-pch"}


def language_flags(arguments):
    flags = []
    skip = False
    for arg in arguments[1:]:
        if skip:
            skip = False
            continue
        if arg in DROP_WITH_VALUE:
            skip = True
            continue
        if arg in DROP or arg.startswith("-fpch") or arg.endswith((".cxx", ".cpp", ".cc")):
            continue
        flags.append(arg)
    return [arguments[0]] + flags


def sources_of(unity_file, root):
    """The project sources a unity file includes (src/ and mock/ only)."""
    sources = []
    with open(unity_file, encoding="utf-8") as f:
        for line in f:
            m = re.match(r'\s*#include\s+"([^"]+)"', line)
            if m:
                path = os.path.realpath(m.group(1))
                rel = os.path.relpath(path, root)
                if rel.startswith(("src/", "mock/")):
                    sources.append(path)
    return sources


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    build = sys.argv[1]
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else os.cpu_count() or 1
    root = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        commands = json.load(f)
    checks = {}  # source -> (flags, directory)
    for entry in commands:
        arguments = entry.get("arguments") or shlex.split(entry["command"])
        file = entry["file"]
        flags = language_flags(arguments)
        if os.path.basename(file).startswith("unity_"):
            files = sources_of(file, root)
        else:
            path = os.path.realpath(file)
            files = [path] if os.path.relpath(path, root).startswith(("src/", "mock/")) else []
        for source in files:
            checks.setdefault(source, (flags, entry["directory"]))
    if not checks:
        print(f"check_standalone: no sources of src/ or mock/ in {build}/compile_commands.json",
              file=sys.stderr)
        return 1

    def check(source):
        flags, directory = checks[source]
        result = subprocess.run(flags + ["-fsyntax-only", source], cwd=directory,
                                capture_output=True, text=True)
        return source, result.returncode, result.stderr

    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for source, code, err in pool.map(check, sorted(checks)):
            if code != 0:
                failed.append(source)
                print(f"== {os.path.relpath(source, root)} does not compile on its own:\n{err}",
                      file=sys.stderr)
    print(f"check_standalone: {len(checks) - len(failed)} of {len(checks)} sources compile on "
          "their own")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
