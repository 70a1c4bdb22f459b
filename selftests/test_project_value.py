"""The project is a value: a copy of the project in another folder, graded in this process, grades
as itself (its curriculum, its answer key, its kata specs, in the parent and in every child), never
as the project whose harness the test process imported. Each test changes the copy so that a piece
that still read the global project (``layout.ROOT``, ``layout.LAYOUT``) would grade it otherwise."""

from __future__ import annotations

import re
import shutil
from types import SimpleNamespace

import pytest

from kata_harness import pytest_plugin
from kata_harness.layout import Layout
from kata_harness.usage import UsageError
from selftests import warm
from selftests.gradekit import ROOT, graded_in, project_copy, statuses

FILLED = "k01_creation.filled"
GONE = "k02_creation_traps"                                        # a kata the copy does not have
OWN = ROOT / "selftests" / "fixtures" / "instructor_kata"          # a kata only the copy has (k90_masking)


def _points(toml: str, function: str) -> int:
    return int(re.search(rf"\[functions\.{function}\][^\[]*?\npoints = (\d+)", toml).group(1))


def _copy_without_a_kata_and_with_other_points(tmp_path):
    """A copy whose k01 ``filled`` is worth 6 points more and which has no k02 (its curriculum
    entry and stub gone; its kata specs, and so its children, are this project's, and so is its
    reference, which the answer key's digest covers)."""
    copy = project_copy(tmp_path / "copy")
    entry = copy / "curriculum" / "k01_creation.toml"
    text = entry.read_text(encoding="utf-8")
    points = _points(text, "filled") + 6
    entry.write_text(re.sub(r"(\[functions\.filled\][^\[]*?\npoints = )\d+", rf"\g<1>{points}", text), encoding="utf-8")
    for folder in ("curriculum", "katas"):
        for path in (copy / folder).glob(f"{GONE}.*"):
            path.unlink()
    return copy, points


def test_a_copy_grades_with_its_own_curriculum_key_and_selectors_on_the_warm_children(tmp_path):
    copy, points = _copy_without_a_kata_and_with_other_points(tmp_path)
    assert warm._runs_these_specs(Layout(copy))   # the kept children serve it: nothing is started for it

    # Its catalog, its selectors (a lesson names its katas) and its points.
    live = graded_in(copy, "lesson1", "--solutions", "reference", "--format", "json").doc
    kata_names = [kata["kata"] for kata in live["katas"]]
    assert GONE not in kata_names and "k01_creation" in kata_names and "k03_dtypes" in kata_names
    filled = next(f for kata in live["katas"] for f in kata["functions"] if f"{kata['kata']}.{f['name']}" == FILLED)
    assert filled["max_score"] == filled["score"] == points
    assert live["score"] == live["max_score"]

    # Its answer key is its own, judged stale by its own files: k01's curriculum entry changed since
    # the freeze (in the project itself the key is fresh, and k01 would pass against it).
    keyed = statuses(graded_in(copy, "k01", "k03", "--solutions", "reference", "--against", "answer-key").doc)
    assert {status for name, status in keyed.items() if name.startswith("k01_")} == {"error"}
    assert {status for name, status in keyed.items() if name.startswith("k03_")} == {"passed"}

    with pytest.raises(UsageError, match=GONE):   # a kata the copy lacks is no selector there
        graded_in(copy, GONE)

    # A pytest run in the copy reads its curriculum and key too (its root folder is its project).
    project = pytest_plugin._project(SimpleNamespace(rootpath=copy))
    assert project == Layout(copy)
    assert pytest_plugin._function_info(project)[FILLED].points == points
    assert pytest_plugin._source(project).name == "reference"


@pytest.mark.e2e   # its own children: a referee and a learner's zygote that import torch
def test_a_copy_with_a_kata_of_its_own_grades_it_in_its_own_children(tmp_path):
    """k90 exists only in the copy (its stub, reference, kata spec and curriculum entry): the referee
    and the learner's child must both load the copy's specs to grade it, and they pass it."""
    copy = project_copy(tmp_path / "copy")
    for folder in ("katas", "reference", "tests", "curriculum"):
        for path in (OWN / folder).iterdir():
            shutil.copy(path, copy / folder / path.name)
    assert not warm._runs_these_specs(Layout(copy))   # its specs differ: children of its own
    with pytest.raises(UsageError):
        graded_in(ROOT, "k90_masking")                # the project itself has no such kata

    solved = graded_in(copy, "k90_masking", "--solutions", "reference", "--format", "json").doc
    assert [kata["kata"] for kata in solved["katas"]] == ["k90_masking"]
    assert set(statuses(solved).values()) == {"passed"}, statuses(solved)
    assert solved["score"] == solved["max_score"] > 0
