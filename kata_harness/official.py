"""The official result formats: GitHub Classroom's grading reporter and Gradescope's results.json.

Both start from grade.py's JSON document. A run whose grading files differ from the
template's manifest awards 0 points, with that reason on every test.
"""

from __future__ import annotations

import re
from pathlib import Path

from .curriculum import FunctionInfo
from .grading import Grading
from .report import with_hint

MESSAGE_LIMIT = 500
CLASSROOM_STATUS = {"passed": "pass", "failed": "fail", "todo": "fail", "error": "error"}
# Who sees a Gradescope result, and when (Gradescope's own words).
VISIBILITIES = ("visible", "after_published", "after_due_date", "hidden")


def _cap(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _line_of(solutions: Path, info: FunctionInfo) -> int:
    """The line where the learner's file defines the function (1 when it cannot be found)."""
    try:
        lines = (solutions / f"{info.kata}.py").read_text(encoding="utf-8", errors="replace").splitlines()
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
    """The document GitHub Classroom's autograding-grading-reporter reads.

    Every test is worth one point, so that the reporter's console percentage (tests passed over
    tests) and the points it sends to Classroom agree: a function worth 2 points is two tests.
    """
    tests = []
    for info, entry in _entries(doc, infos):
        status = "fail" if tampered else CLASSROOM_STATUS[entry["status"]]
        message = tampered or with_hint(entry, doc["lang"])
        for point in range(1, info.points + 1):
            name = info.qualified if info.points == 1 else f"{info.qualified} (point {point} of {info.points})"
            tests.append({
                "name": name, "status": status, "score": 1 if status == "pass" else 0,
                "message": _cap(message), "test_code": f"python grade.py {info.qualified}",
                "filename": f"{shown}/{info.kata}.py", "line_no": _line_of(solutions, info),
                "duration": round(grading.durations.get(info.qualified, 0.0), 3),
            })
    statuses = {t["status"] for t in tests}
    overall = "fail" if "fail" in statuses else "error" if "error" in statuses else "pass"
    return {"version": 1, "status": overall, "max_score": len(tests), "tests": tests}


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
