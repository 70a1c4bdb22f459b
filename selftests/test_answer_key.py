"""The answer key is fresh, and grading against it gives exactly the verdicts of the live reference.

On any CPU: float values are compared as the judge compares them (its tolerances, its verdict), and
exactly only what the contract holds exactly (``selftests/exact.py``). Every variant of the corpus
is judged against both in ``test_variants``.
"""

import pytest

from kata_harness.aspects.compare import Tolerance
from kata_harness.content.curriculum import load_curriculum
from kata_harness.judging import answer_key
from kata_harness.judging.verdicts import Status, incomplete, judge, verdict_for
from kata_harness.layout import LAYOUT, ROOT
from kata_harness.observation.local import devices_for, load_kata_spec, load_module, observe_devices, tolerance_of
from selftests.exact import exact_part, plain, verdict_shown
from selftests.gradekit import check_schema, grade_json, statuses

KEY = answer_key.load(LAYOUT.answer_key)
KATAS = load_curriculum(LAYOUT.curriculum)
FUNCTIONS = [f for kata in KATAS for f in kata.functions]
FREEZE = "the answer key is stale: run `python grade.py freeze` and commit tests/answer_key.dat"


def test_the_exact_part_keeps_what_the_contract_holds_exactly():
    described = {"kind": "tensor", "dtype": "torch.float32", "shape": [2], "values": [1.0, 2.5], "leaf": True}
    assert exact_part(described) == {**described, "values": ["~", "~"]}
    integers = {"kind": "tensor", "dtype": "torch.int64", "shape": [2], "values": [1, 2]}
    assert exact_part(integers)["values"] == [1, 2]
    assert exact_part({"kind": "bool", "value": True})["value"] is True
    assert exact_part({"kind": "float", "value": 0.1})["value"] == "~"
    assert exact_part(integers) != exact_part({**integers, "values": [1, 3]})
    assert exact_part(integers) != exact_part({**integers, "dtype": "torch.int32"})
    assert exact_part("f(tensor([2.438, -1.5e-05]), 3)") == "f(tensor([~, ~]), 3)"


def test_answer_key_exists_and_is_not_plain_text():
    raw = LAYOUT.answer_key.read_bytes()
    assert KEY is not None
    assert b"arange_inclusive" not in raw and b"float32" not in raw


def test_answer_key_is_fresh():
    assert KEY.stale_katas(ROOT) == [], FREEZE
    assert KEY.reference == answer_key.reference_digest(ROOT), FREEZE
    assert set(KEY.katas) == {k.name for k in KATAS}, FREEZE
    assert set(KEY.expected) == {f.qualified for f in FUNCTIONS}, FREEZE
    stubs = {kata.name: (ROOT / "katas" / f"{kata.name}.py").read_text(encoding="utf-8") for kata in KATAS}
    assert KEY.stubs == stubs, FREEZE + " (the stubs changed)"


@pytest.mark.parametrize("info", FUNCTIONS, ids=lambda f: f.qualified)
def test_key_holds_exactly_what_the_live_reference_does(info):
    spec = load_kata_spec(info.kata, LAYOUT.tests).function(info.name)
    reference = getattr(load_module(ROOT / "reference" / f"{info.kata}.py"), info.name)
    recorded = KEY.expected[info.qualified]
    live = plain(observe_devices(reference, spec, info.kata, list(recorded["observations"])))
    tolerance = tolerance_of(spec)
    # The same verdict as grading gives, both ways round (a tolerance is relative to the expected side).
    assert judge(spec.aspects, tolerance, live, recorded["observations"]).status == "passed", FREEZE
    assert judge(spec.aspects, tolerance, recorded["observations"], live).status == "passed", FREEZE
    assert exact_part(live) == exact_part(recorded["observations"]), FREEZE
    assert recorded["aspects"] == list(spec.aspects) and recorded["rtol"] == spec.rtol and recorded["atol"] == spec.atol


def _stubs_and_references():
    """Every stub and every reference function (the variants are judged both ways in test_variants)."""
    for kata in KATAS:
        stub = load_module(ROOT / "katas" / f"{kata.name}.py")
        reference = load_module(ROOT / "reference" / f"{kata.name}.py")
        for info in kata.functions:
            yield info.qualified, f"{info.qualified}:stub", getattr(stub, info.name)
            yield info.qualified, f"{info.qualified}:reference", getattr(reference, info.name)


@pytest.mark.parametrize("info", FUNCTIONS, ids=lambda f: f.qualified)
def test_every_record_of_the_key_passes_against_itself_case_by_case_and_aspect_by_aspect(info):
    """``verdict_for`` passes observations equal to the expected ones without judging them aspect
    by aspect: sound only while every aspect finds nothing, and nothing is missing, in any record
    judged against itself. The reference passing its katas no longer shows that (its observations
    are the key's, taken at once), so each record is held to it here."""
    recorded = KEY.expected[info.qualified]
    tolerance = Tolerance(recorded["rtol"], recorded["atol"])
    assert judge(recorded["aspects"], tolerance, recorded["observations"], recorded["observations"]).status == "passed"
    assert incomplete(recorded["observations"], recorded["observations"]) is None


def test_observations_equal_to_what_a_raising_reference_observed_are_still_its_error():
    recorded = next(iter(KEY.expected.values()))
    raising = {**recorded, "observations": {"cpu": [{"call": "f()", "raised": {"type": "ValueError", "message": "no"}}]}}
    verdict = verdict_for(raising, {"cpu": [{"call": "f()", "raised": {"type": "ValueError", "message": "no"}}]})
    assert verdict.status == Status.ERROR and verdict.reason_key == "error.reference"


def test_key_and_live_reference_give_the_same_verdict_to_every_stub_and_reference_function():
    mismatches = []
    references = {}
    for qualified, label, implementation in _stubs_and_references():
        kata, name = qualified.split(".")
        spec = load_kata_spec(kata, LAYOUT.tests).function(name)
        devices, _ = devices_for(spec)
        if qualified not in references:
            reference = getattr(load_module(ROOT / "reference" / f"{kata}.py"), name)
            references[qualified] = plain(observe_devices(reference, spec, kata, devices))
        yours = plain(observe_devices(implementation, spec, kata, devices))
        recorded = KEY.expected[qualified]["observations"]
        live = judge(spec.aspects, tolerance_of(spec), yours, references[qualified])
        keyed = judge(spec.aspects, tolerance_of(spec), yours, recorded)
        if verdict_shown(live) != verdict_shown(keyed):
            mismatches.append(label)
    assert not mismatches


def test_grading_against_the_key_gives_full_marks_to_the_reference_and_zero_to_stubs():
    """Through grade.py, some katas of every lesson (every function's reference passes against its
    record above, and the full grades are test_grade's, where the key stands in for the referee)."""
    sample = [kata.name for kata in KATAS[::5]]
    solved = grade_json(*sample, "--against", "answer-key", "--solutions", "reference")
    fresh = grade_json(*sample, "--against", "answer-key")
    assert {kata.lesson.name for kata in KATAS if kata.name in sample} == {kata.lesson.name for kata in KATAS}
    check_schema(solved)
    check_schema(fresh)
    assert solved["graded_against"] == fresh["graded_against"] == "answer-key"
    assert solved["score"] == solved["max_score"]
    assert fresh["score"] == 0 and set(statuses(fresh).values()) == {"todo"}
