"""What the attacks on batch's jobs share (``test_job_isolation``, ``test_job_confinement``): a real
batch worker whose jobs may hold ``TEST_LIMIT_MIB`` MiB, grading one submission's k01 file as batch
grades it, and what a graded attack reported.
"""

from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager

from kata_harness.batch import engine as batch
from kata_harness.content.curriculum import load_curriculum
from kata_harness.isolation import sandbox
from kata_harness.judging import expectations
from kata_harness.judging.verdicts import Status
from kata_harness.layout import LAYOUT, ROOT
from kata_harness.outputs.explanations import render

KATA = "k01_creation"
FUNCTIONS = [f for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions if f.kata == KATA]
REFERENCE = (ROOT / "reference" / f"{KATA}.py").read_text(encoding="utf-8")
TEST_LIMIT_MIB = 256     # the jobs' memory limit in these tests (a few honest jobs need under 100)


def table() -> dict:
    """The answer key's expected observations of k01's functions, as batch reads them."""
    source = expectations.open_source(ROOT, expectations.ANSWER_KEY)
    return batch.expected_table(source, FUNCTIONS)


@contextmanager
def batch_worker() -> Iterator[batch._Worker]:
    """One batch worker (sandboxed where bubblewrap runs) whose jobs may hold TEST_LIMIT_MIB MiB."""
    saved = os.environ.get(sandbox.MEMORY_VARIABLE)
    os.environ[sandbox.MEMORY_VARIABLE] = str(TEST_LIMIT_MIB)
    made = batch._Worker(sandbox.available(), project=LAYOUT)
    made.table = table()
    try:
        yield made
    finally:
        made.close()
        if saved is None:
            os.environ.pop(sandbox.MEMORY_VARIABLE, None)
        else:
            os.environ[sandbox.MEMORY_VARIABLE] = saved


def graded(worker: batch._Worker, extra: str = "", prefix: str = "") -> batch._KataGrading:
    """The grading of one submission's k01 file: the reference with ``prefix`` before it and
    ``extra`` after it (which may redefine a function), as batch grades a kata file."""
    data = (prefix + REFERENCE + textwrap.dedent(extra)).encode()
    return batch._graded_kata(KATA, data, worker, worker.lane(), FUNCTIONS, worker.table, 5.0, None, None)


def message(grading: batch._KataGrading, name: str = "filled") -> str:
    """The learner's message on function ``name`` of the graded file."""
    info = next(f for f in FUNCTIONS if f.name == name)
    return render(grading.verdicts[info.qualified], info, "en")


def all_pass(grading: batch._KataGrading) -> None:
    """Every function of the graded file passed (else the messages of those that did not)."""
    failed = {name: message(grading, name.split(".")[1]) for name, verdict in grading.verdicts.items()
              if verdict.status != Status.PASSED}
    assert not failed, failed


def seen(grading: batch._KataGrading) -> dict:
    """What an attack reported (it raises ``ValueError("seen: {...}")`` from ``filled``)."""
    said = message(grading)
    assert "seen: " in said, said
    return json.loads(said.split("seen: ", 1)[1].split("\n")[0].rstrip("'\""))
