"""The answer key is fresh, and grading against it gives exactly the verdicts of the live reference."""

import json

import pytest
import torch

from kata_harness.content.curriculum import load_curriculum
from kata_harness.judging import answer_key
from kata_harness.judging.verdicts import judge
from kata_harness.layout import LAYOUT, ROOT
from kata_harness.observation.local import devices_for, load_kata_spec, load_module, observe_devices, tolerance_of
from selftests.gradekit import check_schema, grade_json, statuses
from selftests.variants import load_all

KEY = answer_key.load()
KATAS = load_curriculum()
FUNCTIONS = [f for kata in KATAS for f in kata.functions]
FREEZE = "the answer key is stale: run `python grade.py freeze` and commit tests/answer_key.dat"


def _release(version: str) -> str:
    """A torch version without its build tag: 2.13.0+cpu is 2.13.0."""
    return version.split("+")[0]


def _plain(data):
    """What survives the trip through JSON (tuples become lists, and so on)."""
    return json.loads(json.dumps(data, allow_nan=True))


def test_answer_key_exists_and_is_not_plain_text():
    raw = LAYOUT.answer_key.read_bytes()
    assert KEY is not None
    assert b"arange_inclusive" not in raw and b"float32" not in raw


def test_answer_key_is_fresh():
    assert KEY.stale_katas() == [], FREEZE
    assert KEY.reference == answer_key.reference_digest(), FREEZE
    assert set(KEY.katas) == {k.name for k in KATAS}, FREEZE
    assert set(KEY.expected) == {f.qualified for f in FUNCTIONS}, FREEZE
    stubs = {kata.name: (ROOT / "katas" / f"{kata.name}.py").read_text(encoding="utf-8") for kata in KATAS}
    assert KEY.stubs == stubs, FREEZE + " (the stubs changed)"


@pytest.mark.parametrize("info", FUNCTIONS, ids=lambda f: f.qualified)
def test_key_holds_exactly_what_the_live_reference_does(info):
    spec = load_kata_spec(info.kata).function(info.name)
    reference = getattr(load_module(ROOT / "reference" / f"{info.kata}.py"), info.name)
    recorded = KEY.expected[info.qualified]
    live = _plain(observe_devices(reference, spec, info.kata, list(recorded["observations"])))
    if _release(torch.__version__) == _release(KEY.torch_version):
        assert live == recorded["observations"], FREEZE
    else:   # another torch (or its BLAS) may round sums differently in the last bits
        assert judge(spec.aspects, tolerance_of(spec), live, recorded["observations"]).status == "passed", FREEZE
    assert recorded["aspects"] == list(spec.aspects) and recorded["rtol"] == spec.rtol and recorded["atol"] == spec.atol


def _learner_observations():
    """Every learner in the self-test corpus: each variant, each stub, each reference function."""
    for variant in load_all():
        yield f"{variant.kata}.{variant.function}", variant.id, variant.implementation
    for kata in KATAS:
        stub = load_module(ROOT / "katas" / f"{kata.name}.py")
        reference = load_module(ROOT / "reference" / f"{kata.name}.py")
        for info in kata.functions:
            yield info.qualified, f"{info.qualified}:stub", getattr(stub, info.name)
            yield info.qualified, f"{info.qualified}:reference", getattr(reference, info.name)


def test_key_and_live_reference_give_the_same_verdict_on_the_whole_corpus():
    mismatches = []
    references = {}
    for qualified, label, implementation in _learner_observations():
        kata, name = qualified.split(".")
        spec = load_kata_spec(kata).function(name)
        devices, _ = devices_for(spec)
        if qualified not in references:
            reference = getattr(load_module(ROOT / "reference" / f"{kata}.py"), name)
            references[qualified] = _plain(observe_devices(reference, spec, kata, devices))
        yours = _plain(observe_devices(implementation, spec, kata, devices))
        recorded = KEY.expected[qualified]["observations"]
        live = judge(spec.aspects, tolerance_of(spec), yours, references[qualified])
        keyed = judge(spec.aspects, tolerance_of(spec), yours, recorded)
        if (live.status, live.difference, live.device, live.call) != \
                (keyed.status, keyed.difference, keyed.device, keyed.call):
            mismatches.append(label)
    assert not mismatches


def test_grading_against_the_key_gives_full_marks_to_the_reference_and_zero_to_stubs():
    solved = grade_json("--against", "answer-key", "--solutions", "reference")
    fresh = grade_json("--against", "answer-key")
    check_schema(solved)
    check_schema(fresh)
    assert solved["graded_against"] == fresh["graded_against"] == "answer-key"
    assert solved["score"] == solved["max_score"]
    assert fresh["score"] == 0 and set(statuses(fresh).values()) == {"todo"}
