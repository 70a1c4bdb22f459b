"""Gradescope: the autograder zip (``grade.py release --gradescope ZIP``) that Gradescope builds its
image from.

The zip holds ``setup.sh``, ``run_autograder`` and ``grade_submission.py`` (``templates/gradescope/``)
at its root, with the pins, beside the project with its reference (instructors upload it; students
never see it), its ``gradescope.json`` (when students see their results, the feedback's language)
and, given the instructor's secret, ``kata_secret``, which its scripts pass to grade.py as
``--secret-file``. It checks itself: run on a simulated tree, it gives the reference full marks.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from ..layout import Layout
from .common import (
    SECRET_FILE,
    ReleaseError,
    check_hidden_key,
    check_outside_project,
    check_reference,
    grader_entries,
    process_environment,
)

EXECUTABLE = ("setup.sh", "run_autograder")


def extras(project: Layout) -> Path:
    """Gradescope's scripts (``templates/gradescope/``), at the zip's root."""
    return project.templates / "gradescope"


def _add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    """One file, with Unix permissions that let Gradescope run the two scripts."""
    entry = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    entry.external_attr = (0o100755 if name in EXECUTABLE else 0o100644) << 16
    entry.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(entry, data)


def release(project: Layout, zip_path: Path, *, force: bool = False, visibility: str = "visible",
            lang: str = "en", secret: str | None = None) -> list[str]:
    """Write ``project``'s Gradescope autograder zip to ``zip_path`` and verify it; returns what the
    check found wrong.

    ``visibility`` and ``lang`` go into its ``gradescope.json``: when students see their results,
    and the language of the feedback. ``secret`` goes into ``kata_secret``: the autograder then
    grades the hidden cases too, against the reference."""
    zip_path = zip_path.resolve()
    if zip_path.suffix != ".zip":
        raise ReleaseError(f"{zip_path} does not end in .zip")
    check_outside_project(project, zip_path, "the zip")
    if zip_path.exists() and not (force and zip_path.is_file()):
        raise ReleaseError(f"{zip_path} exists; pass --force to replace it")
    check_reference(project, "the autograder")
    check_hidden_key(project, secret, needed=False)
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    partial = zip_path.with_name(zip_path.name + ".partial")
    with zipfile.ZipFile(partial, "w") as archive:
        for name, path in grader_entries(project, extras(project)).items():
            _add(archive, name, path.read_bytes())
        _add(archive, "gradescope.json", json.dumps({"visibility": visibility, "lang": lang}, indent=1).encode())
        if secret:
            _add(archive, SECRET_FILE, secret.encode() + b"\n")
    partial.replace(zip_path)
    return verify(project, zip_path)


def verify(project: Layout, zip_path: Path) -> list[str]:
    """Run the zip's grade_submission.py on a simulated /autograder whose submission is
    ``project``'s reference: it must write a results.json with full marks."""
    with tempfile.TemporaryDirectory() as scratch:
        tree = Path(scratch)
        with zipfile.ZipFile(zip_path) as archive:
            archive.extractall(tree / "source")
            names = set(archive.namelist())
        problems = [f"the zip has no {name} at its root" for name in EXECUTABLE if name not in names]
        shutil.copytree(project.reference, tree / "submission" / "katas",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        # Without KATA_SECRET in the environment: the zip's own kata_secret must do.
        subprocess.run([sys.executable, str(tree / "source" / "grade_submission.py")], cwd=tree, timeout=900,
                       env={**process_environment(), "AUTOGRADER_ROOT": str(tree)}, capture_output=True)
        try:
            results = json.loads((tree / "results" / "results.json").read_text(encoding="utf-8"))
            earned, possible = results["score"], sum(test["max_score"] for test in results["tests"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            return problems + [f"the autograder wrote no readable results.json ({error})"]
        if not possible or earned != possible:
            failing = [test["name"] for test in results["tests"] if test["score"] != test["max_score"]]
            problems.append(f"the reference scores {earned}/{possible} in the autograder: {failing}")
    return problems
