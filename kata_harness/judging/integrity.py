"""The integrity manifest: SHA-256 hashes of every file that decides a grade.

``grade.py release`` writes ``grading-manifest.json`` into the student template. When it is
present, grade.py compares the grading files with it and names every changed, added or
removed one; official results award nothing while they differ. Without a manifest (the
instructor's own repository) there is nothing to compare with.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..files import read_regular
from ..layout import Layout

# Every file outside the learner's katas/ that Python could import or run, or that grading reads.
GRADING_SUFFIXES = (".py", ".pyc", ".pyo", ".pth", ".so", ".pyd", ".dll", ".dylib", ".toml", ".ini", ".cfg",
                    ".json", ".dat", ".yml", ".yaml")
LEARNER_FILES = ("katas",)                      # the learner's own files (its config files do count)
# .vscode: the editor's own settings (a devcontainer or Codespaces may write them); grading never reads them.
SKIPPED_FOLDERS = (".git", ".kata_backups", ".pytest_cache", ".mypy_cache", ".ruff_cache", "node_modules", ".vscode")
OUTPUTS = ("gradebook.csv", "gradebook.json", Layout.MANIFEST)
WALK_LIMIT = 20_000                             # files: a larger tree is not a kata repository
SECRET_VARIABLE = "KATA_SECRET"


@dataclass
class Integrity:
    """The outcome of comparing the grading files with the manifest."""
    ok: bool = True
    modified: list = field(default_factory=list)   # "tests/test_k01_creation.py (changed)", ...
    checked: bool = False                          # False when there is no manifest to compare with

    def as_json(self) -> dict:
        """The ``integrity`` object of grade.py's JSON."""
        return {"ok": self.ok, "modified": [entry.split(" (")[0] for entry in self.modified]}


def _counts(relative: str) -> bool:
    """Whether a file at ``relative`` (POSIX path under the root) decides or could change a grade."""
    parts = relative.split("/")
    if len(parts) == 2 and parts[0] in LEARNER_FILES and parts[1].endswith(".py") and parts[1] != "conftest.py":
        return False
    if relative in OUTPUTS or relative.endswith(".cache.json"):
        return False
    return "__pycache__" in parts or relative.endswith(GRADING_SUFFIXES)


def _ordinary_cache(path: Path) -> bool:
    """Whether ``path`` is bytecode that Python itself wrote for the source beside it: a
    timestamp-checked ``.pyc`` whose recorded source time and size match the current ``.py``.
    Those appear whenever a learner runs pytest; anything else in ``__pycache__`` (a hash-based or
    unchecked ``.pyc``, one without its source) is a grading file like any other."""
    if path.parent.name != "__pycache__" or path.suffix != ".pyc":
        return False
    source = path.parent.parent / (path.name.split(".", 1)[0] + ".py")
    try:
        header = read_regular(path, 1 << 24)[:16]
        info = source.stat()
    except OSError:
        return False
    flags, mtime, size = (int.from_bytes(header[i:i + 4], "little") for i in (4, 8, 12))
    return len(header) == 16 and flags == 0 and mtime == int(info.st_mtime) & 0xFFFFFFFF \
        and size == info.st_size & 0xFFFFFFFF


WALK_DEPTH = 32                                 # folders deep: a kata repository is a few levels deep


def grading_files(root: Path) -> dict:
    """{relative path: sha256} of every grading file under ``root``, ``__pycache__`` included (never
    following links: a link or an oversized file is recorded as such, so it never matches). The walk
    is iterative and bounded (``WALK_DEPTH`` folders deep, ``WALK_LIMIT`` files), and a folder that
    cannot be listed is recorded as unreadable: a student's repository may hold a folder nested a
    thousand levels deep, or one nobody may open."""
    found: dict[str, str] = {}
    folders = [(Path(root), 0)]
    while folders:
        here, depth = folders.pop()
        try:
            entries = sorted(os.scandir(here), key=lambda entry: entry.name)
        except OSError as error:
            found[here.relative_to(root).as_posix() + "/"] = f"unreadable: {error.strerror or error}"
            continue
        subfolders = [here / entry.name for entry in entries if _walked_into(here, entry)]
        for entry in entries:
            relative = (here / entry.name).relative_to(root).as_posix()
            if _is_folder(entry) or not _counts(relative) or _ordinary_cache(here / entry.name):
                continue
            found[relative] = _file_digest(here / entry.name)
            if len(found) > WALK_LIMIT:
                found["(too many files)"] = ""
                return found
        if subfolders and depth >= WALK_DEPTH:
            found[here.relative_to(root).as_posix() + "/..."] = f"deeper than {WALK_DEPTH} folders (not read)"
            continue
        folders.extend((folder, depth + 1) for folder in reversed(subfolders))
    return dict(sorted(found.items()))


def _is_folder(entry: os.DirEntry) -> bool:
    """Whether a folder entry is a real folder (a link to one is not)."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _walked_into(here: Path, entry: os.DirEntry) -> bool:
    """Whether the walk goes into this folder: not a cache or a repository's own, not a virtual environment."""
    return _is_folder(entry) and entry.name not in SKIPPED_FOLDERS and not (here / entry.name / "pyvenv.cfg").exists()


def _file_digest(path: Path) -> str:
    """The SHA-256 of a regular file, or why it could not be read (which matches no manifest)."""
    try:
        return hashlib.sha256(read_regular(path)).hexdigest()
    except OSError as error:
        return f"unreadable: {error}"


def _signature(digests: dict, secret: str) -> str:
    canonical = json.dumps(digests, sort_keys=True).encode()
    return hmac.new(secret.encode(), canonical, hashlib.sha256).hexdigest()


def write_manifest(root: Path, secret: str | None = None) -> Path:
    """Write the manifest of the grading files under ``root``, signed with ``secret`` (default: the
    ``KATA_SECRET`` variable) when there is one; returns its path."""
    path = Layout(root).manifest
    digests = grading_files(root)
    manifest: dict[str, dict | str] = {"sha256": digests}
    secret = secret or os.environ.get(SECRET_VARIABLE)
    if secret:   # only the instructor's secret can sign it again after an edit
        manifest["hmac"] = _signature(digests, secret)
    path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return path


def check(root: Path, secret: str | None = None) -> Integrity:
    """Compare the grading files under ``root`` with its manifest (whose signature is checked
    with ``secret``, default the ``KATA_SECRET`` variable, when there is one)."""
    path = Layout(root).manifest
    if not path.exists():
        return Integrity()
    try:
        manifest = json.loads(read_regular(path))
        recorded = manifest["sha256"]
        if not isinstance(recorded, dict):
            raise TypeError
    except (OSError, ValueError, KeyError, TypeError):
        return Integrity(False, [f"{Layout.MANIFEST} (unreadable)"], True)
    secret = secret or os.environ.get(SECRET_VARIABLE)
    if secret and not hmac.compare_digest(str(manifest.get("hmac", "")), _signature(recorded, secret)):
        return Integrity(False, [f"{Layout.MANIFEST} (not signed with the instructor's secret)"], True)
    present = grading_files(root)
    modified = [f"{name} (changed)" for name in recorded if name in present and present[name] != recorded[name]]
    modified += [f"{name} (removed)" for name in recorded if name not in present]
    modified += [f"{name} (added)" for name in present if name not in recorded]
    return Integrity(not modified, sorted(modified), True)
