"""Each student's feedback, from their gradebook row: ``batch DIR --feedback FEEDBACK_DIR`` (and
``grade.py merge ... --feedback``) writes ``FEEDBACK_DIR/<submission>.md`` and ``.html`` beside it.

A file holds the gradebook's score line (``score X/Y``), when and how it was graded, the late
policy where one applied, a table per kata, and for each function that failed or raised what
differed, the pitfall with its lesson section and the first hint, in the run's language. Everything
is drawn from the row and the curriculum, so a stored gradebook gives the same files again.

Whatever a submission is called or its code printed stays text: in Markdown every character that
means something there is escaped, in HTML every string is escaped (and the page runs no script);
a file's name is the submission's name with what a file system gives meaning to (``/``, ``\\``,
``..``, control characters, names Windows reserves) replaced, so no file is written outside the
folder.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections import Counter
from pathlib import Path

from ..content.curriculum import FunctionInfo, KataInfo
from ..content.messages import message, pick
from ..files import write_atomically
from .explanations import UNRELATED_ERRORS, hint_for, pitfall_words, section_text
from .gradebook import NOT_GRADED, SAID_BY_KEY

_UNSAFE = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]')
_WINDOWS_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{n}" for n in range(10)), *(f"LPT{n}" for n in range(10))}
NAME_BYTES = 150        # bytes of a file name's stem: well under every file system's 255
_MARKDOWN = re.compile(r"([\\`*_{}\[\]|~#!])")   # what marks up text (markup tags are escaped as HTML first)


def file_name(name: str) -> str:
    """A file name for the submission ``name`` (without its suffix) that stays in its folder on
    every system: no separator, no ``..``, no control character, no reserved name, not too long."""
    safe = _UNSAFE.sub("_", name).strip(" .") or "_"
    if safe.split(".")[0].upper() in _WINDOWS_RESERVED:
        safe = "_" + safe
    while len(safe.encode("utf-8")) > NAME_BYTES:
        safe = safe[:-1]
    return safe


def _same_file(name: str) -> str:
    """What a file system that ignores case and Unicode form (macOS, Windows) takes ``name`` for."""
    return unicodedata.normalize("NFKC", name).casefold()


def _md(text: str) -> str:
    """Text that Markdown shows as written: markup characters escaped, line breaks as spaces."""
    text = _MARKDOWN.sub(r"\\\1", html.escape(" ".join(str(text).split()), quote=False))
    return "\\" + text if text[:1] in ("-", "+", "=") or re.match(r"\d+[.)]", text) else text


def _code(text: str) -> str:
    """Text as a Markdown code span (shown as written, markup included), fenced by more backticks
    than it holds."""
    text = " ".join(str(text).split())
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    return f"{fence} {text} {fence}" if text.startswith("`") or text.endswith("`") else f"{fence}{text}{fence}"


def _not_started(entry: dict) -> bool:
    """A function the learner has not begun: a stub, no file, no function of that name."""
    return entry.get("status") == "todo" or (entry.get("status") == "error" and entry.get("reason") in SAID_BY_KEY)


def _status(entry: dict, lang: str) -> str:
    status = entry.get("status", NOT_GRADED)
    if status == NOT_GRADED:
        return message("feedback.not_graded_status", lang)
    return message("feedback.not_started" if _not_started(entry) and status == "error" else f"status.{status}", lang)


class _Sheet:
    """The parts of one student's feedback, in one language, for either format."""

    def __init__(self, row: dict, katas: list[KataInfo], lang: str):
        self.row, self.katas, self.lang = row, katas, lang
        details = row.get("functions")
        self.details = details if isinstance(details, dict) else {}

    def score(self) -> str:
        return f"score {_number(self.row.get('score'))}/{_number(self.row.get('max_score'))}"

    def when(self) -> str:
        if not self.row.get("graded_at"):
            return ""
        how = message("feedback.official" if self.row.get("official") else "feedback.practice", self.lang)
        return message("feedback.graded", self.lang, when=self.row["graded_at"], how=how)

    def late(self) -> str:
        if not self.row.get("submitted_at") or "late_factor" not in self.row:
            return ""
        fields = {"at": self.row["submitted_at"], "deadline": self.row.get("deadline", ""),
                  "factor": _number(100 * self.row["late_factor"]), "raw": _number(self.row.get("raw_score")),
                  "final": _number(self.row.get("final_score"))}
        return message("feedback.on_time" if self.row["late_factor"] == 1 else "feedback.late", self.lang, **fields)

    def notes(self) -> list[str]:
        """The gradebook's notes on the row, as the grader wrote them (the one a student most needs
        in their language: that there was no submission; none for the instructor alone)."""
        notes = [n.strip() for n in str(self.row.get("notes", "")).split("; ") if n.strip() and n.strip() != "not on the roster"]
        return [message("feedback.no_submission", self.lang) if n == "no submission" else n for n in notes]

    def tables(self) -> list[tuple[str, list[tuple[str, str, str]]]]:
        """(the kata's heading, [(function, result, points)]) for each kata the row grades."""
        tables = []
        for kata in self.katas:
            graded = [f for f in kata.functions if f.qualified in self.details]
            if not graded:
                continue
            earned = sum(self.details[f.qualified].get("points", 0) for f in graded)
            heading = f"{kata.name} — {pick(kata.title, self.lang)}: {_number(earned)}/{sum(f.points for f in graded)}"
            tables.append((heading, [(f.name, _status(self.details[f.qualified], self.lang),
                                      f"{_number(self.details[f.qualified].get('points', 0))}/{f.points}") for f in graded]))
        return tables

    def failures(self) -> list[tuple[FunctionInfo, list[tuple[str, str, bool]]]]:
        """(the function, its lines) for each function that failed or raised: each line a message
        key, the text it holds, and whether that text is the learner's (a call, what differed,
        what their code raised: shown as written) or the curriculum's (a pitfall, a hint)."""
        found = []
        for kata in self.katas:
            for info in kata.functions:
                entry = self.details.get(info.qualified)
                if isinstance(entry, dict) and entry.get("status") in ("failed", "error") and not _not_started(entry):
                    found.append((info, self._lines(info, entry)))
        return found

    def not_started(self) -> list[tuple[str, list[str]]]:
        """(kata, [its functions not begun yet]; none listed when it is the whole kata) for each kata
        that has some, in the curriculum's order."""
        found = []
        for kata in self.katas:
            names = [info.name for info in kata.functions
                     if isinstance(self.details.get(info.qualified), dict) and _not_started(self.details[info.qualified])]
            if names:
                found.append((kata.name, [] if len(names) == len(kata.functions) else names))
        return found

    def title(self, info: FunctionInfo) -> str:
        return f"{info.qualified} — {pick(info.title, self.lang)}"

    def _lines(self, info: FunctionInfo, entry: dict) -> list[tuple[str, str, bool]]:
        lang = self.lang
        differed = pick(entry.get("differed") or {}, lang) if isinstance(entry.get("differed"), dict) else ""
        lines: list[tuple[str, str, bool]] = []
        if entry["status"] == "failed":
            key = str(entry.get("pitfall", "default"))
            lines += [("line.called", str(entry["call"]), True)] if entry.get("call") else []
            lines += [("line.differs", differed, True)] if differed else []
            lines.append(("line.pitfall", pitfall_words(info, key, lang), False))
            hint = hint_for(info, key, lang)
        else:
            reason = str(entry.get("reason", ""))
            lines.append(("feedback.went_wrong", differed or reason, True))
            lines.append(("feedback.lesson", message("tutorial", lang, section=section_text(info.section, lang),
                                                          notes=info.lesson.notes[lang]), False))
            hint = "" if reason in UNRELATED_ERRORS else info.hint(1, lang)
        return lines + ([("line.hint", hint, False)] if hint else [])


