"""The project's Python API (``kata_harness.api``): one grading run, settled once, and its result.

The commands build their run with ``api.from_args``; a Python caller builds the same run with
``api.settle``. Every choice is made there (the language, the secret, whether the grade is
official, the source, the sandbox), and grading the run gives the document and every printout.
"""

from __future__ import annotations

import dataclasses
import json
import os
from types import SimpleNamespace

import pytest

from kata_harness import api, commands
from kata_harness.isolation import processes, sandbox
from kata_harness.judging.expectations import ANSWER_KEY, REFERENCE, Recorded
from kata_harness.usage import UsageError
from selftests.gradekit import check_schema
from selftests.warm import KEPT, environment


def _parsed(*argv: str):
    return commands.parse(list(argv), 0.0).args


def test_a_command_line_and_keyword_arguments_settle_the_same_run():
    with environment({"KATA_SECRET": None, "KATA_LANG": None}):
        from_line = api.from_args(_parsed("k01", "k03_dtypes.apply_linear", "--solutions", "reference", "--lang", "zh",
                                          "--timeout", "3", "--format", "markdown"), started=1.0, processes=KEPT)
        from_python = api.settle(["k01", "k03_dtypes.apply_linear"], solutions="reference", lang="zh", function_timeout=3,
                                 output_format="markdown", deadline=api.DEADLINE, started=1.0, processes=KEPT)
    assert from_line == from_python
    assert [f.qualified for f in from_line.functions][-1] == "k03_dtypes.apply_linear"
    assert from_line.lang == "zh" and from_line.function_timeout == 3 and not from_line.official
    with pytest.raises(dataclasses.FrozenInstanceError):
        from_line.lang = "en"   # type: ignore[misc]


def test_official_is_decided_once_from_the_secret_or_the_format():
    with environment({"KATA_SECRET": None}):
        assert not api.settle().official
        assert api.settle(output_format="gradescope").official   # a format an instructor records a grade from
        assert not api.settle(output_format="classroom").official   # student CI: practice
    with environment({"KATA_SECRET": "s3cret"}):
        settled = api.settle()
        assert settled.official and settled.secret == "s3cret"
        assert "s3cret" not in repr(settled)   # a run printed in a log never shows the secret
        assert not api.settle(secret=None).official   # watch's practice, whatever the environment holds


def test_the_source_and_the_sandbox_are_settled_too():
    assert api.settle().against == REFERENCE   # reference/ is here
    assert api.settle(against="answer-key").against == ANSWER_KEY
    assert api.settle(sandboxed=False).sandbox == sandbox.NONE
    with environment({"KATA_SANDBOX": "none"}):
        assert api.settle().sandbox == sandbox.NONE and not api.settle().sandboxed


@pytest.mark.parametrize(("arguments", "words"), [
    ({"selectors": ["k99"]}, "k99"),
    ({"solutions": "no-such-folder"}, "no-such-folder"),
    ({"secret_file": "/no/such/secret"}, "cannot read the secret file"),
])
def test_a_run_that_cannot_happen_is_refused_before_anything_starts(arguments, words):
    selectors = arguments.pop("selectors", ())
    with pytest.raises(UsageError) as refused:
        api.settle(selectors, lang="en", **arguments)
    assert words in str(refused.value)


def test_grading_a_run_gives_the_document_and_every_printout():
    with environment({"KATA_SECRET": None}):
        run = api.settle(["k01"], solutions="reference", lang="en", sandboxed=False, processes=KEPT)
    result = api.grade_submission(run)
    check_schema(result.doc)
    assert result.doc["score"] == result.doc["max_score"] == sum(f.points for f in run.functions)
    assert result.doc["sandbox"] == "none" and result.doc["graded_against"] == REFERENCE
    assert json.loads(result.render("json")) == result.doc
    assert result.render("markdown").startswith("#") and "score" in result.render("text")
    assert {test["status"] for test in json.loads(result.render("classroom"))["tests"]} == {"pass"}
    other = api.grade_submission(run.replace(solutions=run.solutions.parent / "katas", shown="katas"))
    assert other.doc["score"] == 0 and other.run.functions == run.functions


