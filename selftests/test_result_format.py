"""grade.py's JSON document against its published schema, docs/result.schema.json (described in
docs/result-format.md): real documents follow it, with every status a function can have, and the
schema (through our validator) rejects what breaks it."""

from __future__ import annotations

import copy

import pytest

from selftests.gradekit import ROOT, check_schema, grade_json, solutions_from_reference, statuses
from selftests.schema import result_schema, schema_errors

# One kata, one function per status: a classic wrong answer (failed), a function missing (error),
# a right answer (passed) and a stub left (todo).
K01 = '''import torch


def arange_inclusive(start, end, step=1):
    return torch.arange(start, end, step)


def filled(shape, value):
    return torch.full(shape, value, dtype=torch.float32)


def mask_like(x):
    raise NotImplementedError("mask_like: not implemented yet")
'''


@pytest.fixture(scope="module")
def every_status(tmp_path_factory) -> dict:
    solutions = solutions_from_reference(tmp_path_factory.mktemp("result-format") / "solutions")
    (solutions / "k01_creation.py").write_text(K01, encoding="utf-8")
    return grade_json("k01", "--solutions", str(solutions))


def test_a_document_with_every_status_follows_the_schema(every_status):
    assert not schema_errors(every_status), schema_errors(every_status)
    check_schema(every_status)
    assert statuses(every_status) == {"k01_creation.arange_inclusive": "failed",
                                      "k01_creation.evenly_spaced": "error",
                                      "k01_creation.filled": "passed",
                                      "k01_creation.mask_like": "todo"}


def test_stubs_follow_the_schema():
    doc = grade_json("k01")
    check_schema(doc)
    assert set(statuses(doc).values()) == {"todo"}


@pytest.mark.parametrize("break_it, complaint", [
    (lambda d: d.pop("official"), "$: missing 'official'"),
    (lambda d: d.update(extra=1), "$: unexpected 'extra'"),
    (lambda d: d.update(score=True), "$.score: True is not of type integer"),
    (lambda d: d.update(lang="fr"), "$.lang: 'fr' is not one of"),
    (lambda d: d["integrity"].update(ok="yes"), "$.integrity.ok: 'yes' is not of type boolean"),
    (lambda d: d["katas"][0]["functions"][0].update(status="skipped"),
     "$.katas[0].functions[0].status: 'skipped' is not one of"),
    (lambda d: d["katas"][0]["functions"][0].pop("hint"), "$.katas[0].functions[0]: missing 'hint'"),
    (lambda d: d["katas"][0]["functions"][0].update(skipped="cuda"),
     "$.katas[0].functions[0].skipped: 'cuda' is not of type array"),
    (lambda d: d["katas"][0].update(score=-1), "$.katas[0].score: -1 is below 0"),
])
def test_the_schema_rejects_a_broken_document(every_status, break_it, complaint):
    broken = copy.deepcopy(every_status)
    break_it(broken)
    errors = schema_errors(broken)
    assert any(error.startswith(complaint) for error in errors), errors


def test_the_validator_refuses_a_keyword_it_does_not_check():
    with pytest.raises(ValueError, match="pattern"):
        schema_errors("x", {"type": "string", "pattern": "^x$"})


def test_the_format_page_names_every_field_and_links_the_schema():
    page = (ROOT / "docs" / "result-format.md").read_text(encoding="utf-8")
    schema = result_schema()
    fields = [*schema["properties"], *schema["$defs"]["function"]["properties"]]
    assert [name for name in fields if f"`{name}`" not in page] == []
    assert "result.schema.json" in page
    assert "## Formats for other graders" in page     # docs/platforms/gradescope.md links to its anchor
