"""What ``grade.py --format FORMAT`` prints for one grading."""

from __future__ import annotations

import json

from ..content.curriculum import FunctionInfo, KataInfo
from ..content.messages import message
from ..judging.integrity import Integrity
from ..judging.judge import Grading
from . import official, summary
from .text import text


def render_as(output_format: str, doc: dict, katas: list[KataInfo], functions: list[FunctionInfo],
              grading: Grading, *, lang: str, solutions, shown: str, integrity: Integrity,
              tampered: str | None = None, visibility: str = "visible", wall_time: float = 0.0,
              colour: bool = False) -> str:
    """What ``grade.py --format FORMAT`` prints for one grading (``doc``: its JSON document):
    text (the learner's table, and a line when learner code ran without a sandbox), json,
    classroom, gradescope, markdown, or workflow (the practice workflow's reporter result, the log's
    text and the job summary, from the one grading). ``tampered``: the integrity problem the result
    formats put on every test instead of a score."""
    infos = {f.qualified: f for f in functions}
    if output_format == "json":
        return json.dumps(doc, ensure_ascii=False, indent=1)
    if output_format == "classroom":
        return json.dumps(official.classroom(doc, infos, grading, solutions=solutions, shown=shown,
                                             tampered=tampered), ensure_ascii=False)
    if output_format == "gradescope":
        overview = summary.markdown(doc, katas, lang=lang, warning=tampered, details=False)
        return json.dumps(official.gradescope(doc, infos, tampered=tampered, visibility=visibility, summary=overview,
                                              wall_time=wall_time), ensure_ascii=False, indent=1)
    if output_format == "markdown":
        return summary.markdown(doc, katas, lang=lang, warning=tampered)
    if output_format == "workflow":   # one grading, three views: the reporter's result, the log, the job summary
        return json.dumps({"classroom": official.classroom(doc, infos, grading, solutions=solutions, shown=shown,
                                                           tampered=tampered),
                           "text": text(doc, katas, lang=lang, integrity=integrity),
                           "markdown": summary.markdown(doc, katas, lang=lang, warning=tampered)}, ensure_ascii=False)
    shown_text = text(doc, katas, lang=lang, integrity=integrity, colour=colour)
    if doc.get("sandbox") == "none":
        shown_text += "\n" + message("sandbox.none", lang)
    return shown_text
