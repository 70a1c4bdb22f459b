"""A plain ``grade.py`` run grades a kata again when its zygote died under one of its jobs, as batch
does (issue: trust, round 4, item 5): something outside the job ended it, so it is never charged;
a kata whose own code kills its own process is charged, once.

The run is ``api.grade_submission``, grade.py's own, on the kept unsandboxed zygote (``warm``),
against the answer key; the zygote is killed from outside while a slow but correct kata imports.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from kata_harness import api
from kata_harness.judging import judge
from kata_harness.judging.verdicts import Status
from selftests import warm
from selftests.gradekit import ROOT

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a zygote forks only on Linux")]

KATA = "k01_creation"
REFERENCE = (ROOT / "reference" / f"{KATA}.py").read_text(encoding="utf-8")


def _run(folder: Path, prefix: str) -> api.GradingRun:
    """A plain run of ``KATA`` from ``folder``, whose file is the reference after ``prefix``."""
    folder.mkdir(exist_ok=True)
    (folder / f"{KATA}.py").write_text(prefix + REFERENCE, encoding="utf-8")
    return api.settle([KATA], solutions=folder, lang="en", against="answer-key", secret=None, sandboxed=False,
                      processes=warm.KEPT)


@pytest.fixture
def gradings(monkeypatch) -> list[judge.Grading]:
    """Every ``judge.grade`` a run makes, kept as it returns."""
    made: list[judge.Grading] = []
    real = judge.grade

    def grade_and_keep(*args, **kwargs):
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(judge, "grade", grade_and_keep)
    return made


def _statuses(result: api.Result) -> dict[str, Status]:
    return {name: verdict.status for name, verdict in result.grading.verdicts.items()}


def test_a_plain_run_grades_a_kata_again_when_its_zygote_dies_under_it(tmp_path, gradings):
    started = tmp_path / "started"   # the kata's job writes it once it runs (unsandboxed: it may)
    run = _run(tmp_path / "katas", f"import time\nopen({str(started)!r}, 'a').close()\ntime.sleep(1.5)\n")
    kept = warm.learner_lane(run.solutions, sandboxed=False)

    def kill_it_under_the_job() -> None:
        until = time.monotonic() + 120
        while not started.exists() and time.monotonic() < until:
            time.sleep(0.05)
        zygote = kept.lane.process   # type: ignore[attr-defined]   # the kept lane is a Zygote on Linux
        os.kill(zygote.process.pid, signal.SIGKILL)   # from outside: not the lane's own stop


    killer = threading.Thread(target=kill_it_under_the_job)
    killer.start()
    result = api.grade_submission(run)
    killer.join()
    # The primitive: the first grading charged the kata's job a crash it did not cause...
    first = {name: v.reason_key for name, v in gradings[0].verdicts.items() if v.status != Status.PASSED}
    assert first and set(first.values()) <= {"error.crash", "error.timeout"}, first
    assert gradings[0].orphaned == {KATA}
    # ...and the run graded it again on a fresh zygote: every function passes.
    assert len(gradings) == 2 and not gradings[1].orphaned
    assert set(_statuses(result).values()) == {Status.PASSED}, result.grading.verdicts
    assert result.doc["score"] == result.doc["max_score"] > 0


# The kata's own code ends its process, the zygote's child, by a fault: a job that leads a pid
# namespace of its own is that namespace's first process, which no plain ``os.kill`` of itself
# ends, but a fault it takes is delivered.
KILLS_ITSELF = "import ctypes\nctypes.string_at(0)\n"


def test_a_kata_whose_own_code_kills_its_process_is_charged_once(tmp_path, gradings):
    result = api.grade_submission(_run(tmp_path / "katas", KILLS_ITSELF))
    assert len(gradings) == 1 and not gradings[0].orphaned   # its zygote lived: nothing to grade again
    assert set(_statuses(result).values()) == {Status.ERROR}
    assert {v.reason_key for v in result.grading.verdicts.values()} == {"error.crash"}
    assert result.doc["score"] == 0
