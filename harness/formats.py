"""grade.py's outputs: the JSON document (DESIGN.md's schema) and the learner's text table."""

from __future__ import annotations

from .catalog import FunctionInfo, KataInfo
from .grading import Grading
from .integrity import Integrity
from .report import Verdict, render
from .text import message, pick

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
            passed = verdict.status == "passed"
            entry = {"name": info.name, "status": verdict.status, "score": info.points if passed else 0,
                     "max_score": info.points, "message": render(verdict, info, lang, solutions=solutions),
                     "hint": "" if passed else info.hint(1, lang)}
            if verdict.skipped:
                entry["skipped"] = list(verdict.skipped)
            functions.append(entry)
        if functions:
            kata_entries.append({"kata": kata.name, "score": sum(f["score"] for f in functions),
                                 "max_score": sum(f["max_score"] for f in functions), "functions": functions})
    return {
        "score": sum(k["score"] for k in kata_entries),
        "max_score": sum(k["max_score"] for k in kata_entries),
        "graded_against": graded_against,
        "integrity": (integrity or Integrity()).as_json(),
        "katas": kata_entries,
    }


def _bar(done: int, total: int, width: int = 20) -> str:
    filled = round(width * done / total) if total else width
    return "█" * filled + "░" * (width - filled)


def _first_line(verdict: Verdict, info: FunctionInfo, lang: str, solutions: str) -> str:
    if verdict.status == "todo":
        return message("status.todo", lang)
    lines = render(verdict, info, lang, solutions=solutions, hint=False).splitlines()
    # The line that says what differed (or the error), without the "Called" line above it.
    return next((line for line in lines if not line.startswith(message("called", lang))), lines[0] if lines else "")


def integrity_text(integrity: Integrity, lang: str) -> str:
    """Which grading files differ from the template, and how to put them back."""
    folders = sorted({entry.split("/")[0].split(" ")[0] for entry in integrity.modified})
    return message("integrity.changed", lang, files=", ".join(integrity.modified), paths=" ".join(folders))


def text(doc: dict, katas: list[KataInfo], grading: Grading, *, lang: str, solutions: str,
         integrity: Integrity | None = None) -> str:
    """The learner's view: a table per kata with progress, the total, and what to do next."""
    infos = {f.qualified: f for kata in katas for f in kata.functions}
    titles = {kata.name: pick(kata.title, lang) for kata in katas}
    out, next_up, skipped = [], None, False
    if integrity and not integrity.ok:
        out += [integrity_text(integrity, lang), ""]
    for kata in doc["katas"]:
        out.append(f"{kata['kata']}  {titles[kata['kata']]}")
        out.append(f"  {_bar(kata['score'], kata['max_score'])}  {kata['score']}/{kata['max_score']}")
        width = max(len(f["name"]) for f in kata["functions"])
        for entry in kata["functions"]:
            info = infos[f"{kata['kata']}.{entry['name']}"]
            verdict = grading.verdicts[info.qualified]
            skipped = skipped or bool(entry.get("skipped"))
            detail = pick(info.title, lang) if entry["status"] == "passed" else \
                _first_line(verdict, info, lang, solutions)
            out.append(f"  {MARKS[entry['status']]} {entry['name']:<{width}}  "
                       f"{entry['score']}/{entry['max_score']}  {detail}")
            if next_up is None and entry["status"] != "passed":
                next_up = (info, entry)
        out.append("")
    if skipped:
        out.append(message("skipped.cuda", lang))
    out.append(f"{message('grade.score', lang)} {doc['score']}/{doc['max_score']}")
    if next_up:
        info, entry = next_up
        out.append("")
        out.append(f"{message('grade.next', lang)}: {info.qualified} — {pick(info.title, lang)} ({info.section})")
        out.extend("  " + line for line in entry["message"].splitlines())
        out.append("  " + message("grade.run_hint", lang, test_path=f"tests/test_{info.kata}.py", function=info.name))
    elif doc["katas"]:
        out.append(message("grade.all_done", lang))
    return "\n".join(out)
