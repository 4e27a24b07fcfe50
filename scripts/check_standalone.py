#!/usr/bin/env python3
"""Checks that every source of llmperf and llmperf-mock compiles on its own.

The builds of scripts/test.sh and the demo are unity builds: each compiler run sees several sources
at once, so a source that forgets an #include can compile there only because a neighbour included
it. This compiles each source of src/ and mock/ alone, with `-fsyntax-only` and the flags of its
target in a unity build directory's compile_commands.json (CMAKE_EXPORT_COMPILE_COMMANDS), without
the build's precompiled headers, and lists every source that fails.

Two things make it cheaper without hiding a missing project or third-party #include:
- The first source of each unity file compiled there alone already (when that build used no
  precompiled header), so it is not compiled again.
- The standard headers the project includes are precompiled once per set of flags (g++'s .gch)
  and included first: they were a third of each source's parse. A source that forgets a standard
  header is then not caught here. With libstdc++, whose headers include one another, a compile
  on its own caught only some of those anyway; the project's own headers, nlohmann/json, fmt,
  CLI11, spdlog, libcurl and SQLite are parsed from their text, as before.

Usage: check_standalone.py BUILD_DIR [JOBS]
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


def language_key(flags):
    """What a precompiled header must share with the compile that uses it: the compiler and its
    flags but the include directories and macros (which do not change a standard header)."""
    language = [a for a in flags[1:] if not a.startswith(("-I", "-isystem", "-D"))]
    return hashlib.sha1(" ".join([flags[0]] + language).encode()).hexdigest()[:12]


def precompile_standard_headers(flags, directory, headers, build):
    """Precompiles `headers` with `flags` into BUILD/standalone-pch/<language_key>/; returns its
    header, or None when the compiler cannot."""
    pch_dir = os.path.join(os.path.realpath(build), "standalone-pch", language_key(flags))
    os.makedirs(pch_dir, exist_ok=True)
    header = os.path.join(pch_dir, "standard.h")
    with open(header, "w", encoding="utf-8") as f:
        f.write("".join(f"#include <{h}>\n" for h in headers))
    # Without the compile's macros: g++ would then use it only where each is defined the same.
    undefined = [flags[0]] + [a for a in flags[1:] if not a.startswith("-D")]
    made = subprocess.run(undefined + ["-x", "c++-header", header, "-o", header + ".gch"],
                          cwd=directory, capture_output=True, text=True)
    return header if made.returncode == 0 else None


def pch_flags(flags, directory, header):
    """The flags that include `header`'s precompiled form in a compile with `flags`, or [] when
    the compiler would not use it there (then each source parses the standard headers)."""
    if header is None:
        return []
    use = ["-include", header]
    probe = subprocess.run(flags + use + ["-Winvalid-pch", "-Wno-error", "-fsyntax-only",
                                          "-x", "c++", os.devnull],
                           cwd=directory, capture_output=True, text=True)
    return use if probe.returncode == 0 and "pch" not in probe.stderr else []


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

    to_check = sorted(set(checks) - compiled_alone)
    headers = standard_headers(root)
    compiles = sorted({(tuple(checks[source][0]), checks[source][1]) for source in to_check})
    first_of_key = {}  # language_key -> a compile of that key
    for compile in compiles:
        first_of_key.setdefault(language_key(list(compile[0])), compile)
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        header_of_key = dict(zip(first_of_key, pool.map(
            lambda c: precompile_standard_headers(list(c[0]), c[1], headers, build),
            first_of_key.values())))
        precompiled = dict(zip(compiles, pool.map(
            lambda c: pch_flags(list(c[0]), c[1], header_of_key[language_key(list(c[0]))]),
            compiles)))
    if compiles and not all(precompiled.values()):
        print("check_standalone: some sources parse the standard headers themselves: their "
              "precompiled form does not fit their flags", file=sys.stderr)

    def check(source):
        flags, directory = checks[source]
        result = subprocess.run(flags + precompiled[(tuple(flags), directory)] +
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
    print(f"check_standalone: {len(checks) - len(failed)} of {len(checks)} sources compile on "
          f"their own ({len(compiled_alone)} of them checked by the unity build itself, "
          f"{len(headers)} standard headers precompiled)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
