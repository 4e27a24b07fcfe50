#!/usr/bin/env python3
"""Checks that every source of llmperf and llmperf-mock compiles on its own.

The builds of scripts/test.sh and the demo are unity builds: each compiler run sees several sources
at once, so a source that forgets an #include can compile there only because a neighbour included
it. This compiles each source of src/ and mock/ alone, with clang's `-fsyntax-only` and the flags
of its target in a clang build directory's compile_commands.json (scripts/test.sh passes its
ASan+UBSan build), without the build's precompiled headers, and lists every source that fails.

What makes it cheap without hiding a missing project or third-party #include: clang reads a
precompiled header lazily, so what a source does not use costs it almost nothing, and its
template instantiations are made once, in the precompiled header. So each source gets one of a
few precompiled "tiers", the largest whose third-party headers the source includes itself
(directly or through the project's headers, as its #include lines say):
  - the standard headers the project includes;
  - those and fmt/format.h;
  - those and nlohmann/json.hpp.
A source that uses nlohmann/json without including it (nor a project header that does) gets no
tier with it, and fails as it would alone. A source that forgets a standard header is not caught
here: libstdc++'s headers include one another, so a compile on its own caught only some of those
anyway. Every other header (the project's, spdlog, CLI11, Boost, libcurl, SQLite, the rest of
fmt) is parsed from its text, as a compile on its own would.

Measured on the 249 sources (2 cores, a quiet machine): 230 CPU s, where g++ with only the
standard headers precompiled took 475.

Usage: check_standalone.py BUILD_DIR [JOBS]   (BUILD_DIR: a clang build, CMAKE_EXPORT_COMPILE_COMMANDS)
"""
import concurrent.futures
import glob
import hashlib
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

# The third-party headers of each tier beyond the standard ones: the sets the sources include most
# (54 sources include none of them, 61 fmt alone, 52 fmt and nlohmann/json, 24 nlohmann/json
# alone, 15 fmt and spdlog, 11 fmt and CLI11).
TIERS = [(), ("fmt/format.h",), ("nlohmann/json.hpp",), ("fmt/format.h", "nlohmann/json.hpp"),
         ("fmt/format.h", "spdlog/spdlog.h"), ("CLI/CLI.hpp", "fmt/format.h")]

INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)


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


def uses_pch(arguments):
    return any("cmake_pch" in arg or arg.startswith("-fpch") or arg == "-include-pch"
               for arg in arguments)


def standard_headers(root):
    """The standard headers (`#include <name>`, no dot or slash) that src/ and mock/ include."""
    headers = set()
    for path in glob.glob(os.path.join(root, "src", "**", "*.*"), recursive=True) + \
            glob.glob(os.path.join(root, "mock", "**", "*.*"), recursive=True):
        if not path.endswith((".h", ".cpp")):
            continue
        with open(path, encoding="utf-8") as f:
            headers.update(re.findall(r"^\s*#\s*include\s+<([a-z_]+)>", f.read(), re.M))
    return sorted(headers)


class IncludeGraph:
    """The <...> headers a source includes itself: its own and those of the project headers it
    includes ("..." includes found beside it, in src/ or in mock/), transitively."""

    def __init__(self, root):
        self.dirs = [os.path.join(root, "src"), os.path.join(root, "mock")]
        self.direct = {}  # path -> (angle includes, project headers it includes)

    def _read(self, path):
        if path not in self.direct:
            angle, quoted = set(), []
            with open(path, encoding="utf-8") as f:
                for kind, name in INCLUDE.findall(f.read()):
                    if kind == "<":
                        angle.add(name)
                        continue
                    for base in [os.path.dirname(path)] + self.dirs:
                        candidate = os.path.realpath(os.path.join(base, name))
                        if os.path.isfile(candidate):
                            quoted.append(candidate)
                            break
            self.direct[path] = (angle, quoted)
        return self.direct[path]

    def angle_includes(self, source):
        seen, stack, angle = set(), [source], set()
        while stack:
            path = stack.pop()
            if path in seen:
                continue
            seen.add(path)
            own, quoted = self._read(path)
            angle |= own
            stack.extend(quoted)
        return angle


