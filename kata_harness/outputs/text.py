"""The learner's text report: a table per kata, what to do next, the score line."""

from __future__ import annotations

import os

from ..content.curriculum import KataInfo, Lesson
from ..content.messages import message, pick
from ..judging.integrity import Integrity
from .explanations import lesson_text, with_hint

MARKS = {"passed": "✓", "failed": "✗", "error": "!", "todo": "·"}


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
    out = [_paint(integrity_text(integrity, lang), "error", colour), ""] if integrity and not integrity.ok else []
    lessons = {kata.name: kata.lesson for kata in katas}
    shown = None
    for kata in doc["katas"]:
        if lessons[kata["kata"]] != shown:   # the katas come lesson by lesson: a heading before each
            shown = lessons[kata["kata"]]
            out += [_paint(lesson_heading(shown, lang), "title", colour), ""]
        out += _kata_table(kata, titles[kata["kata"]], infos, lang, colour)
    if any(entry.get("skipped") for kata in doc["katas"] for entry in kata["functions"]):
        out.append(message("skipped.cuda", lang))
    out += _next_up(next_from or doc, katas, infos, lang, colour)
    if doc.get("hidden_checks_not_run"):
        out.append(message("hidden.not_run", lang, count=doc["hidden_checks_not_run"]))
    if summary:
        out.append(summary_line(doc, lang))
    return "\n".join(out).rstrip("\n")


def lesson_heading(lesson: Lesson, lang: str) -> str:
    """The line above a lesson's katas: which lesson they belong to, how to grade it alone, its notes."""
    pack = (f"（{lesson.pack}）" if lang == "zh" else f" ({lesson.pack})") if lesson.pack else ""
    return message("grade.lesson", lang, lesson=lesson.name, pack=pack, title=pick(lesson.title, lang),
                   notes=lesson.notes[lang])


def _kata_table(kata: dict, title: str, infos: dict, lang: str, colour: bool) -> list[str]:
    """One kata's lines: its title, its progress bar, a line per function, a blank line."""
    lines = [_paint(f"{kata['kata']}  {title}", "title", colour),
             f"  {_bar(kata['score'], kata['max_score'], colour)}  {kata['score']}/{kata['max_score']}"]
    width = max(len(f["name"]) for f in kata["functions"])
    for entry in kata["functions"]:
        info = infos[f"{kata['kata']}.{entry['name']}"]
        detail = {"passed": pick(info.title, lang), "todo": message("status.todo", lang)}.get(
            entry["status"], entry["differed"].partition("\n")[0])
        mark = _paint(MARKS[entry["status"]], entry["status"], colour)
        lines.append(f"  {mark} {entry['name']:<{width}}  {entry['score']}/{entry['max_score']}  {detail}")
    return [*lines, ""]


def _next_up(doc: dict, katas: list[KataInfo], infos: dict, lang: str, colour: bool) -> list[str]:
    """What to do next: the first function not passed, in full with its first hint; or, when all
    passed, that everything (or everything graded here) is done."""
    pending = [(kata, entry) for kata in doc["katas"] for entry in kata["functions"] if entry["status"] != "passed"]
    if pending:
        kata, entry = _where_the_learner_is(pending, doc, infos)
        info = infos[f"{kata['kata']}.{entry['name']}"]
        graded_lessons = {infos[f"{k['kata']}.{e['name']}"].lesson.name for k in doc["katas"] for e in k["functions"]}
        only = ["  " + message("grade.next_lesson_only", lang, lesson=info.lesson.name)] if len(graded_lessons) > 1 else []
        return [_paint(message("line.next", lang, name=info.qualified, title=pick(info.title, lang),
                               lesson=lesson_text(info.section, lang, info.lesson)), "next", colour),
                *("  " + line for line in with_hint(entry, lang).splitlines()),
                "  " + message("grade.run_hint", lang, test_path=f"tests/test_{info.kata}.py", function=info.name),
                *only,
                ""]
    if not doc["katas"]:
        return []
    graded = sum(len(kata["functions"]) for kata in doc["katas"])
    everything = sum(len(kata.functions) for kata in katas)
    return [message("grade.all_done" if graded >= everything else "grade.selection_done", lang)]


def _where_the_learner_is(pending: list, doc: dict, infos: dict) -> tuple:
    """The next function to work on: the first one not passed in the last lesson the learner has
    begun (one of its functions is no longer a stub), so that a learner of the second lesson is not
    sent back to the first lesson's first kata; the first one not passed where no lesson is begun."""
    begun = [infos[f"{kata['kata']}.{entry['name']}"].lesson.name
             for kata in doc["katas"] for entry in kata["functions"] if entry["status"] != "todo"]
    if begun:
        in_lesson = [(kata, entry) for kata, entry in pending
                     if infos[f"{kata['kata']}.{entry['name']}"].lesson.name == begun[-1]]
        if in_lesson:
            return in_lesson[0]
    return pending[0]


def summary_line(doc: dict, lang: str) -> str:
    """The last line of every text report, in grading and in watch mode alike."""
    return f"{message('grade.score', lang)} {doc['score']}/{doc['max_score']}"
