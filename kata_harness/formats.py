"""grade.py's outputs: the JSON document (its fields are listed in README.md, section "grade.py")
and the learner's text table."""

from __future__ import annotations

import os

from .curriculum import FunctionInfo, KataInfo
from .grading import Grading
from .integrity import Integrity
from .messages import message, pick
from .report import Status, explain, lesson_text, with_hint

MARKS = {"passed": "✓", "failed": "✗", "error": "!", "todo": "·"}


def document(katas: list[KataInfo], selected: list[FunctionInfo], grading: Grading, *, lang: str,
             solutions: str, graded_against: str = "reference", integrity: Integrity | None = None) -> dict:
    """The ``--format json`` document: totals, then katas with their functions in order."""
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
    return {
        "score": sum(k["score"] for k in kata_entries),
        "max_score": sum(k["max_score"] for k in kata_entries),
        "lang": lang,
        "graded_against": graded_against,
        "integrity": (integrity or Integrity()).as_json(),
        "katas": kata_entries,
    }


COLOURS = {"passed": "32", "failed": "31", "error": "35", "todo": "2", "bar": "32", "title": "1", "next": "1;36"}


def use_colour(stream) -> bool:
    """Colour on a terminal, plain when piped or when NO_COLOR is set (https://no-color.org)."""
    return hasattr(stream, "isatty") and stream.isatty() and not os.environ.get("NO_COLOR") \
        and os.environ.get("TERM") != "dumb"


def _paint(text: str, role: str, colour: bool) -> str:
    return f"\033[{COLOURS[role]}m{text}\033[0m" if colour else text


def _bar(done: int, total: int, colour: bool = False, width: int = 20) -> str:
    filled = round(width * done / total) if total else width
    return _paint("█" * filled, "bar", colour) + "░" * (width - filled)


def integrity_text(integrity: Integrity, lang: str) -> str:
    """Which grading files differ from the template, and how to put them back."""
    folders = sorted({entry.split("/")[0].split(" ")[0] for entry in integrity.modified})
    return message("integrity.changed", lang, files=", ".join(integrity.modified), paths=" ".join(folders))


def text(doc: dict, katas: list[KataInfo], *, lang: str,
         integrity: Integrity | None = None, colour: bool = False, summary: bool = True,
         next_from: dict | None = None) -> str:
    """The learner's view: a table per kata with its progress, what to do next (looked for in
    ``next_from`` when given: watch mode shows one kata but points to the next of all), and
    last the summary line ``score X/Y``."""
    infos = {f.qualified: f for kata in katas for f in kata.functions}
    titles = {kata.name: pick(kata.title, lang) for kata in katas}
    out, next_up, skipped = [], None, False
    if integrity and not integrity.ok:
        out += [_paint(integrity_text(integrity, lang), "error", colour), ""]
    for kata in doc["katas"]:
        out.append(_paint(f"{kata['kata']}  {titles[kata['kata']]}", "title", colour))
        out.append(f"  {_bar(kata['score'], kata['max_score'], colour)}  {kata['score']}/{kata['max_score']}")
        width = max(len(f["name"]) for f in kata["functions"])
        for entry in kata["functions"]:
            info = infos[f"{kata['kata']}.{entry['name']}"]
            skipped = skipped or bool(entry.get("skipped"))
            detail = {"passed": pick(info.title, lang), "todo": message("status.todo", lang)}.get(
                entry["status"], entry["differed"].partition("\n")[0])
            mark = _paint(MARKS[entry["status"]], entry["status"], colour)
            out.append(f"  {mark} {entry['name']:<{width}}  {entry['score']}/{entry['max_score']}  {detail}")
        out.append("")
    for kata in (next_from or doc)["katas"]:
        for entry in kata["functions"]:
            if next_up is None and entry["status"] != "passed":
                next_up = (infos[f"{kata['kata']}.{entry['name']}"], entry)
    if skipped:
        out.append(message("skipped.cuda", lang))
    if next_up:
        info, entry = next_up
        out.append(_paint(message("line.next", lang, name=info.qualified, title=pick(info.title, lang),
                                  lesson=lesson_text(info.section, lang)), "next", colour))
        out.extend("  " + line for line in with_hint(entry, lang).splitlines())
        out.append("  " + message("grade.run_hint", lang, test_path=f"tests/test_{info.kata}.py", function=info.name))
        out.append("")
    elif (next_from or doc)["katas"]:
        graded = sum(len(kata["functions"]) for kata in (next_from or doc)["katas"])
        everything = sum(len(kata.functions) for kata in katas)
        out.append(message("grade.all_done" if graded >= everything else "grade.selection_done", lang))
    if doc.get("hidden_checks_not_run"):
        out.append(message("hidden.not_run", lang, count=doc["hidden_checks_not_run"]))
    if summary:
        out.append(summary_line(doc, lang))
    return "\n".join(out).rstrip("\n")


def summary_line(doc: dict, lang: str) -> str:
    """The last line of every text report, in grading and in watch mode alike."""
    return f"{message('grade.score', lang)} {doc['score']}/{doc['max_score']}"


def render_as(output_format: str, doc: dict, katas: list[KataInfo], functions: list[FunctionInfo],
              grading: Grading, *, lang: str, solutions, shown: str, integrity: Integrity,
              tampered: str | None = None, visibility: str = "visible", wall_time: float = 0.0,
              colour: bool = False) -> str:
    """What ``grade.py --format FORMAT`` prints for one grading (``doc``: its JSON document):
    text (the learner's table, and a line when learner code ran without a sandbox), json,
    classroom, gradescope, markdown, or workflow (the practice workflow's reporter result, the log's
    text and the job summary, from the one grading). ``tampered``: the integrity problem the result
    formats put on every test instead of a score."""
    import json

    from . import official, summary

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
