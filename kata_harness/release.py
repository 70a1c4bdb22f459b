"""``grade.py release OUT_DIR``: the student template, without reference solutions.

It copies the stubs, the kata tests with the answer key, the curriculum, the harness, the
grading command, the project files and the GitHub Classroom workflow, adds what
``templates/student/`` holds (the student README, a .gitignore), writes the integrity
manifest, and then checks itself: its stubs must score 0 and the reference, copied into a
scratch copy's ``katas/``, full marks.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import answer_key, integrity
from .catalog import ROOT

COPIED_FILES = ("grade.py", "conftest.py", "pyproject.toml", ".github/workflows/classroom.yml")
COPIED_FOLDERS = ("katas", "tests", "kata_harness", "curriculum")
STUDENT_EXTRAS = ROOT / "templates" / "student"
_SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")


class ReleaseError(Exception):
    """A release that must not (or did not) happen; the message says why."""


def check_target(out: Path, force: bool) -> None:
    """Refuse targets that would touch the instructor's own files, and non-empty ones unless forced."""
    out = out.resolve()
    root = ROOT.resolve()
    if out == root or out in root.parents:
        raise ReleaseError(f"{out} holds this project itself; choose a folder outside it")
    protected = [root / name for name in ("katas", "reference", "tests", "kata_harness", "curriculum", "selftests",
                                          "templates", ".git")]
    if any(out == p or p in out.parents for p in protected):
        raise ReleaseError(f"{out} is inside this project's own files; choose another folder")
    if out == Path.home().resolve() or out == Path(out.anchor):
        raise ReleaseError(f"refusing to release into {out}")
    if out.exists() and not out.is_dir():
        raise ReleaseError(f"{out} exists and is not a folder")
    if out.exists() and any(out.iterdir()) and not force:
        raise ReleaseError(f"{out} is not empty; pass --force to replace its contents")


def release(out: Path, force: bool = False) -> list[str]:
    """Write the template into ``out`` and verify it; returns what the self-check found wrong."""
    check_target(out, force)
    key = answer_key.load()
    if key is None or key.stale_katas() or key.reference != answer_key.reference_digest():
        raise ReleaseError("the answer key is missing or stale: run `python grade.py freeze` first")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in COPIED_FILES:
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, out / name)
    for name in COPIED_FOLDERS:
        shutil.copytree(ROOT / name, out / name, ignore=_SKIPPED)
    if STUDENT_EXTRAS.is_dir():
        shutil.copytree(STUDENT_EXTRAS, out, dirs_exist_ok=True, ignore=_SKIPPED)
    integrity.write_manifest(out)
    return verify(out)


def _grade(root: Path, *args: str) -> dict:
    done = subprocess.run([sys.executable, str(root / "grade.py"), "--format", "json", *args],
                          capture_output=True, text=True, cwd=root, timeout=600)
    if done.returncode != 0:
        raise ReleaseError(f"grade.py failed in {root}: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout)


def verify(out: Path) -> list[str]:
    """The template's stubs score 0 against its answer key, and the reference scores 100 %."""
    problems = []
    if (out / "reference").exists():
        problems.append("the template contains reference/")
    fresh = _grade(out)
    if fresh["graded_against"] != "answer-key":
        problems.append(f"the template grades against {fresh['graded_against']}, not its answer key")
    if not fresh["integrity"]["ok"]:
        problems.append(f"the template fails its own integrity check: {fresh['integrity']['modified']}")
    if fresh["score"] != 0:
        problems.append(f"the template's stubs score {fresh['score']}/{fresh['max_score']}, not 0")
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "template"
        shutil.copytree(out, copy)
        for path in (ROOT / "reference").glob("*.py"):
            shutil.copy2(path, copy / "katas" / path.name)
        solved = _grade(copy)
        if solved["score"] != solved["max_score"]:
            failing = [f"{k['kata']}.{f['name']}" for k in solved["katas"] for f in k["functions"]
                       if f["status"] != "passed"]
            problems.append(f"the reference scores {solved['score']}/{solved['max_score']} in the template: {failing}")
    return problems
