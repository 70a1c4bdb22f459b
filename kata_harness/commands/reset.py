"""``grade.py reset SELECTOR``: put back the stub of a function or a whole kata, never losing work.

The learner's current file is first copied to ``.kata_backups/<kata>-<time>.py``, and the command
that copies it back is printed. A whole kata gets its stub file back; a single function gets the
stub's definition in place of its own, leaving the rest of the file as it is. The pristine stubs
come from the answer key. Reset writes only the learner's own files in ``katas/``: it takes no
``--solutions`` (``reference/`` or a classmate's folder is never overwritten with a stub), and a
kata file that is a link, or not a regular file, is refused.
"""

from __future__ import annotations

import ast
import os
import shlex
import shutil
import time
from pathlib import Path

from ..api import select
from ..content.curriculum import whole_kata
from ..content.messages import default_language, message
from ..judging import answer_key
from ..layout import LAYOUT, Layout
from . import UsageError


class ResetError(Exception):
    """The reset cannot be done safely; nothing was changed."""


def backup(path: Path, backups: Path) -> Path:
    """Copy ``path`` to a new timestamped file in ``backups`` (a project's .kata_backups/) and return it."""
    backups.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = backups / f"{path.stem}-{stamp}.py"
    number = 1
    while target.exists():
        target = backups / f"{path.stem}-{stamp}-{number}.py"
        number += 1
    shutil.copy2(path, target)
    return target


def restore_command(saved: Path, target: Path, *, windows: bool = os.name == "nt") -> str:
    """The command that copies the backup ``saved`` back over ``target``, in the learner's shell
    (PowerShell on Windows, bash/zsh elsewhere), with absolute paths, quoted."""
    if windows:
        def quoted(path: Path) -> str:
            return "'" + str(path).replace("'", "''") + "'"
        return f"Copy-Item -LiteralPath {quoted(saved)} -Destination {quoted(target)}"
    return f"cp {shlex.quote(str(saved))} {shlex.quote(str(target))}"


def _own_file(path: Path, katas: Path) -> None:
    """Refuse a kata file that reset could not write safely: a link (the stub would land wherever it
    points, in reference/ for one) or something that is not a regular file, or a path outside katas/."""
    if path.is_symlink() or (path.exists() and not path.is_file()) or path.parent.resolve() != katas.resolve():
        raise ResetError(f"{path} is not a plain file of {katas}; reset writes only there")


def _definitions(source: str, where: str) -> dict:
    """{function name: (first line, last line)} of the top-level functions, decorators included."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        raise ResetError(f"{where} has a syntax error (line {error.lineno}); reset the whole kata instead") from error
    return {node.name: (min([node.lineno] + [d.lineno for d in node.decorator_list]), node.end_lineno)
            for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def restore_functions(current: str, stub: str, names: list[str], where: str) -> str:
    """``current`` with the definitions of ``names`` replaced by (or, if missing, appended from) the stub's."""
    stub_lines = stub.splitlines(keepends=True)
    stub_defs = _definitions(stub, "the stub")
    lines = current.splitlines(keepends=True)
    for name in names:
        first, last = stub_defs[name]
        replacement = stub_lines[first - 1:last]
        mine = _definitions("".join(lines), where).get(name)
        if mine is None:
            if lines and not lines[-1].endswith("\n"):
                lines[-1] += "\n"
            lines += ["\n", "\n"] + replacement
        else:
            lines[mine[0] - 1:mine[1]] = replacement
    return "".join(lines)


class NoStub(ResetError):
    """The answer key holds no pristine stub of ``kata`` (it was frozen before that kata existed)."""

    def __init__(self, kata: str):
        super().__init__(kata)
        self.kata = kata


def reset_selection(functions: list, *, whole: bool, solutions: Path, stubs: dict, backups: Path):
    """``grade.py reset``: restore the stubs of ``functions`` (FunctionInfo) in ``solutions``, kata
    by kata: the whole file when ``whole`` (the selector named a kata) or when the learner's file is
    gone, else only those functions' definitions, the learner's file first copied into
    ``backups``. Yields (backup of the learner's file or None, the file written, what was restored)
    after each kata's file is written; raises ``NoStub`` or ``ResetError`` before touching a kata's
    file (a link, or a file that is not a regular one)."""
    for kata in dict.fromkeys(f.kata for f in functions):
        if kata not in stubs:
            raise NoStub(kata)
        path = solutions / f"{kata}.py"
        _own_file(path, solutions)
        names = [f.name for f in functions if f.kata == kata]
        current = path.read_text(encoding="utf-8") if path.exists() else None
        restored = stubs[kata] if whole or current is None else \
            restore_functions(current, stubs[kata], names, str(path))
        saved = backup(path, backups) if current is not None else None
        path.write_text(restored, encoding="utf-8")
        yield saved, path, kata if whole else ", ".join(f"{kata}.{n}" for n in names)


def run(args, *, started: float) -> int:
    """``grade.py reset SELECTOR``: ``reset`` of this project."""
    return reset(args, LAYOUT)


def reset(args, project: Layout) -> int:
    """``grade.py reset SELECTOR`` of ``project``: restore the stub of a function or a whole kata
    in its katas/ (after a backup into its .kata_backups/), and say how to undo it (the backup's
    path relative to the working folder)."""
    lang = args.lang or default_language()
    if args.solutions is not None:
        raise UsageError(message("reset.only_katas", lang, folder=args.solutions))
    katas, functions = select([args.selector], lang, project)
    key = answer_key.load(project.answer_key)
    restoring = reset_selection(functions, whole=whole_kata(args.selector, katas) is not None,
                                solutions=project.katas, stubs=key.stubs if key else {}, backups=project.backups)
    try:
        for saved, path, what in restoring:
            if saved is not None:
                print(message("reset.backup", lang, path=os.path.relpath(saved),
                              command=restore_command(saved.resolve(), path.resolve())))
            print(message("reset.done", lang, what=what))
    except NoStub as missing:
        raise UsageError(message("reset.no_stub", lang, kata=missing.kata)) from None
    except ResetError as error:
        raise UsageError(message("reset.refused", lang, error=str(error))) from None
    return 0
