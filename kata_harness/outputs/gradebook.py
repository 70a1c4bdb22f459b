"""The gradebook of ``grade.py batch``: each submission's row, and the CSV or JSON file of the rows.

A row holds the submission's name, its score, each function's points and the notes on it, and how
it was graded (``graded_at`` in UTC, the ``project`` commit, ``official`` or practice); with a
roster, who it is (``student``, ``email``, ``id``); with the instructor's record, when it was
submitted and, with a deadline, the late policy's ``raw_score``, ``late_factor``, ``penalty`` and
``final_score`` (its ``score``). The CSV has those columns (its cells neutralised against formula
injection, a UTF-8 byte order mark first so that spreadsheets show Chinese names); the JSON row of
a submission also has ``functions``: for each function its status and points and, for a failure,
the pitfall that caught it (its key, its title in both languages, the lesson section) and the
example a class report shows (the call and what differed); for an error, what went wrong; and the
``fingerprints`` of its kata files and the ``shared`` solutions they are part of (``term.shared``).
Texts are kept in both languages, as the curriculum keeps them, so that a report can be drawn in
either from any stored gradebook, and a cached row stays right whatever language is asked for later.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from ..content.curriculum import FunctionInfo
from ..content.messages import LANGUAGES
from ..judging.verdicts import Status, Verdict
from .explanations import explain, pitfall_key, pitfall_title, visible

SAID_BY_KEY = ("error.no_file", "error.not_found")   # errors whose key and function say all there is
NOT_GRADED = "not_graded"   # the status of every function of a submission that could not be graded (see notes)
# bytes: far above the JSON gradebook of a large class, or batch's cache of its rows (each function's
# details in two languages make 1,000 submissions about 16 MiB)
GRADEBOOK_LIMIT = 256 << 20


def function_entry(verdict: Verdict | None, info: FunctionInfo) -> dict:
    """The gradebook's record of one function of one submission (``verdict`` None: not graded).

    ``status`` (passed, failed, error, todo or not_graded) and ``points``; an error adds ``reason``
    (the message key: ``error.timeout``, ``error.no_file``, ...) and, unless the key says all there
    is (no such file, no such function), ``differed``: what went wrong, in both languages; a failure adds ``pitfall`` (the
    curriculum's key, as ``pitfall_text`` picks it), ``pitfall_title`` and ``differed`` (both
    languages), ``section`` (the lesson section to revisit) and ``call``."""
    if verdict is None:
        return {"status": NOT_GRADED, "points": 0}
    passed = verdict.status == Status.PASSED
    entry: dict = {"status": verdict.status.value, "points": info.points if passed else 0}
    if verdict.status == Status.ERROR and verdict.reason:
        entry["reason"] = verdict.reason[0]
        if verdict.reason[0] not in SAID_BY_KEY:
            entry["differed"] = {lang: explain(verdict, info, lang).differed for lang in LANGUAGES}
    if verdict.status == Status.FAILED:
        key = pitfall_key(info, verdict.difference, verdict.label)
        entry.update(pitfall=key, pitfall_title=pitfall_title(info, key), section=info.section, call=visible(verdict.call),
                     differed={lang: explain(verdict, info, lang).differed for lang in LANGUAGES})
    return entry


def function_entries(functions: list[FunctionInfo], verdicts: dict | None) -> dict:
    """``function_entry`` of every function, by its qualified name (``verdicts`` None: not graded)."""
    return {info.qualified: function_entry(None if verdicts is None else verdicts[info.qualified], info)
            for info in functions}


def row(name: str, notes: list[str], functions: list[FunctionInfo], verdicts: dict | None) -> dict:
    """The gradebook row of the submission ``name`` (``verdicts`` None: it could not be graded, all
    zeros): the CSV's columns, then each function's details for the JSON (``function_entries``)."""
    entry: dict[str, Any] = {"submission": name, "score": 0, "max_score": sum(f.points for f in functions)}
    for info in functions:
        passed = verdicts is not None and verdicts[info.qualified].status == Status.PASSED
        entry[info.qualified] = info.points if passed else 0
        entry["score"] += entry[info.qualified]
    entry["notes"] = "; ".join(notes)
    entry["functions"] = function_entries(functions, verdicts)   # the JSON's details (the CSV keeps its columns)
    return entry


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def neutralise(cell):
    """A CSV cell that a spreadsheet will not run as a formula (text starting =, +, -, @ gets a ')."""
    if isinstance(cell, str) and cell.startswith(_FORMULA_START):
        return "'" + cell
    return cell


# The CSV's columns besides the functions, in order, each written when some row has it: who, the
# score, when it was submitted and the late policy, the functions' points, then the notes and how it
# was graded.
IDENTITY = ("submission", "student", "email", "id", "score", "max_score")
LATE = ("submitted_at", "deadline", "raw_score", "late_factor", "penalty", "final_score")
PROVENANCE = ("graded_at", "project", "official")
DETAILS = ("functions", "fingerprints", "shared", "shard")   # the JSON's only


def row_order(row: dict) -> str:
    """The one order of a gradebook's rows (batch's, a merge's): by submission name."""
    return str(row.get("submission", ""))


def columns(rows: list[dict], functions: list[FunctionInfo]) -> list[str]:
    """The CSV's columns for ``rows``: ``submission``, ``score``, ``max_score``, the functions and
    ``notes`` always; the roster's, the record's, the late policy's and how it was graded when some
    row has them."""
    present = set().union(*(row.keys() for row in rows)) if rows else set()
    always = ("submission", "score", "max_score")
    return ([name for name in IDENTITY if name in always or name in present]
            + [name for name in LATE if name in present]
            + [f.qualified for f in functions] + ["notes"]
            + [name for name in PROVENANCE if name in present])


def _cell(value):
    """A value as the CSV writes it: true and false in lower case, text neutralised."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return neutralise(value)


def encode(out: Path, rows: list[dict], functions: list[FunctionInfo]) -> bytes:
    """The bytes of the gradebook file ``out``: JSON (every row with its details) for a ``.json``
    name, else CSV (the columns only)."""
    if out.suffix == ".json":
        return (json.dumps(rows, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=columns(rows, functions), extrasaction="ignore")   # the details are the JSON's
    writer.writeheader()
    writer.writerows({k: _cell(v) for k, v in row.items()} for row in rows)
    return text.getvalue().encode("utf-8-sig")
