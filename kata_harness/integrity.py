"""The integrity manifest: SHA-256 hashes of every file that decides a grade.

``grade.py release`` writes ``grading-manifest.json`` into the student template. When it is
present, grade.py compares the grading files with it and names every changed, added or
removed one; official results award nothing while they differ. Without a manifest (the
instructor's own repository) there is nothing to compare with.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from .catalog import ROOT

MANIFEST_NAME = "grading-manifest.json"
# Folders whose every file grades, and single files that grade (or would, if someone added them).
GRADING_FOLDERS = ("tests", "kata_harness", "curriculum")
GRADING_FILES = ("grade.py", "conftest.py", "pyproject.toml", "pytest.ini", "tox.ini", "setup.cfg",
                 "katas/conftest.py", "katas/pytest.ini", ".github/workflows/classroom.yml")


@dataclass
class Integrity:
    """The outcome of comparing the grading files with the manifest."""
    ok: bool = True
    modified: list = field(default_factory=list)   # "tests/test_k01_creation.py (changed)", ...
    checked: bool = False                          # False when there is no manifest to compare with

    def as_json(self) -> dict:
        """The ``integrity`` object of grade.py's JSON."""
        return {"ok": self.ok, "modified": [entry.split(" (")[0] for entry in self.modified]}


def grading_files(root: Path = ROOT) -> dict:
    """{relative path: sha256} of every grading file present under ``root``."""
    found = {}
    for folder in GRADING_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                found[path.relative_to(root).as_posix()] = _sha256(path)
    for name in GRADING_FILES:
        if (root / name).is_file():
            found[name] = _sha256(root / name)
    return found


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_manifest(root: Path) -> Path:
    """Write the manifest of the grading files under ``root``; returns its path."""
    path = root / MANIFEST_NAME
    path.write_text(json.dumps({"sha256": grading_files(root)}, indent=1, sort_keys=True) + "\n")
    return path


def check(root: Path = ROOT) -> Integrity:
    """Compare the grading files under ``root`` with its manifest."""
    path = root / MANIFEST_NAME
    if not path.exists():
        return Integrity()
    try:
        recorded = json.loads(path.read_text())["sha256"]
    except (OSError, ValueError, KeyError, TypeError):
        return Integrity(False, [f"{MANIFEST_NAME} (unreadable)"], True)
    present = grading_files(root)
    modified = [f"{name} (changed)" for name in recorded if name in present and present[name] != recorded[name]]
    modified += [f"{name} (removed)" for name in recorded if name not in present]
    modified += [f"{name} (added)" for name in present if name not in recorded]
    return Integrity(not modified, sorted(modified), True)
