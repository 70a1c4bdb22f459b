"""The self-tests' own pytest setup: fixtures/ and examples/ hold example katas and solutions, and
winlike/ a startup hook, not tests. Self-tests run whole grading sessions, so they get a longer
backstop than the kata tests' 60 s."""

import os
from pathlib import Path

import pytest

collect_ignore_glob = ["fixtures/*", "examples/*", "winlike/*"]

WINLIKE = Path(__file__).resolve().parent / "winlike"   # its sitecustomize.py removes the POSIX-only APIs


def pytest_collection_modifyitems(items):
    for item in items:
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(900))


@pytest.fixture(scope="session")
def winlike() -> dict:
    """The environment of a run with the POSIX-only APIs removed, as on Windows (unsandboxed:
    Windows has no bubblewrap)."""
    return {**os.environ, "PYTHONPATH": str(WINLIKE), "KATA_SANDBOX": "none"}