class _CountedLane:
    """A lane that only records that it was started (``lanes_beside`` starts what it adds)."""

    def __init__(self) -> None:
        self.started = False

    def start(self) -> None:
        self.started = True


def test_a_second_lane_grades_beside_the_first_only_where_it_pays(monkeypatch):
    """A learner's machine with a core to spare grades a run of many katas on two lanes at once;
    not where a referee observes on that core, nor on one core, nor for a few katas (the second
    import of torch would cost more than it saves), nor where the factory keeps one lane."""
    def lanes(solutions, *, sandboxed, project):
        return _CountedLane()

    with environment({"KATA_SECRET": None}):
        run = api.settle(solutions="reference", lang="en", processes=api.Processes(lanes=lanes))
        few = api.settle(["k01", "k02"], solutions="reference", lang="en", processes=api.Processes(lanes=lanes))
        kept = api.settle(solutions="reference", lang="en", sandboxed=False, processes=KEPT)
    assert len({f.kata for f in run.functions}) >= api.SIDE_BY_SIDE_KATAS > len({f.kata for f in few.functions})
    recorded, observing = Recorded({}), SimpleNamespace(observing=True)
    first = run.lane()
    monkeypatch.setattr(api, "usable_cores", lambda: 2.0)
    monkeypatch.setattr(api, "available_memory", lambda: api.SIDE_BY_SIDE_MEMORY)
    beside = run.lanes_beside(first, recorded)
    assert len(beside) == 1 and beside[0] is not first and beside[0].started and not first.started
    assert run.lanes_beside(first, observing) == []
    assert few.lanes_beside(few.lane(), recorded) == []
    assert kept.lanes_beside(kept.lane(), recorded) == []   # the self-tests' one warm lane per folder
    monkeypatch.setattr(api, "available_memory", lambda: api.SIDE_BY_SIDE_MEMORY - 1)   # a small container
    assert run.lanes_beside(first, recorded) == []
    monkeypatch.setattr(api, "available_memory", lambda: None)   # not known (not Linux): two lanes
    assert len(run.lanes_beside(first, recorded)) == 1
    monkeypatch.setattr(api, "usable_cores", lambda: 1.5)   # a quota of one and a half CPUs
    assert run.lanes_beside(first, recorded) == []


def test_the_cores_and_memory_a_process_may_use_are_read_from_its_cgroup_and_the_system(tmp_path, monkeypatch):
    cores, free = processes.usable_cores(), processes.available_memory()
    assert 0 < cores <= (os.cpu_count() or 1)
    assert free is None or free > 0
    assert all(folder.is_dir() for folder, _ in processes.own_cgroups("memory", above=True))
    # A container's cgroup (version 2, then version 1): half a CPU, 768 MiB of which 500 MiB are
    # taken; no limit in the folder above it.
    container, above = tmp_path / "container", tmp_path
    container.mkdir()
    files = {2: {"cpu.max": ("50000 100000", "max 100000"), "memory.max": (f"{768 << 20}", "max"),
                 "memory.current": (f"{500 << 20}", "0")},
             1: {"cpu.cfs_quota_us": ("50000", "-1"), "cpu.cfs_period_us": ("100000", "100000"),
                 "memory.limit_in_bytes": (f"{768 << 20}", "9223372036854771712"),
                 "memory.usage_in_bytes": (f"{500 << 20}", "0")}}
    for version, written in files.items():
        for name, (inside, outside) in written.items():
            (container / name).write_text(inside + "\n")
            (above / name).write_text(outside + "\n")
        monkeypatch.setattr(processes, "own_cgroups",
                            lambda controller, above=False, v=version: [(container, v), (tmp_path, v)])
        assert processes.usable_cores() == 0.5, version
        assert processes.available_memory() == 268 << 20, version
