"""What every platform's release shares: the project's files a template or a grader copies, the
pins every grader installs from, the refusals that keep a release out of the project's own files,
and the grading a release checks itself with.

Every function takes the project it releases (a ``Layout``) as a value: the project of this
harness on the command line, a copy of it in a test.

Every grader gets ``pins.txt`` (``templates/pins.txt``: the one list of the versions every platform
installs) beside its scripts, which install from it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from ..judging import hidden, integrity
from ..layout import Layout

# What a student template holds of the project (besides what ``templates/student/`` adds).
TEMPLATE_FILES = ("grade.py", "conftest.py", "pyproject.toml")
TEMPLATE_FOLDERS = ("katas", "tests", "kata_harness", "curriculum", "docs")
# What an instructor-side grader grades with: the project as the template has it, plus the reference.
GRADER_FILES = ("grade.py", "conftest.py", "pyproject.toml", "README.md")
GRADER_FOLDERS = TEMPLATE_FOLDERS + ("reference",)
SECRET_FILE = "kata_secret"    # in the Gradescope zip and the Codio folder: the instructor's secret, for --secret-file
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
# The project's own files, which no release may write into.
_PROTECTED = ("katas", "reference", "tests", "kata_harness", "curriculum", "selftests", "templates", ".git")


class ReleaseError(Exception):
    """A release that must not (or did not) happen; the message says why."""


def pins(project: Layout) -> Path:
    """The versions every platform installs (``templates/pins.txt``), copied beside each grader's scripts."""
    return project.templates / "pins.txt"


def check_target(project: Layout, out: Path, force: bool) -> None:
    """Refuse targets that would touch the instructor's own files, and non-empty ones unless forced."""
    out = out.resolve()
    root = project.root.resolve()
    if out == root or out in root.parents:
        raise ReleaseError(f"{out} holds this project itself; choose a folder outside it")
    protected = [root / name for name in _PROTECTED]
    if any(out == p or p in out.parents for p in protected):
        raise ReleaseError(f"{out} is inside this project's own files; choose another folder")
    if out == Path.home().resolve() or out == Path(out.anchor):
        raise ReleaseError(f"refusing to release into {out}")
    if out.exists() and not out.is_dir():
        raise ReleaseError(f"{out} exists and is not a folder")
    if out.exists() and any(out.iterdir()) and not force:
        raise ReleaseError(f"{out} is not empty; pass --force to replace its contents")


def check_outside_project(project: Layout, path: Path, what: str) -> None:
    """Refuse a grader written into the project's own files."""
    root = project.root.resolve()
    if any(path.is_relative_to(root / name) for name in GRADER_FOLDERS + ("selftests", "templates", ".git")):
        raise ReleaseError(f"{path} is inside this project's own files; choose another place for {what}")


def check_hidden_key(project: Layout, secret: str | None, *, needed: bool) -> None:
    """Refuse a hidden key that belongs to another answer key or that ``secret`` does not open,
    a hidden key without its secret, and (``needed``) a secret without a hidden key."""
    exists = project.hidden_key.exists()
    if exists and secret is None:
        raise ReleaseError(f"{Layout.HIDDEN_KEY} exists: release with the secret it was frozen with "
                           f"(KATA_SECRET=... or --secret-file), which official grading needs")
    if secret is not None and not exists and needed:
        raise ReleaseError(f"a secret was given but there is no {Layout.HIDDEN_KEY}: run "
                           f"`KATA_SECRET=... python grade.py freeze` first")
    if exists:
        assert secret is not None   # refused above otherwise
        try:
            hidden.decrypt(secret, project.root)
        except hidden.HiddenKeyError as problem:
            why = "the secret does not open it" if problem.key == "error.secret_wrong" else "it is out of date"
            raise ReleaseError(f"{Layout.HIDDEN_KEY}: {why}; run `KATA_SECRET=... python grade.py freeze`") \
                from None


def check_reference(project: Layout, grader: str) -> None:
    """Refuse an instructor-side grader where the project has no reference to grade with."""
    if not project.reference.is_dir():
        raise ReleaseError(f"there is no reference/ folder: {grader} grades with it")


def release_folder(project: Layout, out: Path, force: bool) -> None:
    """An empty ``out`` (replaced only with ``force``), outside the project's own files."""
    check_target(project, out, force)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)


def secret_in(folder: Path, secret: str | None) -> bool:
    """Whether any file under ``folder`` holds ``secret``."""
    if not secret:
        return False
    return any(secret.encode() in path.read_bytes() for path in folder.rglob("*") if path.is_file())


def process_environment(secret: str | None = None) -> dict:
    """This process's environment with ``KATA_SECRET`` set to ``secret``, or without it (practice)."""
    environment = {k: v for k, v in os.environ.items() if k != integrity.SECRET_VARIABLE}
    return {**environment, integrity.SECRET_VARIABLE: secret} if secret else environment


def grade(root: Path, *args: str, secret: str | None = None) -> dict:
    """The JSON document ``root``'s own grade.py prints for ``args``, run in a fresh process there
    (a release checks what it wrote as its users will run it)."""
    done = subprocess.run([sys.executable, str(root / "grade.py"), "--format", "json", *args],
                          capture_output=True, text=True, cwd=root, timeout=600, env=process_environment(secret))
    if done.returncode != 0:
        raise ReleaseError(f"grade.py failed in {root}: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout)


def tree_entries(root: Path, files: tuple, folders: tuple) -> dict:
    """{relative name: file} of ``files`` and every file in ``folders`` under ``root`` (no bytecode)."""
    entries = {name: root / name for name in files}
    for folder in folders:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                entries[path.relative_to(root).as_posix()] = path
    return entries


def grader_entries(project: Layout, scripts: Path) -> dict:
    """{name: file} of an instructor-side grader: the platform's ``scripts`` at the root, the pins
    beside them, then the project with its reference."""
    entries = {path.name: path for path in sorted(scripts.iterdir()) if path.is_file()}
    entries["pins.txt"] = pins(project)
    entries.update(tree_entries(project.root, GRADER_FILES, GRADER_FOLDERS))
    return entries


def copy_entries(entries: dict, folder: Path) -> None:
    """Copy each of ``entries`` ({relative name: file}) to its name under ``folder``."""
    for name, path in entries.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, folder / name)
