"""The house rules docs/architecture.md states, checked on the harness's source: each room imports
only what the page's table of rooms allows (and torch only where its torch column says), no import
cycle between rooms or modules, an import inside a function only with a comment saying why it is
deferred, torch never loaded by grade.py's parent, and every room described. Among the self-tests,
no test module imports another: what tests share lives in selftests' own modules (gradekit, warm...)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from selftests.gradekit import ROOT

HARNESS = ROOT / "kata_harness"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
# Where torch may be imported at module level: the kata vocabulary and the observing room. (The
# grading child imports them; aspects and the child import them only inside their functions.)
TORCH_AT_TOP = ("kata_harness.spec", "kata_harness.observation.")
# What grade.py's parent imports whatever the command (through the parser and the judge): it must
# never import torch, nor anything that does at module level.
# (``check`` is the exception: it reads the kata specs, which are torch code, to lint the curriculum.)
PARENT = ("kata_harness.commands", "kata_harness.commands.grade", "kata_harness.commands.batch",
          "kata_harness.batch.engine", "kata_harness.commands.watch", "kata_harness.commands.release",
          "kata_harness.platforms.student", "kata_harness.platforms.gradescope",
          "kata_harness.platforms.classroom50", "kata_harness.platforms.codio", "kata_harness.commands.hint",
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
    top = {id(node) for node in _module_level(tree.body)}
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


def _module_level(body: list) -> list:
    """The statements that run when a module is imported: its body, and what its top-level ``if``
    and ``try`` blocks hold (``try: import tomllib`` is a module-level import)."""
    found = []
    for node in body:
        found.append(node)
        if isinstance(node, (ast.If, ast.Try)):
            for block in (node.body, node.orelse, getattr(node, "finalbody", []),
                          *[handler.body for handler in getattr(node, "handlers", [])]):
                found += _module_level(block)
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
    """Only to defer torch, a heavy or optional dependency or one some systems lack, with a comment
    that says so (any module, the standard library's too)."""
    unexplained = []
    for name, path in _modules().items():
        for target, at_top, line, text in _imports(name, path):
            if not at_top and "deferred" not in text:
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


def _room(module: str) -> str:
    """The room a harness module belongs to, as the table names it: ``content/`` or ``api.py``."""
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__.py"
    return parts[1] + ("/" if (HARNESS / parts[1]).is_dir() else ".py")


def _table() -> dict[str, tuple[str, str]]:
    """The rows of the page's table of rooms: {room: (what it may import, its torch column)}."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text[text.index("## The rooms and what each may import"):]
    section = section[:section.index("\n## ", 4)]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = (cells[1], cells[2])
    return rows


def _allowed(imports: str, rooms: set[str]) -> dict[str, str]:
    """{room: condition} a row's import column allows ("" for always; "child" for the child only);
    ``rooms``: every room but the row's own."""
    if imports == "nothing":
        return {}
    every = re.fullmatch(r"every room but (.*)", imports)
    if every:
        return dict.fromkeys(rooms - set(re.findall(r"`([^`]+)`", every.group(1))), "")
    allowed = {}
    for name, condition in re.findall(r"`([^`]+)`( \(only the child[^)]*\))?", imports):
        allowed[name] = "child" if condition else ""
    return allowed


def test_the_table_of_rooms_names_every_room_and_no_cycle():
    rooms = {_room(name) for name in _modules()} - {"__init__.py"}
    table = _table()
    assert set(table) == rooms, f"rooms the table lacks: {sorted(rooms - set(table))}; " \
                                f"rows for no room: {sorted(set(table) - rooms)}"
    graph = {room: set(_allowed(imports, rooms - {room})) for room, (imports, _) in table.items()}
    for room in graph:
        reachable, todo = set(), list(graph[room])
        while todo:
            current = todo.pop()
            if current not in reachable:
                reachable.add(current)
                todo.extend(graph.get(current, ()))
        assert room not in reachable, f"the table lets {room} import a room that imports it back"


def _torch_allowed(rule: str, module: str, at_top: bool) -> bool:
    """Whether ``module`` may import torch itself, there, by its room's torch column."""
    if rule == "at module level":
        return True
    if rule.startswith("only the child"):
        return not at_top and module.endswith(".child")
    if rule.startswith("deferred"):
        return not at_top
    return False   # "no", or "through" another room


def _room_problem(room: str, other: str, allowed: dict, module: str, at_top: bool) -> str | None:
    """Why ``room`` may not import ``other`` from ``module`` (None when its row allows it)."""
    if other not in allowed:
        return f"{room} imports {other}, which its row does not allow"
    if allowed[other] == "child" and (at_top or not module.endswith(".child")):
        return f"{room} imports {other} outside the child or at module level"
    return None


def test_every_import_is_one_the_table_of_rooms_allows():
    """At module level and inside functions: a room imports only the rooms its row names, and
    torch only where its torch column allows it."""
    modules = _modules()
    rooms = {_room(name) for name in modules} - {"__init__.py"}
    table = _table()
    wrong = []
    for name, path in modules.items():
        room = _room(name)
        if room == "__init__.py":
            continue
        imports, torch_rule = table[room]
        allowed = _allowed(imports, rooms - {room})
        for target, at_top, line, _ in _imports(name, path):
            where = f"{path.relative_to(ROOT)}:{line}"
            if target.split(".")[0] == "torch" and not _torch_allowed(torch_rule, name, at_top):
                wrong.append(f"{where}: imports torch ({room}'s torch column: {torch_rule})")
            other = _room(target) if target in modules else room
            problem = None if other in (room, "__init__.py") else _room_problem(room, other, allowed, name, at_top)
            if problem:
                wrong.append(f"{where}: {problem}")
    assert not wrong, "\n".join(wrong)


def test_the_workflow_step_stands_alone():
    """The practice workflow's grading step runs where grade.py cannot (no torch, an old Python): it
    imports nothing of the harness, even inside a function."""
    name = "kata_harness.platforms.classroom_step"
    modules = _modules()
    harness = [f"{line}: {target}" for target, _, line, _ in _imports(name, modules[name])
               if target.split(".")[0] == "kata_harness" or target.startswith(".")]
    assert not harness, "classroom_step imports the harness:\n" + "\n".join(harness)


# The modules on either side of the parent-child protocol: they speak its vocabulary, never spell it.
SPEAKERS = ("kata_harness.isolation.child", "kata_harness.isolation.channel", "kata_harness.judging.judge",
            "kata_harness.judging.expectations")


def _docstrings(tree) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def test_the_protocol_is_spelled_only_in_its_own_module():
    """Every event kind and order word is ``isolation/protocol.py``'s: the modules that send and
    read events use its ``Kind``, ``Mode`` and ``Order``, never the words as string literals."""
    from kata_harness.isolation.protocol import Kind, Order

    words = {kind.value for kind in Kind} | {order.value for order in Order}
    modules = _modules()
    spelled = []
    for name in SPEAKERS:
        tree = ast.parse(modules[name].read_text(encoding="utf-8"))
        docstrings = _docstrings(tree)
        spelled += [f"{modules[name].relative_to(ROOT)}:{node.lineno}: {node.value!r}" for node in ast.walk(tree)
                    if isinstance(node, ast.Constant) and node.value in words and id(node) not in docstrings]
    assert not spelled, "protocol words spelled out instead of protocol.Kind / Order:\n" + "\n".join(spelled)


def _test_modules_imported(tree: ast.Module) -> set[str]:
    """The self-test modules (``selftests/test_*.py``) an AST imports, however spelled."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "selftests" if node.level else node.module or ""
            module = node.module if not node.level else ".".join(filter(None, ["selftests", node.module]))
            names = [module or ""] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(name for name in names if re.fullmatch(r"selftests\.test_\w+", name))
    return found


def test_no_test_module_imports_another():
    """A test module's helpers are its own: what two test files share lives in a module of selftests
    that is not a test (gradekit, warm, attacks, jobs...), so that no test file runs, or breaks,
    with another's module."""
    crossing = {}
    for path in sorted((ROOT / "selftests").glob("test_*.py")):
        imported = _test_modules_imported(ast.parse(path.read_text(encoding="utf-8"))) - {f"selftests.{path.stem}"}
        if imported:
            crossing[path.name] = sorted(imported)
    assert not crossing, f"test modules importing other test modules: {crossing}"


def test_the_check_on_test_modules_sees_every_spelling():
    spellings = ["from selftests.test_trust import MODES", "import selftests.test_trust",
                 "from selftests import test_trust", "from .test_trust import MODES", "from . import test_trust"]
    assert all(_test_modules_imported(ast.parse(code)) == {"selftests.test_trust"} for code in spellings)
    assert _test_modules_imported(ast.parse("from selftests.gradekit import ROOT\nimport selftests.warm")) == set()


# The project is a value: a module of the harness grades the tree it is given (a ``Layout``, or its
# root), never the one it was imported from. Only the entry points that choose which project a run
# grades read the global one (``layout.ROOT``, ``layout.LAYOUT``): the command line, and ``api.settle``
# where it is given no root.
PROJECT_CHOOSERS = {"kata_harness.layout": None, "kata_harness.api": {"settle"}, "kata_harness.commands": None}
# Still reading it until their rooms are reworked; each entry goes once its room takes the project
# as a value (the test below fails on an entry that no longer reads it, so that the list only shrinks).
STILL_READING_THE_GLOBAL: tuple = ()
GLOBAL_PROJECT = {"ROOT", "LAYOUT"}
IMPORT = "<import>"


def _global_project_reads(tree: ast.Module, package: str) -> list[tuple[int, str | None]]:
    """(line, enclosing top-level function or class, None at module level, ``IMPORT`` for a
    module-level import) of every place an AST takes the global project: ``ROOT`` or ``LAYOUT``
    imported from the layout module (however spelled), used by those names, or read as an
    attribute of it (``layout.LAYOUT``)."""
    owners: dict[int, str] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for inner in ast.walk(node):
                owners[id(inner)] = node.name
    imported: set[str] = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if _imported_module(node, package) == "kata_harness.layout":
                for alias in node.names:
                    if alias.name in GLOBAL_PROJECT:
                        imported.add(alias.asname or alias.name)
                        found.append((node.lineno, owners.get(id(node), IMPORT)))
        elif isinstance(node, ast.Attribute) and node.attr in GLOBAL_PROJECT:
            found.append((node.lineno, owners.get(id(node))))
    found += [(node.lineno, owners.get(id(node))) for node in ast.walk(tree)
              if isinstance(node, ast.Name) and node.id in imported]
    return sorted(set(found), key=lambda place: place[0])


def _imported_module(node: ast.ImportFrom, package: str) -> str:
    """The dotted name of the module a ``from ... import`` in ``package`` imports from."""
    if not node.level:
        return node.module or ""
    base = package.split(".")
    return ".".join(base[:len(base) - node.level + 1] + ([node.module] if node.module else []))


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _in(name: str, rooms) -> str | None:
    """The entry of ``rooms`` (module or package names) that ``name`` falls under, if any."""
    return next((room for room in rooms if name == room or name.startswith(room + ".")), None)


def test_only_the_entry_points_read_the_global_project():
    """No module of the harness reads ``layout.ROOT`` or ``layout.LAYOUT`` but the command line,
    ``api.settle`` (the default when a run is given no root) and ``layout`` itself: everything else
    is given the project (no default argument of it, no constant made from it), so that a template
    copy, a release or an example folder grades as itself in the test process, on warm children."""
    reading, still = [], set()
    for name, path in _modules().items():
        reads = _global_project_reads(ast.parse(path.read_text(encoding="utf-8")), _package_of(name, path))
        chooser = _in(name, PROJECT_CHOOSERS)
        if chooser is not None:
            allowed = PROJECT_CHOOSERS[chooser]
            reads = [(line, owner) for line, owner in reads if allowed is not None and owner not in allowed | {IMPORT}]
        elif reads and (entry := _in(name, STILL_READING_THE_GLOBAL)) is not None:
            still.add(entry)
            continue
        reading += [f"{path.relative_to(ROOT)}:{line}" + (f" (in {owner})" if owner not in (None, IMPORT) else "")
                    for line, owner in reads]
    assert not reading, "the global project read outside its entry points (pass a Layout or root instead):\n" + \
        "\n".join(reading)
    stale = sorted(set(STILL_READING_THE_GLOBAL) - still)
    assert not stale, f"no longer reads the global project: remove from STILL_READING_THE_GLOBAL: {stale}"


def test_the_check_on_the_global_project_sees_every_spelling():
    package = "kata_harness.judging"
    reading = ["from ..layout import ROOT\nx = ROOT", "from kata_harness.layout import LAYOUT as here",
               "from .. import layout\nx = layout.LAYOUT.tests", "import kata_harness.layout\nkata_harness.layout.ROOT",
               "from ..layout import Layout, ROOT\ndef f(root=ROOT): pass"]
    assert all(_global_project_reads(ast.parse(code), package) for code in reading)
    given = ["from ..layout import Layout\ndef f(project: Layout): return project.tests",
             "from ..layout import Layout\nLayout.ANSWER_KEY", "ROOT = 1\nprint(ROOT)"]
    assert not any(_global_project_reads(ast.parse(code), package) for code in given)
    inside = _global_project_reads(ast.parse("from .layout import LAYOUT\ndef settle(root):\n    return LAYOUT\n"
                                             "HERE = LAYOUT.tests"), "kata_harness")
    assert inside == [(1, IMPORT), (3, "settle"), (4, None)]


def test_every_harness_package_is_installed():
    """A regular (not editable) install ships only the packages pyproject.toml lists: every folder of
    the harness with an ``__init__.py`` must be there, or an instructor's install misses a room."""
    import tomllib
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    present = {init.parent.relative_to(ROOT).as_posix().replace("/", ".") for init in (ROOT / "kata_harness").rglob("__init__.py")}
    assert present <= listed, f"missing from pyproject.toml's packages: {sorted(present - listed)}"
