"""What keeps a full grade fast keeps its promises: the answer key stands in for the live reference
only where it holds exactly what the referee would send now, and then the verdicts are the same.

A key stands in (``AnswerKey.standing_in``) while the instructor's reference, every kata's test
module and curriculum entry, the whole harness, the interpreter, the machine's instruction sets,
torch and NumPy are those it was frozen with, for the functions whose devices this machine cannot
change (no GPU in question). Anything else is observed live, as before.
"""

from __future__ import annotations

import dataclasses

import pytest

from kata_harness import api
from kata_harness.content.curriculum import load_curriculum
from kata_harness.judging import answer_key, expectations
from kata_harness.judging.answer_key import harness_digest, kata_digest, observing_environment, reference_digest
from kata_harness.layout import LAYOUT, ROOT
from selftests import warm

KEY = answer_key.load(LAYOUT.answer_key)
KATAS = load_curriculum(LAYOUT.curriculum)


def _fresh_key() -> answer_key.AnswerKey:
    """The committed key as a freeze here and now would record its sources and environment (its
    observations are the live reference's: ``test_answer_key`` checks that)."""
    assert KEY is not None
    return dataclasses.replace(KEY, reference=reference_digest(ROOT), katas={k: kata_digest(k, ROOT) for k in KEY.katas},
                               observed_with={"harness": harness_digest(ROOT), "environment": observing_environment()})


@pytest.fixture
def no_gpu(monkeypatch):
    monkeypatch.setattr(answer_key, "gpu_possible", lambda: False)


def test_a_key_frozen_here_and_now_stands_in_for_every_function(no_gpu):
    known = _fresh_key().standing_in(ROOT)
    assert known.keys() == KEY.expected.keys()
    assert all(known[name] is KEY.expected[name] for name in known)


@pytest.mark.parametrize("changed", ["python", "machine", "cpu", "torch", "numpy", "cpu_capability"])
def test_a_key_from_another_environment_stands_in_for_nothing(no_gpu, changed):
    key = _fresh_key()
    environment = {**key.observed_with["environment"], changed: "another"}
    assert dataclasses.replace(key, observed_with={**key.observed_with, "environment": environment}).standing_in(ROOT) == {}


def test_a_key_frozen_with_another_harness_or_reference_or_none_recorded_stands_in_for_nothing(no_gpu):
    key = _fresh_key()
    assert dataclasses.replace(key, observed_with={**key.observed_with, "harness": "another"}).standing_in(ROOT) == {}
    assert dataclasses.replace(key, reference="another").standing_in(ROOT) == {}
    assert dataclasses.replace(key, observed_with={}).standing_in(ROOT) == {}   # a key frozen before this


def test_a_kata_changed_since_the_freeze_is_observed_live_and_the_others_stand_in(no_gpu):
    key = _fresh_key()
    changed = next(iter(key.katas))
    known = dataclasses.replace(key, katas={**key.katas, changed: "another"}).standing_in(ROOT)
    assert {name for name in KEY.expected if name.split(".")[0] != changed} == known.keys()


def test_where_a_gpu_may_be_a_function_with_one_is_observed_live(monkeypatch):
    monkeypatch.setattr(answer_key, "gpu_possible", lambda: True)
    known = _fresh_key().standing_in(ROOT)
    with_gpu = {name for name, event in KEY.expected.items() if "cuda" in event["devices"]}
    assert with_gpu and not with_gpu & known.keys()
    assert known.keys() == KEY.expected.keys() - with_gpu


def test_a_grade_against_the_key_standing_in_gives_the_live_referees_verdicts(no_gpu, monkeypatch):
    """Reference solutions and stubs, some katas of each lesson: the verdicts and the whole document
    are those of the live referee, and where the key knows every function no referee starts."""
    referees = []

    def counted_referee(*, project):
        referees.append(1)
        return warm.referee(project=project)

    processes = api.Processes(lanes=warm.KEPT.lanes, referee=counted_referee)
    selectors = [kata.functions[0].kata for kata in KATAS[::8]]
    for solutions in ("reference", "katas"):
        docs = {}
        for source in ("live", "key"):
            fresh = _fresh_key().standing_in(ROOT) if source == "key" else {}
            monkeypatch.setattr(answer_key, "recorded_reference", lambda root=ROOT, fresh=fresh: fresh)
            referees.clear()
            run = api.settle(selectors, solutions=solutions, lang="en", sandboxed=False, processes=processes,
                             secret=None)
            docs[source] = api.grade_submission(run).doc
            assert (len(referees) == 0) == (source == "key"), source
        assert docs["key"] == docs["live"]
        assert docs["key"]["graded_against"] == expectations.REFERENCE
