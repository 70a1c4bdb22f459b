"""What ``grade.py --format FORMAT`` prints for one grading."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..content.curriculum import FunctionInfo, KataInfo
from ..content.messages import message
from ..judging.integrity import Integrity
from ..judging.judge import Grading
from . import official, summary
from .text import text


@dataclass
class Printout:
    """One grading, ready to be printed in any format: its JSON document (``doc``), the katas and
    the functions graded, the grading itself (for durations), the language, the solutions folder
    (``solutions``, as read; ``shown``, as named to the learner), the integrity check, the problem the
    result formats put on every test instead of a score (``tampered``), Gradescope's ``visibility``,
    the run's wall time, and whether the text may be coloured."""

    doc: dict
    katas: list[KataInfo]
    functions: list[FunctionInfo]
    grading: Grading
    lang: str
    solutions: Path
    shown: str
    integrity: Integrity
    tampered: str | None = None
    visibility: str = "visible"
    wall_time: float = 0.0
    colour: bool = False


def render(printout: Printout, output_format: str) -> str:
    """What ``grade.py --format FORMAT`` prints: text (the learner's table, and a line when learner
    code ran without a sandbox), json, classroom, gradescope, markdown, or workflow (the practice
    workflow's reporter result, the log's text, the job summary and each function's status, from the
    one grading)."""
    p = printout
    infos = {f.qualified: f for f in p.functions}
    if output_format == "json":
        return json.dumps(p.doc, ensure_ascii=False, indent=1)
    if output_format == "classroom":
        return json.dumps(_reporter(p, infos), ensure_ascii=False)
    if output_format == "gradescope":
        overview = summary.markdown(p.doc, p.katas, lang=p.lang, warning=p.tampered, details=False)
        return json.dumps(official.gradescope(p.doc, infos, tampered=p.tampered, visibility=p.visibility,
                                              summary=overview, wall_time=p.wall_time), ensure_ascii=False, indent=1)
    if output_format == "markdown":
        return summary.markdown(p.doc, p.katas, lang=p.lang, warning=p.tampered)
    if output_format == "workflow":   # one grading, three views: the reporter's result, the log, the job summary
        return json.dumps({"classroom": _reporter(p, infos), "text": text(p.doc, p.katas, lang=p.lang, integrity=p.integrity),
                           "markdown": summary.markdown(p.doc, p.katas, lang=p.lang, warning=p.tampered),
                           # each function's status, which the reporter's pass/fail/error does not tell (todo)
                           "statuses": {f"{k['kata']}.{f['name']}": f["status"] for k in p.doc["katas"]
                                        for f in k["functions"]}},
                          ensure_ascii=False)
    shown_text = text(p.doc, p.katas, lang=p.lang, integrity=p.integrity, colour=p.colour)
    if p.doc.get("sandbox") == "none":
        shown_text += "\n" + message("sandbox.none", p.lang)
    return shown_text


def _reporter(p: Printout, infos: dict) -> dict:
    """The autograding reporter's result for one grading."""
    return official.classroom(p.doc, infos, p.grading, solutions=p.solutions, shown=p.shown, tampered=p.tampered)
