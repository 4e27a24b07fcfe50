#!/usr/bin/env python3
"""Checks the stage layering of src/ (CONTRIBUTING.md: Code layout).

Usage: check_layering.py SRC_DIR STAGE=DEP,DEP ...   (CMake passes one STAGE=DEPS per stage library)

Every file under src/<stage>/ may include "<other>/..." only when <other> is the stage itself or a
stage it links, directly or through the stages it links. src/main.cpp may include any stage. Every
quoted include must name an existing file under src/, and no chain of includes may lead back to
the file it started from. CONTRIBUTING.md's dependency picture must show each stage's links as
CMakeLists.txt has them. Prints each violation with file:line and exits 1 when there is any.
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


def diagram_problems(contributing, deps):
    """CONTRIBUTING.md's dependency picture (the first code block of its "Code layout" section,
    one "stage ─► dep, dep" line per stage) against the stages' link lines."""
    if not contributing.is_file():
        return [f"{contributing}: missing (its Code layout section draws the stages)"]
    text = contributing.read_text(encoding="utf-8")
    section = text.split("## Code layout", 1)[-1]
    block = section.split("```", 2)[1] if section.count("```") >= 2 else ""
    drawn = {}
    for line in block.splitlines():
        name, arrow, listed = line.partition("─►")
        name = name.strip()
        if not arrow or name == "main.cpp":
            continue
        drawn[name] = sorted(d.strip() for d in listed.split(",")
                             if d.strip() and not d.strip().startswith("("))
    problems = []
    for stage in sorted(set(deps) | set(drawn)):
        linked = sorted(deps.get(stage, ["(no such stage)"]))
        if drawn.get(stage) != linked:
            problems.append(f"CONTRIBUTING.md, Code layout: the picture shows {stage} ─► "
                            f"{', '.join(drawn.get(stage, ['(nothing)']))}; CMakeLists.txt links "
                            f"{', '.join(linked) or '(no stage)'}")
    return problems


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

    problems += diagram_problems(src.parent / "CONTRIBUTING.md", deps)

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
