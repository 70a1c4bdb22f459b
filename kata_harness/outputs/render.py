"""What ``grade.py --format FORMAT`` prints for one grading."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Protocol

from ..content.curriculum import FunctionInfo, KataInfo
from ..content.messages import message
from ..judging.integrity import Integrity
from ..judging.judge import Grading
from . import official, summary
from .text import text


class _Run(Protocol):
    """What rendering reads of a grading run (``api.GradingRun``)."""

    @property
    def lang(self) -> str: ...

    @property
    def solutions(self) -> Path: ...

    @property
    def shown(self) -> str: ...

    @property
    def visibility(self) -> str: ...


class Graded(Protocol):
    """One grading, as every format prints it (``api.Result``): its JSON document, the katas and
    the functions graded, the grading itself (for durations), the integrity check, the problem the
    result formats put on every test instead of a score (``tampered``), the run's wall time, and
    the run (its language, its solutions folder as read and as ``shown``, Gradescope's visibility)."""

    @property
    def run(self) -> _Run: ...

    @property
    def doc(self) -> dict: ...

    @property
    def katas(self) -> list[KataInfo]: ...

    @property
    def functions(self) -> list[FunctionInfo]: ...

    @property
    def grading(self) -> Grading: ...

    @property
    def integrity(self) -> Integrity: ...

    @property
    def tampered(self) -> str | None: ...

    @property
    def wall_time(self) -> float: ...


def render(graded: Graded, output_format: str, *, colour: bool = False) -> str:
    """What ``grade.py --format FORMAT`` prints: text (the learner's table, coloured where
    ``colour``, and a line when learner code ran without a sandbox), json, classroom, gradescope,
    markdown, or workflow (the practice workflow's reporter result, the log's text, the job summary
    and each function's status, from the one grading)."""
    g, lang = graded, graded.run.lang
    if output_format == "json":
        return json.dumps(g.doc, ensure_ascii=False, indent=1)
    if output_format == "classroom":
        return json.dumps(_reporter(g), ensure_ascii=False)
    if output_format == "gradescope":
        overview = summary.markdown(g.doc, g.katas, lang=lang, warning=g.tampered, details=False)
        infos = {f.qualified: f for f in g.functions}
        return json.dumps(official.gradescope(g.doc, infos, tampered=g.tampered, visibility=g.run.visibility,
                                              summary=overview, wall_time=g.wall_time), ensure_ascii=False, indent=1)
    if output_format == "markdown":
        return summary.markdown(g.doc, g.katas, lang=lang, warning=g.tampered)
    if output_format == "workflow":   # one grading, three views: the reporter's result, the log, the job summary
        return json.dumps({"classroom": _reporter(g), "text": text(g.doc, g.katas, lang=lang, integrity=g.integrity),
                           "markdown": summary.markdown(g.doc, g.katas, lang=lang, warning=g.tampered),
                           # each function's status, which the reporter's pass/fail/error does not tell (todo)
                           "statuses": {f"{k['kata']}.{f['name']}": f["status"] for k in g.doc["katas"]
                                        for f in k["functions"]}},
                          ensure_ascii=False)
    shown_text = text(g.doc, g.katas, lang=lang, integrity=g.integrity, colour=colour)
    if g.doc.get("sandbox") == "none":
        shown_text += "\n" + message("sandbox.none", lang)
    return shown_text


def _reporter(g: Graded) -> dict:
    """The autograding reporter's result for one grading."""
    infos = {f.qualified: f for f in g.functions}
    return official.classroom(g.doc, infos, g.grading, solutions=g.run.solutions, shown=g.run.shown,
                              tampered=g.tampered)