def tier_of(angle):
    """The tier with the most third-party headers, all of them in `angle`."""
    return max((len(extra), i) for i, extra in enumerate(TIERS) if set(extra) <= angle)[1]


def pch_key(flags):
    """What a precompiled header must share with the compile that uses it: the compiler and its
    flags, macros included, but the include directories."""
    language = [a for a in flags[1:] if not a.startswith(("-I", "-isystem"))]
    return hashlib.sha1(" ".join([flags[0]] + language).encode()).hexdigest()[:12]


def precompile(flags, directory, headers, path):
    """Precompiles `headers` with `flags` into `path`.pch; returns (its path, ""), or (None, the
    compiler's message) when it cannot (the sources of that tier then parse every header)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(f"#include <{h}>\n" for h in headers))
    pch = path + ".pch"
    made = subprocess.run(flags + ["-x", "c++-header", path, "-Xclang",
                                   "-fpch-instantiate-templates", "-o", pch],
                          cwd=directory, capture_output=True, text=True)
    return (pch, "") if made.returncode == 0 else (None, made.stderr)


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
    compiled_alone = set()  # the first source of a unity file that used no precompiled header
    for entry in commands:
        arguments = entry.get("arguments") or shlex.split(entry["command"])
        file = entry["file"]
        flags = language_flags(arguments)
        if os.path.basename(file).startswith("unity_"):
            files = sources_of(file, root)
            if files and not uses_pch(arguments):
                compiled_alone.add(files[0])
        else:
            path = os.path.realpath(file)
            files = [path] if os.path.relpath(path, root).startswith(("src/", "mock/")) else []
        for source in files:
            checks.setdefault(source, (flags, entry["directory"]))
    if not checks:
        print(f"check_standalone: no sources of src/ or mock/ in {build}/compile_commands.json",
              file=sys.stderr)
        return 1
    if not any("clang" in os.path.basename(flags[0]) for flags, _ in checks.values()):
        print(f"check_standalone: {build} is not a clang build (configure it with CXX=clang++)",
              file=sys.stderr)
        return 2

    to_check = sorted(set(checks) - compiled_alone)
    standard = standard_headers(root)
    graph = IncludeGraph(root)
    tier = {source: tier_of(graph.angle_includes(source)) for source in to_check}

    # One precompiled header per set of flags (macros included: clang refuses a precompiled header
    # whose macros differ from the compile's) and tier.
    wanted = {}  # (pch key, tier) -> (flags, directory) to make it with
    for source in to_check:
        flags, directory = checks[source]
        wanted.setdefault((pch_key(flags), tier[source]), (flags, directory))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        made = dict(zip(wanted, pool.map(
            lambda item: precompile(item[1][0], item[1][1], standard + list(TIERS[item[0][1]]),
                                    os.path.join(os.path.realpath(build), "standalone-pch",
                                                 item[0][0], f"tier{item[0][1]}.h")),
            wanted.items())))
    for (key, level), (pch, error) in sorted(made.items()):
        if pch is None:
            print(f"check_standalone: tier {level} ({key}) could not be precompiled; its sources "
                  f"parse every header themselves:\n{error}", file=sys.stderr)

    def check(source):
        flags, directory = checks[source]
        pch = made[(pch_key(flags), tier[source])][0]
        result = subprocess.run(flags + (["-include-pch", pch] if pch else []) +
                                ["-fsyntax-only", source], cwd=directory,
                                capture_output=True, text=True)
        return source, result.returncode, result.stderr

    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for source, code, err in pool.map(check, to_check):
            if code != 0:
                failed.append(source)
                print(f"== {os.path.relpath(source, root)} does not compile on its own:\n{err}",
                      file=sys.stderr)
    tiers = ", ".join(f"{' and '.join(['standard'] + [h.split('/')[0] for h in extra])}: "
                      f"{sum(1 for s in to_check if TIERS[tier[s]] == extra)}" for extra in TIERS)
    print(f"check_standalone: {len(checks) - len(failed)} of {len(checks)} sources compile on "
          f"their own ({len(compiled_alone)} of them checked by the unity build itself; "
          f"{len(made)} precompiled headers of {len(standard)} standard headers and "
          f"sources per tier: {tiers})")
    return 1 if failed else 0


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


if __name__ == "__main__":
    sys.exit(main())