def _number(value) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "0"
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0").rstrip(".")


def _line(key: str, text: str, learner: bool, lang: str) -> str:
    """One line of a failure in Markdown: the learner's call as code, their other text escaped, the
    curriculum's as it is written."""
    shown = _code(text) if key == "line.called" else _md(text) if learner else text
    return message(key, lang, **{_FIELD.get(key, "text"): shown})


def markdown(row: dict, katas: list[KataInfo], lang: str) -> str:
    """One student's feedback as Markdown (what a release body, an LMS comment or an e-mail holds)."""
    sheet = _Sheet(row, katas, lang)
    parts = [f"# {_md(message('feedback.title', lang, name=row.get('submission', '')))}", "", sheet.score(), ""]
    parts += [_md(line) + "  " for line in (sheet.when(), sheet.late()) if line]
    notes = sheet.notes()
    if notes:
        parts += ["", f"## {_md(message('feedback.notes', lang))}", ""] + [f"- {_md(note)}" for note in notes]
    for heading, lines in sheet.tables():
        parts += ["", f"## {heading}", "",
                  f"| {message('feedback.col_function', lang)} | {message('feedback.col_result', lang)} | "
                  f"{message('feedback.col_points', lang)} |", "|---|---|---|"]
        parts += [f"| {_code(name)} | {result} | {points} |" for name, result, points in lines]
    failures = sheet.failures()
    parts += ["", f"## {_md(message('feedback.to_do', lang))}", ""]
    if not failures and not sheet.not_started() and sheet.details:
        parts.append(message("feedback.all_passed", lang))
    for info, said in failures:
        parts += [f"### {_code(info.qualified)} — {pick(info.title, lang)}", ""]
        parts += [f"- {_line(key, text, learner, lang)}" for key, text, learner in said] + [""]
    if sheet.not_started():
        listed = ", ".join(_code(kata) + (f" ({', '.join(_code(n) for n in names)})" if names else "")
                           for kata, names in sheet.not_started())
        parts += [message("feedback.not_started_list", lang, functions=listed), ""]
    parts += ["", message("feedback.more", lang)]
    return "\n".join(parts).rstrip() + "\n"


