"""grade.py's JSON document (its fields: docs/result-format.md; its schema: docs/result.schema.json)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..content.curriculum import FunctionInfo, KataInfo
from ..judging.integrity import Integrity
from ..judging.judge import Grading
from ..judging.verdicts import Status
from .explanations import explain


@dataclass(frozen=True)
class HowItRan:
    """What the document says about the run itself: how learner code ran (``sandbox``: bubblewrap or
    none), whether the grade counts (``official``), and the hidden checks a practice run left out."""

    sandbox: str
    official: bool
    hidden_checks_not_run: int


def document(katas: list[KataInfo], selected: list[FunctionInfo], grading: Grading, *, lang: str,
             solutions: str, graded_against: str = "reference", integrity: Integrity | None = None,
             ran: HowItRan | None = None) -> dict:
    """The ``--format json`` document, built once: totals, the run's facts, then katas with their
    functions in order (``ran``: the fields that describe the run; a partial view, as watch mode
    shows, may leave them out)."""
    chosen = {f.qualified for f in selected}
    kata_entries = []
    for kata in katas:
        functions = []
        for info in kata.functions:
            if info.qualified not in chosen:
                continue
            verdict = grading.verdicts[info.qualified]
            passed = verdict.status == Status.PASSED
            explained = explain(verdict, info, lang, solutions=solutions)
            entry = {"name": info.name, "status": verdict.status.value, "score": info.points if passed else 0,
                     "max_score": info.points, "message": explained.text(hint=False),
                     "differed": explained.differed, "pitfall": explained.pitfall,
                     "hint": explained.hint}
            if verdict.skipped:
                entry["skipped"] = list(verdict.skipped)
            functions.append(entry)
        if functions:
            kata_entries.append({"kata": kata.name, "score": sum(f["score"] for f in functions),
                                 "max_score": sum(f["max_score"] for f in functions), "functions": functions})
    doc = {
        "score": sum(k["score"] for k in kata_entries),
        "max_score": sum(k["max_score"] for k in kata_entries),
        "lang": lang,
        "graded_against": graded_against,
        "integrity": (integrity or Integrity()).as_json(),
        "katas": kata_entries,
    }
    return {**doc, **asdict(ran)} if ran else doc
