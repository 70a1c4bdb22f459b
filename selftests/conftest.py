"""The self-tests' own pytest setup: fixtures/ and examples/ hold example katas and solutions, and
winlike/ a startup hook, not tests. Self-tests run whole grading sessions, so they get a longer
backstop than the kata tests' 60 s."""

import os
from pathlib import Path

import pytest

from selftests import warm

collect_ignore_glob = ["fixtures/*", "examples/*", "winlike/*"]

WINLIKE = Path(__file__).resolve().parent / "winlike"   # its sitecustomize.py removes the POSIX-only APIs


def pytest_collection_modifyitems(items):
    for item in items:
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(900))


@pytest.fixture(scope="session", autouse=True)
def _stop_warm_children():
    """The grading children ``warm.grade_here`` keeps for a worker end with its test run."""
    yield
    warm.stop_all()


@pytest.fixture(scope="session")
def winlike() -> dict:
    """The environment of a run with the POSIX-only APIs removed, as on Windows (unsandboxed:
    Windows has no bubblewrap)."""
    return {**os.environ, "PYTHONPATH": str(WINLIKE), "KATA_SANDBOX": "none"}


def pytest_xdist_make_scheduler(config, log):
    """Under ``-n``, give each worker a run of consecutive tests and let a worker that runs out take
    over half of another's (xdist's worksteal), unless the command line names a ``--dist``. xdist's
    default deals the tests out one by one, so both workers start every module at once: each then
    builds the module's fixtures (a project copy, a release that grades twice to check itself), or
    one waits idle while the other builds what ``built_once`` shares."""
    if any(arg.startswith("--dist") for arg in config.invocation_params.args):
        return None
    from xdist.scheduler import WorkStealingScheduling  # this hook is only called where xdist runs

    return WorkStealingScheduling(config, log)
