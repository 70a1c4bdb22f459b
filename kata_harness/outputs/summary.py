"""The Markdown summary of a grading: GitHub's job summary and Gradescope's top-level output.

A score line, then a table per kata (each function, its points and, when not passed, what
differed) and, with ``details``, each function not passed in full: the call, what differed,
the pitfall and a hint. Built from grade.py's JSON document alone.

Learner code can put text into a message (an exception it raises, what it printed), so every
message is shown as code: nothing in it can add rows, links, headings or HTML to the summary.
"""

from __future__ import annotations

import html
import re

from ..content.curriculum import FunctionInfo, KataInfo
from ..content.messages import message, pick, shortened
from .explanations import lesson_text, with_hint

MARKS = {"passed": "✅", "failed": "❌", "error": "⚠️", "todo": "⬜"}
DETAIL_LIMIT = 4000   # characters of one message in full
# GitHub shows no job summary over 1 MiB; messages are cut shorter while the summary would exceed this
# (Chinese text and emoji take three and four bytes a character).
SUMMARY_BYTES = 900_000
CELL_LIMIT = 160      # characters of what differed, in a table cell
WORDS = {   # the summary's own words; the rest comes from the curriculum and kata_harness.messages
    "title": {"en": "PyTorch pitfall katas", "zh": "PyTorch 踩坑练习"},
    "function": {"en": "function", "zh": "函数"},
    "points": {"en": "points", "zh": "得分"},
    "result": {"en": "result", "zh": "结果"},
}


def _word(key: str, lang: str) -> str:
    return pick(WORDS[key], lang)


def _escape(text: str) -> str:
    """Curriculum text (titles) outside code: no HTML."""
    return html.escape(text, quote=False)


def _code(text: str) -> str:
    """``text`` as inline code in a table cell: one line, a fence longer than any backtick run in
    it, and ``|`` escaped (GitHub splits table cells before it reads code spans)."""
    text = " ".join(text.split()).replace("|", "\\|")
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    padding = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{padding}{text}{padding}{fence}" if text else ""


def _block(text: str) -> str:
    """``text`` as a fenced code block that no line of it can close."""
    fence = "`" * max(3, max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    return f"{fence}text\n{text}\n{fence}"


def _what_differed(entry: dict) -> str:
    """What went wrong, short enough for the table."""
    line = entry["differed"].partition("\n")[0]
    return shortened(line, CELL_LIMIT)


def _details(entry: dict, lang: str, limit: int) -> str:
    """The whole message of a function not passed, with its first hint, cut at ``limit`` characters."""
    text = with_hint(entry, lang)
    if len(text) > limit:
        text = text[:limit] + " " + message("truncated", lang)
    return text


def _result_cell(entry: dict, info: FunctionInfo, lang: str) -> str:
    """The table's last column: the title when passed, else what went wrong."""
    if entry["status"] == "passed":
        return _escape(pick(info.title, lang)).replace("|", "\\|")
    if entry["status"] == "todo":
        return message("status.todo", lang)
    return _code(_what_differed(entry))


def _details_block(entry: dict, info: FunctionInfo, lang: str, limit: int) -> str:
    """A function not passed, in full, folded under its title (left folded while it is a stub)."""
    opened = "" if entry["status"] == "todo" else " open"
    return (f"<details{opened}><summary>{MARKS[entry['status']]} <code>{entry['name']}</code> — "
            f"{_escape(pick(info.title, lang))}{_escape(lesson_text(info.section, lang, info.lesson))}</summary>\n\n"
            f"{_block(_details(entry, lang, limit))}\n\n</details>\n")


def markdown(doc: dict, katas: list[KataInfo], *, lang: str, warning: str | None = None,
             details: bool = True, first_only: bool = False) -> str:
    """The summary of ``doc`` (grade.py's JSON document) in GitHub-flavoured Markdown.

    ``warning`` (grading files changed, or why grading failed) is shown first; ``details`` adds
    each function not passed in full below its kata's table (collapsed while it is still a stub),
    ``first_only`` only the first of them. Messages are cut shorter while the whole would exceed
    ``SUMMARY_BYTES``."""
    limit = DETAIL_LIMIT
    while True:
        text = _markdown(doc, katas, lang=lang, warning=warning, details=details, first_only=first_only,
                         limit=limit)
        if limit == 0 or len(text.encode("utf-8")) <= SUMMARY_BYTES:
            return text
        limit //= 2


def _markdown(doc: dict, katas: list[KataInfo], *, lang: str, warning: str | None, details: bool,
              first_only: bool, limit: int) -> str:
    """``markdown`` with the messages of the details cut at ``limit`` characters."""
    infos = {f.qualified: f for kata in katas for f in kata.functions}
    titles = {kata.name: pick(kata.title, lang) for kata in katas}
    out = [f"## {_word('title', lang)}: {message('grade.score', lang)} {doc['score']}/{doc['max_score']}", ""]
    if warning:
        out += [f"> ⚠️ {_code(warning)}", ""]
    next_up = next((f"{kata['kata']}.{entry['name']}" for kata in doc["katas"] for entry in kata["functions"]
                    if entry["status"] != "passed"), None)
    if next_up:
        info = infos[next_up]
        out += [f"**{message('grade.next', lang)}:** `{next_up}` — {_escape(pick(info.title, lang))}"
                f"{_escape(lesson_text(info.section, lang, info.lesson))}", ""]
    elif doc["katas"]:
        out += [message("grade.all_done", lang), ""]
    if doc.get("hidden_checks_not_run"):
        out += [f"> {_escape(message('hidden.not_run', lang, count=doc['hidden_checks_not_run']))}", ""]
    for kata in doc["katas"]:
        title = _escape(titles[kata["kata"]])
        out += [f"### {kata['kata']} · {title} — {kata['score']}/{kata['max_score']}", "",
                f"| | {_word('function', lang)} | {_word('points', lang)} | {_word('result', lang)} |",
                "|:-:|---|:-:|---|"]
        for entry in kata["functions"]:
            info = infos[f"{kata['kata']}.{entry['name']}"]
            out.append(f"| {MARKS[entry['status']]} | `{entry['name']}` | {entry['score']}/{entry['max_score']} "
                       f"| {_result_cell(entry, info, lang)} |")
        out.append("")
        shown = [entry for entry in kata["functions"] if entry["status"] != "passed"
                 and (not first_only or f"{kata['kata']}.{entry['name']}" == next_up)]
        if details:
            out += [_details_block(entry, infos[f"{kata['kata']}.{entry['name']}"], lang, limit) for entry in shown]
    return "\n".join(out).rstrip("\n") + "\n"
