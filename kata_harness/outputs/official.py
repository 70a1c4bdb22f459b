"""The result formats other tools read: the autograding reporter's (GitHub Classroom's format,
which GitHub-based course tools still read), Gradescope's results.json and Classroom 50's
result.json.

All start from grade.py's JSON document. A run whose grading files differ from the
template's manifest awards 0 points, with that reason on every test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..content.curriculum import FunctionInfo
from ..content.messages import message
from ..files import read_text
from ..judging.judge import Grading
from .explanations import with_hint

MESSAGE_LIMIT = 500   # characters of one reporter message (its log stays readable; the job summary has it all)
# The reporter reads the document from one environment variable, base64-encoded, and Linux refuses a
# single environment string over 128 KiB (E2BIG): the document's UTF-8 JSON stays within
# REPORTER_BYTES, so that its base64 stays under 100 KB whatever the messages hold.
REPORTER_BYTES = 75_000
CLASSROOM50_SCHEMA = "classroom50/result/v1"
CLASSROOM_STATUS = {"passed": "pass", "failed": "fail", "todo": "fail", "error": "error"}
# Who sees a Gradescope result, and when (Gradescope's own words).
VISIBILITIES = ("visible", "after_published", "after_due_date", "hidden")


def _cut(text: str, limit: int, lang: str) -> str:
    """``text`` in at most ``limit`` characters, saying where it was cut (a limit shorter than that
    notice gives the notice alone)."""
    if len(text) <= limit:
        return text
    notice = message("reporter.cut", lang)
    return " ".join(filter(None, [text[:max(limit - len(notice) - 1, 0)].rstrip(), notice]))


def _json_bytes(document: dict) -> int:
    """The size of ``document`` as grade.py prints it (UTF-8 JSON)."""
    return len(json.dumps(document, ensure_ascii=False).encode("utf-8"))


def _line_of(solutions: Path, info: FunctionInfo) -> int:
    """The line where the learner's file defines the function (1 when it cannot be found). The
    file is the learner's: a link to ``/dev/zero`` or a FIFO must not stop the report (``read_text``
    reads only a regular, size-capped file)."""
    try:
        lines = read_text(solutions / f"{info.kata}.py").splitlines()
    except OSError:
        return 1
    pattern = re.compile(rf"^\s*def\s+{re.escape(info.name)}\s*\(")
    return next((number for number, line in enumerate(lines, 1) if pattern.match(line)), 1)


def _entries(doc: dict, infos: dict):
    """(function info, its entry in the document) in grading order."""
    for kata in doc["katas"]:
        for entry in kata["functions"]:
            yield infos[f"{kata['kata']}.{entry['name']}"], entry


def classroom(doc: dict, infos: dict, grading: Grading, *, solutions: Path, shown: str,
              tampered: str | None = None) -> dict:
    """The document classroom-resources/autograding-grading-reporter reads (GitHub Classroom's
    format, which GitHub-based course tools still read): practice feedback in a student's CI.

    Every test is worth one point, so that the reporter's console total (tests passed over tests)
    and the points it reports agree: a function worth 2 points is two tests.
    Messages are cut at ``MESSAGE_LIMIT`` characters, and shorter while the document would exceed
    ``REPORTER_BYTES`` (Chinese text, emoji and escaped control characters take several bytes per
    character); every cut says so.
    """
    tests, texts = [], []
    for info, entry in _entries(doc, infos):
        status = "fail" if tampered else CLASSROOM_STATUS[entry["status"]]
        text = tampered or with_hint(entry, doc["lang"])
        for point in range(1, info.points + 1):
            name = info.qualified if info.points == 1 else f"{info.qualified} (point {point} of {info.points})"
            tests.append({
                "name": name, "status": status, "score": 1 if status == "pass" else 0,
                "message": "", "test_code": f"python grade.py {info.qualified}",
                "filename": f"{shown}/{info.kata}.py", "line_no": _line_of(solutions, info),
                "duration": round(grading.durations.get(info.qualified, 0.0), 3),
            })
            texts.append(text)
    statuses = {t["status"] for t in tests}
    overall = "fail" if "fail" in statuses else "error" if "error" in statuses else "pass"
    document = {"version": 1, "status": overall, "max_score": len(tests), "tests": tests}
    limit = MESSAGE_LIMIT
    while True:
        for test, text in zip(tests, texts):
            test["message"] = _cut(text, limit, doc["lang"])
        if limit == 0 or _json_bytes(document) <= REPORTER_BYTES:
            return document
        limit //= 2


def gradescope(doc: dict, infos: dict, *, summary: str, wall_time: float, visibility: str = "visible",
               tampered: str | None = None) -> dict:
    """Gradescope's results.json: one test per function (tagged with its kata), the Markdown
    ``summary`` as the top-level output, and the run's ``wall_time`` as its execution time (the
    functions' own durations would leave out starting the children and what a hang cost).

    ``visibility`` (one of ``VISIBILITIES``) applies to the whole result and to every test."""
    tests = []
    for info, entry in _entries(doc, infos):
        passed = entry["status"] == "passed" and not tampered
        tests.append({
            "name": info.qualified,
            "score": info.points if passed else 0, "max_score": info.points,
            "status": "passed" if passed else "failed",
            "output": tampered or with_hint(entry, doc["lang"]),
            "tags": [info.kata],
            "visibility": visibility,
        })
    return {"score": sum(t["score"] for t in tests), "execution_time": round(wall_time, 2),
            "output": summary, "output_format": "md", "test_output_format": "text",
            "visibility": visibility, "tests": tests}


def classroom50(doc: dict, infos: dict, identity: dict) -> dict:
    """Classroom 50's result.json (schema ``classroom50/result/v1``): the submission's ``identity``
    (classroom, assignment, owner, submission, links, times: what its runner passes in), then one
    test per function with its integer points, so that the tests sum to the suite's points."""
    tests = [{"test-name": info.qualified, "passed": entry["status"] == "passed", "score": int(entry["score"]),
              "max-score": info.points, "status": entry["status"]} for info, entry in _entries(doc, infos)]
    return {"schema": CLASSROOM50_SCHEMA, **identity, "score": sum(test["score"] for test in tests),
            "max-score": sum(test["max-score"] for test in tests), "tests": tests}
