"""The house rules the harness's folders promise (docs/architecture.md), checked on its source:
no import cycle, an import inside a function only where it defers torch or another heavy
dependency (with a comment saying so), and torch imported only where learner code or the
reference is observed, never by grade.py's parent."""

from __future__ import annotations

import ast
from pathlib import Path

from selftests.gradekit import ROOT

HARNESS = ROOT / "kata_harness"
# Where torch may be imported at module level: the kata vocabulary and the observing room. (The
# grading child imports them; aspects and the child import them only inside their functions.)
TORCH_AT_TOP = ("kata_harness.spec", "kata_harness.observation.")
# What grade.py's parent imports whatever the command (through the parser and the judge): it must
# never import torch, nor anything that does at module level.
# (``check`` is the exception: it reads the kata specs, which are torch code, to lint the curriculum.)
PARENT = ("kata_harness.commands", "kata_harness.commands.grade", "kata_harness.commands.batch",
          "kata_harness.commands.watch", "kata_harness.commands.release", "kata_harness.commands.hint",
          "kata_harness.commands.reset", "kata_harness.commands.freeze", "kata_harness.judging.judge",
          "kata_harness.outputs.render", "kata_harness.isolation.channel")


def _modules() -> dict[str, Path]:
    """Every harness module by its dotted name."""
    found = {}
    for path in sorted(HARNESS.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path) -> list[tuple[str, bool, int, str]]:
    """(imported module, at module level?, line, the line's text) of every harness import in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = path.read_text(encoding="utf-8").splitlines()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            targets = [target] + [f"{target}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            continue
        text = _with_reason(lines, node.lineno)
        for target in targets:
            found.append((target, id(node) in top, node.lineno, text))
    return found


def _with_reason(lines: list[str], number: int) -> str:
    """An import's line, with the comment that explains it: on the line itself, or on the comment line
    just above the block of imports it belongs to."""
    text, above = lines[number - 1], number - 2
    while above >= 0 and lines[above].strip().startswith(("import ", "from ")):
        above -= 1
    if above >= 0 and lines[above].strip().startswith("#"):
        text += " " + lines[above]
    return text


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: {target for target, _, _, _ in _imports(name, path) if target in modules and target != name}
            for name, path in modules.items()}


def test_no_import_cycle():
    graph = _graph()
    state: dict[str, int] = {}
    cycles = []

    def visit(node, trail):
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(trail[trail.index(nxt):] + [nxt] if nxt in trail else [node, nxt])
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(cycle) for cycle in cycles)


def test_an_import_inside_a_function_says_why_it_is_deferred():
    """Only to defer torch or a heavy or optional dependency, with a comment that says so."""
    unexplained = []
    for name, path in _modules().items():
        for target, at_top, line, text in _imports(name, path):
            if not at_top and "deferred" not in text and (target.startswith("kata_harness") or "." in target):
                unexplained.append(f"{path.relative_to(ROOT)}:{line}: {target}")
    assert not unexplained, "imports inside functions without a `# deferred: ...` reason:\n" + "\n".join(
        sorted(set(unexplained)))


def test_torch_stays_out_of_the_grading_parent():
    """torch is imported at module level only by the kata vocabulary and the observing room, and
    nothing grade.py's parent loads imports them at module level."""
    modules = _modules()
    wrong = [f"{path.relative_to(ROOT)}: imports torch at module level" for name, path in modules.items()
             if not name.startswith(TORCH_AT_TOP)
             and any(target.split(".")[0] == "torch" and at_top for target, at_top, _, _ in _imports(name, path))]
    assert not wrong, "\n".join(wrong)
    top_level = {name: {target for target, at_top, _, _ in _imports(name, path) if at_top and target in modules}
                 for name, path in modules.items()}
    for start in PARENT:
        seen, todo = set(), [start]
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            todo.extend(top_level.get(current, ()))
        heavy = sorted(name for name in seen if name.startswith(TORCH_AT_TOP))
        assert not heavy, f"{start} loads {heavy} (and so torch) at import"


def test_every_room_says_what_it_holds():
    """Each folder of the harness opens with a docstring, and docs/architecture.md names each one."""
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for folder in sorted(p for p in HARNESS.iterdir() if p.is_dir() and p.name != "__pycache__"):
        init = folder / "__init__.py"
        assert init.is_file() and ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), folder
        assert f"`{folder.name}/`" in architecture, f"docs/architecture.md does not describe {folder.name}/"