_FIELD = {"line.called": "call", "feedback.lesson": "section"}   # the field each line's message names its text by

_STYLE = ("body{font:15px/1.5 system-ui,-apple-system,'Segoe UI','Noto Sans','PingFang SC','Hiragino Sans GB',"
          "'Microsoft YaHei','Noto Sans CJK SC','Source Han Sans SC','WenQuanYi Micro Hei',sans-serif;max-width:860px;"
          "margin:24px auto;padding:0 16px;color:#1d1d1f}table{border-collapse:collapse;margin:6px 0 14px}"
          "th,td{border-bottom:1px solid #e4e4e4;padding:4px 10px;text-align:left}th{background:#f4f4f4}"
          "li{margin:4px 0;white-space:pre-wrap;overflow-wrap:anywhere}.score{font-size:22px;font-weight:600}"
          ".muted{color:#5f6368}")


def html_page(row: dict, katas: list[KataInfo], lang: str) -> str:
    """One student's feedback as a page that stands alone (no script, nothing fetched)."""
    sheet, e = _Sheet(row, katas, lang), (lambda text: html.escape(str(text), quote=True))
    title = message("feedback.title", lang, name=row.get("submission", ""))
    parts = ["<!DOCTYPE html>", f'<html lang="{e(lang)}"><head><meta charset="utf-8">',
             "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
             f"<title>{e(title)}</title><style>{_STYLE}</style></head><body>", f"<h1>{e(title)}</h1>",
             f'<p class="score" data-score="{e(row.get("score", 0))}">{e(sheet.score())}</p>']
    parts += [f'<p class="muted">{e(line)}</p>' for line in (sheet.when(), sheet.late()) if line]
    if sheet.notes():
        parts.append(f"<h2>{e(message('feedback.notes', lang))}</h2><ul>"
                     + "".join(f"<li>{e(n)}</li>" for n in sheet.notes()) + "</ul>")
    head = "".join(f"<th>{e(message(key, lang))}</th>" for key in
                   ("feedback.col_function", "feedback.col_result", "feedback.col_points"))
    for heading, lines in sheet.tables():
        rows = "".join(f"<tr><td><code>{e(n)}</code></td><td>{e(r)}</td><td>{e(p)}</td></tr>" for n, r, p in lines)
        parts.append(f"<h2>{e(heading)}</h2><table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
    parts.append(f"<h2>{e(message('feedback.to_do', lang))}</h2>")
    if not sheet.failures() and not sheet.not_started() and sheet.details:
        parts.append(f"<p>{e(message('feedback.all_passed', lang))}</p>")
    for info, said in sheet.failures():
        parts.append(f"<h3>{e(sheet.title(info))}</h3><ul>" + "".join(
            f"<li>{e(message(key, lang, **{_FIELD.get(key, 'text'): text}))}</li>" for key, text, _ in said) + "</ul>")
    if sheet.not_started():
        listed = ", ".join(kata + (f" ({', '.join(names)})" if names else "") for kata, names in sheet.not_started())
        parts.append(f"<p>{e(message('feedback.not_started_list', lang, functions=listed))}</p>")
    parts += [f'<p class="muted">{e(message("feedback.more", lang))}</p>', "</body></html>"]
    return "\n".join(parts) + "\n"


def write_all(folder: Path, rows: list[dict], katas: list[KataInfo], lang: str) -> dict[str, Path]:
    """Write every row's feedback into ``folder`` (Markdown, and HTML beside it); returns
    {submission: its Markdown file}. Names that would make the same file each get a number."""
    written: dict[str, Path] = {}
    bases = [file_name(str(row.get("submission", ""))) for row in rows]
    # A name that two rows would make (`` bob`` and ``bob``) is nobody's: each gets a number that no
    # other row's file has, so that no folder takes a classmate's file by sorting first or by being
    # named like a numbered one (``bob (1)``).
    counts = Counter(_same_file(base) for base in bases)
    taken = set(counts)
    for row, base in zip(rows, bases):
        name, number = base, 1
        while counts[_same_file(base)] > 1 and _same_file(name) in taken:
            name, number = f"{base} ({number})", number + 1
        taken.add(_same_file(name))
        target = folder / f"{name}.md"
        write_atomically(target, markdown(row, katas, lang).encode("utf-8"))
        write_atomically(folder / f"{name}.html", html_page(row, katas, lang).encode("utf-8"))
        written[str(row.get("submission", ""))] = target
    return written
