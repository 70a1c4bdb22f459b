"""Classroom 50: the assignment's template repository and its autograder
(``grade.py release --classroom50 OUT_DIR``).

``release`` writes ``OUT_DIR/template/`` (the student template without the practice workflow, whose
place Classroom 50's own takes, and without a manifest, since the autograder grades with its own
copy of the grading files) and ``OUT_DIR/autograder/`` (what goes to
``CLASSROOM/autograders/ASSIGNMENT/`` in the Classroom 50 repository, which publishes it on GitHub
Pages: ``autograder.py`` from ``templates/classroom50/`` and the pins beside the template's grading
files; no reference, hidden key or secret; at most 10 MB packed). It checks itself by running the
autograder as Classroom 50's runner does, on the reference.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from ..content.curriculum import load_curriculum
from ..layout import Layout
from . import student
from .common import copy_entries, pins, process_environment, release_folder, secret_in, tree_entries

# What the autograder grades with, taken from the released template: no reference, no hidden key.
FILES = ("grade.py",)
FOLDERS = ("katas", "tests", "kata_harness", "curriculum")
PACKED_LIMIT = 10 * 1024 * 1024   # bytes: Classroom 50's runner fetches no larger bundle


def extras(project: Layout) -> Path:
    """Classroom 50's autograder script (``templates/classroom50/``), at the bundle's root."""
    return project.templates / "classroom50"


def packed_size(folder: Path) -> int:
    """The size of ``folder`` as Classroom 50 publishes it: one .tar.gz (``tar -czf``)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        archive.add(folder, arcname="assignment")
    return len(buffer.getvalue())


def release(project: Layout, out: Path, *, force: bool = False, secret: str | None = None,
            max_hint_level: int | None = None, lang: str = "en") -> list[str]:
    """Write ``out/template`` and ``out/autograder`` of ``project`` for Classroom 50 and verify both;
    returns what the checks found wrong. ``lang``: the language of the learner's report."""
    release_folder(project, out, force)
    problems = student.release(project, out / "template", secret=secret, max_hint_level=max_hint_level,
                               for_classroom50=True)
    if problems:
        return problems
    bundle = out / "autograder"
    bundle.mkdir()
    entries = {path.name: path for path in sorted(extras(project).iterdir()) if path.is_file()}
    entries["pins.txt"] = pins(project)   # autograder.py installs from it
    entries.update(tree_entries(out / "template", FILES, FOLDERS))
    entries.pop(Layout.HIDDEN_KEY, None)   # hidden checks are for the instructor's side
    copy_entries(entries, bundle)
    (bundle / "classroom50.json").write_text(json.dumps({"lang": lang}) + "\n")
    return verify(project, out, secret)


def runner_environment(checkout: Path, bundle: Path) -> dict:
    """The environment Classroom 50's runner gives autograder.py for a submission of ``checkout``
    (``runner.py``: its identity variables, ``CLASSROOM50_BUNDLE_DIR``), without the secret."""
    repository = "katas-org/katas-practice-student"
    commit = f"https://github.com/{repository}/commit/0123456789abcdef0123456789abcdef01234567"
    return {**process_environment(), "CLASSROOM": "katas", "ASSIGNMENT": "practice", "SUBMISSION_TAG":
            "submit/2026-09-01T12-00-00Z-0123456", "PAGES_BASE_URL": "https://katas-org.github.io/classroom50",
            "GITHUB_REPOSITORY": repository, "GITHUB_WORKSPACE": str(checkout), "USERNAME": "student",
            "OWNER": "student", "ASSIGNMENT_TYPE": "individual", "COMMIT_URL": commit, "REVIEW_URL": commit,
            "RELEASE_URL": f"https://github.com/{repository}/releases/tag/submit%2F2026-09-01T12-00-00Z-0123456",
            "CLASSROOM50_BUNDLE_DIR": str(bundle)}


def verify(project: Layout, out: Path, secret: str | None = None) -> list[str]:
    """The autograder holds no reference, hidden key or secret, packs within Classroom 50's limit,
    and, run as Classroom 50's runner runs it on a checkout of the template holding ``project``'s
    reference, exits 0 with a result.json giving full marks, one test per function."""
    bundle, problems = out / "autograder", []
    if (bundle / "reference").exists() or Layout(bundle).hidden_key.exists() or secret_in(bundle, secret):
        problems.append("the Classroom 50 autograder holds the reference, the hidden key or the secret")
    if (out / "template" / student.PRACTICE_WORKFLOW).exists() or secret_in(out / "template", secret):
        problems.append("the Classroom 50 template holds the practice workflow or the secret")
    if packed_size(bundle) > PACKED_LIMIT:
        problems.append(f"the Classroom 50 autograder packs to {packed_size(bundle)} bytes, more than "
                        f"{PACKED_LIMIT}")
    with tempfile.TemporaryDirectory() as scratch:
        runtime, checkout = Path(scratch) / "runtime" / "practice", Path(scratch) / "checkout"
        shutil.copytree(bundle, runtime)
        shutil.copytree(out / "template", checkout)
        for path in project.reference.glob("k*.py"):
            shutil.copy2(path, checkout / "katas" / path.name)
        done = subprocess.run([sys.executable, str(runtime / "autograder.py")], cwd=checkout, capture_output=True,
                              text=True, timeout=1200, env=runner_environment(checkout, runtime))
        try:
            result = json.loads((checkout / "result.json").read_text(encoding="utf-8"))
            earned, possible, tests = result["score"], result["max-score"], result["tests"]
        except (OSError, ValueError, KeyError, TypeError) as error:
            return problems + [f"the Classroom 50 autograder wrote no readable result.json ({error}): "
                               f"{done.stderr.strip()[-500:]}"]
        functions = sum(len(kata.functions) for kata in load_curriculum(project.curriculum))
        if done.returncode != 0 or result.get("schema") != "classroom50/result/v1" or len(tests) != functions \
                or not possible or earned != possible:
            problems.append(f"the reference scores {earned}/{possible} in the Classroom 50 autograder "
                            f"(exit status {done.returncode}, {len(tests)} tests for {functions} functions)")
    return problems
