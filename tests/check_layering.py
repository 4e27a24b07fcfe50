#!/usr/bin/env python3
"""Checks the stage layering of src/ (CONTRIBUTING.md: Code layout).

Usage: check_layering.py SRC_DIR STAGE=DEP,DEP ...   (CMake passes one STAGE=DEPS per stage library)

Every file under src/<stage>/ may include "<other>/..." only when <other> is the stage itself or a
stage it links, directly or through the stages it links. src/main.cpp may include any stage. Every
quoted include must name an existing file under src/, and no chain of includes may lead back to
the file it started from. Prints each violation with file:line and exits 1 when there is any.
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def closure(stage, deps, seen=None):
    seen = set() if seen is None else seen
    for dep in deps.get(stage, ()):
        if dep not in seen:
            seen.add(dep)
            closure(dep, deps, seen)
    return seen


def main():
    src = pathlib.Path(sys.argv[1])
    deps = {}
    for arg in sys.argv[2:]:
        stage, _, listed = arg.partition("=")
        deps[stage] = [d for d in listed.split(",") if d]
    allowed = {stage: closure(stage, deps) | {stage} for stage in deps}

    problems = []
    graph = {}
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".h", ".cpp"):
            continue
        rel = path.relative_to(src)
        stage = rel.parts[0] if len(rel.parts) > 1 else None
        if stage is not None and stage not in allowed:
            problems.append(f"{rel}: folder '{stage}' is not a stage library in CMakeLists.txt")
            continue
        graph[rel.as_posix()] = []
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = match.group(1)
            where = f"src/{rel}:{number}"
            if not (src / target).is_file():
                problems.append(f'{where}: "{target}" is not a file under src/ '
                                f'(include stage headers as "<stage>/<file>.h")')
                continue
            graph[rel.as_posix()].append(target)
            target_stage = target.split("/")[0]
            if stage is not None and target_stage not in allowed[stage]:
                problems.append(f'{where}: stage {stage} includes "{target}" from stage '
                                f"{target_stage}, which it does not link "
                                f"(it may use: {', '.join(sorted(allowed[stage]))})")

    # Include cycles: depth-first search with colours.
    state = {}

    def visit(node, stack):
        state[node] = "open"
        stack.append(node)
        for nxt in graph.get(node, ()):
            if state.get(nxt) == "open":
                cycle = stack[stack.index(nxt):] + [nxt]
                problems.append("include cycle: " + " -> ".join(cycle))
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = "done"

    for node in graph:
        if node not in state:
            visit(node, [])

    for problem in problems:
        print(problem)
    checked = sum(1 for _ in graph)
    print(f"layering: {checked} files in {len(deps)} stages checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
