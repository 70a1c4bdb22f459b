"""Codio: what goes into a Codio assignment's ``.guides/secure/`` folder, which students never get
(``grade.py release --codio DIR``).

The folder holds ``codio_grade.py`` from ``templates/codio/`` and the pins beside the project with
its reference, its ``codio.json`` (the feedback's language) and, given the instructor's secret,
``kata_secret``, which the script passes to grade.py as ``--secret-file``. It checks itself on a
simulated Codio workspace.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ..layout import Layout
from .common import (
    SECRET_FILE,
    SKIPPED,
    check_hidden_key,
    check_outside_project,
    check_reference,
    copy_entries,
    grader_entries,
    process_environment,
    release_folder,
)


def extras(project: Layout) -> Path:
    """Codio's grading script (``templates/codio/``), at the folder's root."""
    return project.templates / "codio"


def release(project: Layout, folder: Path, *, force: bool = False, lang: str = "en",
            secret: str | None = None) -> list[str]:
    """Write the content of a Codio assignment's ``.guides/secure/`` folder for ``project`` into
    ``folder`` and verify it; returns what the check found wrong."""
    folder = folder.resolve()
    check_outside_project(project, folder, "the Codio folder")
    check_reference(project, "the Codio grader")
    check_hidden_key(project, secret, needed=False)
    release_folder(project, folder, force)
    copy_entries(grader_entries(project, extras(project)), folder)
    (folder / "codio.json").write_text(json.dumps({"lang": lang}) + "\n")
    if secret:
        (folder / SECRET_FILE).write_text(secret + "\n")
    return verify(project, folder)


def verify(project: Layout, folder: Path) -> list[str]:
    """Run the folder's codio_grade.py as a Codio code test would, on a simulated workspace whose
    katas are ``project``'s reference: it must report 100 percent."""
    with tempfile.TemporaryDirectory() as scratch:
        workspace = Path(scratch) / "workspace"
        shutil.copytree(folder, workspace / ".guides" / "secure", ignore=SKIPPED)
        shutil.copytree(project.reference, workspace / "katas", ignore=SKIPPED)
        done = subprocess.run([sys.executable, str(workspace / ".guides" / "secure" / "codio_grade.py")],
                              cwd=workspace, capture_output=True, text=True, timeout=1200,
                              env={**{k: v for k, v in process_environment().items() if not k.startswith("CODIO_")},
                                   # The reference is trusted: this check may run where bubblewrap cannot.
                                   "KATA_CODIO_CHECK": "trusted-reference"})
    reported = [line for line in done.stdout.splitlines() if line.startswith("codio: points=")]
    if done.returncode != 0 or reported != ["codio: points=100"]:
        return [f"the Codio grader reports {reported or 'nothing'} for the reference (exit status {done.returncode}): "
                f"{(done.stdout + done.stderr).strip()[-500:]}"]
    return []
