"""What the attacks on grade.py share (``test_trust``, ``test_isolation``): the sandbox modes each
attack runs in, the grading options it is graded with, and a marker to find the processes it left.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from kata_harness.isolation import sandbox
from selftests.warm import grade_here

MODES = ["bubblewrap", "none"] if sandbox.available() else ["none"]
MARKER = "kata-orphan-marker"


def marker(tmp_path: Path) -> str:
    """A marker of this test alone: tests running side by side (pytest -n) must not see each other's processes."""
    return f"{MARKER}-{tmp_path.name}"


def grading(solutions: Path, *args: str, mode: str = "none") -> tuple[list[str], dict]:
    """The grading options every attack is graded with (``--solutions`` and its katas, JSON, a 3 s
    limit per function, a 150 s deadline), and the environment of ``mode``."""
    options = ["--solutions", str(solutions), "--format", "json", "--timeout", "3", "--deadline", "150", *args]
    return options, {"KATA_SANDBOX": "auto" if mode == "bubblewrap" else "none"}


def graded_here(solutions: Path, *args: str, mode: str = "none", env: dict | None = None) -> subprocess.CompletedProcess:
    """The same grading in this process, on the kept children (``warm.grade_here``): for attacks on
    the channel and the judge, which a process of grade.py of its own adds nothing to."""
    options, environment = grading(solutions, *args, mode=mode)
    return grade_here(*options, env={**environment, **(env or {})})


def marked_processes(mark: str) -> list[int]:
    """The processes whose command line holds ``mark`` (what an attack left running)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if mark.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                pass
    return found
