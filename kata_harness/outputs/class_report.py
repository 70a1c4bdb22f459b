"""The class report: which pitfalls a class fell into, as one HTML page an instructor opens in a browser.

``grade.py batch DIR --out gradebook.json --report class-report.html`` writes it after grading, and
``grade.py report gradebook.json`` draws it again from a stored gradebook (``summarise`` reads the
rows that ``gradebook.function_entries`` detailed). Pure Python: no torch, no child process.

The page stands alone: inline styles, charts as inline SVG, no script at all. Its Content Security
Policy forbids every script and every request, so it opens offline, prints, and stays inert:
whatever a submission is called, prints or raises is written as text, every string of the
gradebook escaped. Each number that a chart or a table shows is also in a ``data-`` attribute of
its element, so that a browser can read back what it drew (``selftests/test_class_report.py``).
"""

from __future__ import annotations

import html
import json
import statistics
import string
from dataclasses import dataclass, field
from pathlib import Path

from ..content.curriculum import KataInfo
from ..content.messages import message, pick, shortened
from ..files import read_regular, write_atomically
from . import gradebook
from .explanations import section_text
from .gradebook import GRADEBOOK_LIMIT, NOT_GRADED

SOLVED, FAILING, NOT_STARTED = "solved", "failing", "not_started"
PARTS = (SOLVED, FAILING, NOT_STARTED)
COLOURS = {SOLVED: "#2e7d32", FAILING: "#ef6c00", NOT_STARTED: "#c4c4c4"}
# An error in a file the learner never wrote (or a function they never defined) is no attempt.
NOT_STARTED_REASONS = ("error.no_file", "error.not_found")
# A row's keys that are not functions (a row written before ``functions`` listed them is read by these).
ROW_KEYS = ("submission", "score", "max_score", "notes", *gradebook.IDENTITY, *gradebook.LATE, *gradebook.PROVENANCE,
            *gradebook.DETAILS)
BINS = 10            # the histogram's bars: tenths of the maximum score
TEACH_NEXT = 5       # pitfalls in "what to teach next"
SHARED_SHOWN = 25   # names of a shared solution shown at once (more are folded)
EXAMPLE_LIMIT = 300  # characters of an example's call and of what differed (a learner's value can be long)


def progress(row: dict, qualified: str) -> str:
    """Where a submission stands with one function: ``solved``; ``failing`` (attempted: it failed,
    or its code raised, crashed or hung); ``not_started`` (a stub, no file, no such function, or not
    graded). A row without details (a gradebook written before they existed) is read from its points."""
    details = row.get("functions")
    entry = details.get(qualified) if isinstance(details, dict) else None
    if not isinstance(entry, dict):
        return SOLVED if _number(row.get(qualified)) > 0 else NOT_STARTED
    status = entry.get("status")
    if status == "passed":
        return SOLVED
    if status in ("todo", NOT_GRADED) or entry.get("reason") in NOT_STARTED_REASONS:
        return NOT_STARTED
    return FAILING


def _number(value) -> float:
    """A score as a number (anything else, which a hand-edited gradebook may hold, is 0)."""
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _text(value, lang: str) -> str:
    """A text of the gradebook (one language, or ``{"en": ..., "zh": ...}``) as a string."""
    if isinstance(value, dict):
        value = pick(value, lang)
    return value if isinstance(value, str) else ""


def _cut(text: str) -> str:
    return shortened(text, EXAMPLE_LIMIT, "…")


@dataclass
class Pitfall:
    """One pitfall of one function that submissions fell into, with one example of it."""

    qualified: str
    key: str
    title: str
    section: str
    call: str        # the example: the call of the first submission caught by it ...
    differed: str    # ... and what differed there (never its name)
    count: int = 0
    attempted: int = 0   # submissions that attempted the function (solved or failing)

    @property
    def share(self) -> float:
        """The share of the submissions that attempted the function which fell into this pitfall."""
        return self.count / self.attempted if self.attempted else 0.0


@dataclass
class Standing:
    """How the class stands with one function: how many submissions solved it, are failing it, or
    have not started it."""

    qualified: str
    counts: dict = field(default_factory=lambda: dict.fromkeys(PARTS, 0))

    @property
    def attempted(self) -> int:
        """Submissions that solved the function or are failing it."""
        return self.counts[SOLVED] + self.counts[FAILING]


@dataclass
class ClassSummary:
    """Everything the report shows, counted once from the gradebook's rows."""

    max_score: float
    scores: list               # one per submission, in the gradebook's order
    names: list                # the submissions' names, in the same order
    solved: list               # functions solved, per submission
    standings: list            # one ``Standing`` per function, in the gradebook's order
    pitfalls: list             # ``Pitfall``s, largest first

    def quartiles(self) -> tuple[float, float, float]:
        """The lower quartile, the median and the upper quartile of the scores (linear interpolation
        between the closest ranks, as numpy.percentile does)."""
        if len(self.scores) < 2:
            only = self.scores[0] if self.scores else 0.0
            return only, only, only
        low, median, high = statistics.quantiles(self.scores, n=4, method="inclusive")
        return low, median, high

    def histogram(self) -> list[int]:
        """How many scores fall in each tenth of the maximum (the last tenth includes the maximum)."""
        counts = [0] * BINS
        for score in self.scores:
            counts[histogram_bin(score, self.max_score)] += 1
        return counts

    def teach_next(self) -> list[Pitfall]:
        """The ``TEACH_NEXT`` pitfalls that the most submissions fell into (then the largest share):
        3 of 7 is more to teach than 1 of 2."""
        return sorted(self.pitfalls, key=lambda p: (-p.count, -p.share))[:TEACH_NEXT]


def histogram_bin(score: float, max_score: float) -> int:
    """The histogram bar of ``score``: its tenth of ``max_score`` (0 to 9; the maximum is in the last)."""
    if max_score <= 0:
        return 0
    return max(0, min(BINS - 1, int(score * BINS // max_score)))


def function_names(rows: list[dict]) -> list[str]:
    """The gradebook's functions, in order: those its rows' ``functions`` detail, else its columns
    besides the submission, the scores, the notes and the rest of ``ROW_KEYS``."""
    names: dict[str, None] = {}
    for row in rows:
        details = row.get("functions")
        names.update(dict.fromkeys(details if isinstance(details, dict) else (k for k in row if k not in ROW_KEYS)))
    return list(names)


def summarise(rows: list[dict], lang: str) -> ClassSummary:
    """Count the class from the gradebook's ``rows``: scores, each function's standing, each pitfall
    (with the first example of it, in the gradebook's order, and texts in ``lang``)."""
    functions = function_names(rows)
    standings = {q: Standing(q) for q in functions}
    pitfalls: dict[tuple[str, str], Pitfall] = {}
    solved = []
    for row in rows:
        details = row.get("functions")
        details = details if isinstance(details, dict) else {}
        solved_here = 0
        for qualified in functions:
            where = progress(row, qualified)
            standings[qualified].counts[where] += 1
            solved_here += where == SOLVED
            entry = details.get(qualified)
            if where != FAILING or not isinstance(entry, dict) or not isinstance(entry.get("pitfall"), str):
                continue
            found = pitfalls.get((qualified, entry["pitfall"]))
            if found is None:
                found = pitfalls[qualified, entry["pitfall"]] = Pitfall(
                    qualified, entry["pitfall"], _text(entry.get("pitfall_title"), lang) or entry["pitfall"],
                    _text(entry.get("section"), lang), _cut(_text(entry.get("call"), lang)),
                    _cut(_text(entry.get("differed"), lang)))
            found.count += 1
        solved.append(solved_here)
    order = {q: i for i, q in enumerate(functions)}
    for pitfall in pitfalls.values():
        pitfall.attempted = standings[pitfall.qualified].attempted
    ranked = sorted(pitfalls.values(), key=lambda p: (-p.count, -p.share, order[p.qualified], p.key))
    max_score = max((_number(row.get("max_score")) for row in rows), default=0.0)
    return ClassSummary(max_score, [_number(row.get("score")) for row in rows],
                        [_text(row.get("submission"), lang) for row in rows], solved,
                        [standings[q] for q in functions], ranked)


# --- the page ---------------------------------------------------------------------------------

def _e(value) -> str:
    """Any value as HTML text or an attribute's value: markup characters and quotes escaped."""
    return html.escape(str(value), quote=True)


def number_text(value: float) -> str:
    """A number as the report writes it: whole numbers without a point, others to two decimals."""
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0").rstrip(".")


def percent_text(share: float) -> str:
    """A share as a whole percentage: 0.4138 is "41%"."""
    return f"{100 * share:.0f}%"


# Fonts that hold Chinese names on each system, after the Latin ones: macOS (PingFang SC, Hiragino Sans
# GB), Windows (Microsoft YaHei), Linux (Noto Sans CJK SC, Source Han Sans SC, WenQuanYi Micro Hei).
CJK_FONTS = '"PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Noto Sans SC", ' \
            '"Source Han Sans SC", "WenQuanYi Micro Hei"'
SANS = f'system-ui, -apple-system, "Segoe UI", "Noto Sans", {CJK_FONTS}, sans-serif'
MONO = f'ui-monospace, "SFMono-Regular", Menlo, Consolas, "Noto Sans Mono", {CJK_FONTS}, "Noto Sans Mono CJK SC", monospace'
STYLE = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { font: 15px/1.45 SANS; color: #1d1d1f; margin: 0 auto; max-width: 1180px; padding: 24px;
       print-color-adjust: exact; -webkit-print-color-adjust: exact; }
h1 { font-size: 26px; margin: 0 0 4px; } h2 { font-size: 20px; margin: 32px 0 10px; border-bottom: 2px solid #ddd; }
h3 { font-size: 16px; margin: 18px 0 6px; } .muted { color: #5f6368; }
.cards { display: flex; gap: 14px; flex-wrap: wrap; margin: 8px 0 14px; }
.card { border: 1px solid #ddd; border-radius: 8px; padding: 10px 16px; min-width: 170px; }
.card .big { display: block; font-size: 26px; font-weight: 600; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 5px 8px; border-bottom: 1px solid #e4e4e4; }
th { background: #f4f4f4; font-weight: 600; font-size: 14px; } td.num, th.num { text-align: right; } td.num { white-space: nowrap; }
code, .example { font-family: MONO; font-size: 12.5px; white-space: pre-wrap; overflow-wrap: anywhere; }
.example div { color: #5f6368; margin-top: 3px; } .key { color: #5f6368; font-size: 12.5px; }
.legend { display: flex; gap: 16px; margin: 4px 0 8px; } .legend svg { vertical-align: -1px; margin-right: 4px; }
ol.teach li { margin: 6px 0; }
table.pitfalls, table.progress { table-layout: fixed; } col.pitfall { width: 23%; } col.function { width: 17%; }
col.n { width: 108px; } col.bar { width: 280px; } table.progress col.n { width: 60px; }
tr.kata th { background: none; padding-top: 14px; font-size: 15px; }
table.roster { max-width: 720px; } table.progress { max-width: 1000px; }
svg text { font: 11px SANS; fill: #333; }
table.shared { max-width: 1000px; } .together span { display: inline-block; margin: 0 10px 2px 0; }
@page { margin: 14mm; }
@media print { body { font-size: 10pt; padding: 0; max-width: none; } h2 { break-after: avoid; }
               tr, figure, .card, li { break-inside: avoid; } }
""".replace("MONO", MONO).replace("SANS", SANS)


def render(rows: list[dict], katas: list[KataInfo], lang: str, source: str = "") -> str:
    """The class report of the gradebook ``rows`` as one HTML page in ``lang`` (``katas``: the
    curriculum, for titles; ``source``: the gradebook's file name, shown under the title)."""
    summary = summarise(rows, lang)
    titles = {f.qualified: pick(f.title, lang) for kata in katas for f in kata.functions}
    kata_titles = {kata.name: pick(kata.title, lang) for kata in katas}
    heading = message("report.title", lang)
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{_e(lang)}"><head><meta charset="utf-8">',
        # No script may run and nothing may be fetched: the page is inert whatever a learner wrote.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(heading)}</title><style>{STYLE}</style></head><body>",
        f"<header><h1>{_e(heading)}</h1>",
        f'<p class="muted">{_e(message("report.source", lang, file=source))}</p>' if source else "",
        _graded(rows, lang),
        "</header>",
        _glance(summary, lang),
        _teach_next(summary, lang),
        _pitfall_table(summary, titles, lang),
        _progress(summary, titles, kata_titles, lang),
        _shared(rows, kata_titles, lang),
        _roster(summary, rows, lang),
        "</body></html>",
    ]
    return "\n".join(part for part in parts if part) + "\n"


def _glance(summary: ClassSummary, lang: str) -> str:
    low, median, high = summary.quartiles()
    out_of = message("report.out_of", lang, max=number_text(summary.max_score))
    cards = (
        f'<div class="card"><span class="muted">{_e(message("report.submissions", lang))}</span>'
        f'<span class="big" id="submissions" data-value="{len(summary.scores)}">{len(summary.scores)}</span></div>'
        f'<div class="card"><span class="muted">{_e(message("report.median", lang))}</span>'
        f'<span class="big" id="median" data-value="{median!r}">{number_text(median)}</span>'
        f'<span class="muted">{_e(out_of)}</span></div>'
        f'<div class="card"><span class="muted">{_e(message("report.quartiles", lang))}</span>'
        f'<span class="big"><span id="q1" data-value="{low!r}">{number_text(low)}</span> – '
        f'<span id="q3" data-value="{high!r}">{number_text(high)}</span></span>'
        f'<span class="muted">{_e(out_of)}</span></div>'
    )
    return (f'<section id="glance"><h2>{_e(message("report.glance", lang))}</h2><div class="cards">{cards}</div>'
            f'<figure>{_histogram(summary.histogram())}<figcaption class="muted">'
            f'{_e(message("report.histogram", lang))}</figcaption></figure></section>')


def _histogram(counts: list[int]) -> str:
    """Ten bars, one per tenth of the maximum score, each labelled with its count."""
    width, height, top, bottom, bar = 600, 190, 18, 22, 52
    tallest = max(counts) or 1
    shapes = []
    for index, count in enumerate(counts):
        tall = round((height - top - bottom) * count / tallest, 1)
        x, y = 8 + index * (bar + 7), height - bottom - tall
        low, high = index * 100 // BINS, (index + 1) * 100 // BINS
        shapes.append(f'<rect data-bin="{index}" data-count="{count}" x="{x}" y="{y}" width="{bar}" height="{tall}" '
                      f'fill="#3f6fb5"><title>{low}–{high}%: {count}</title></rect>'
                      f'<text x="{x + bar / 2}" y="{y - 4}" text-anchor="middle">{count}</text>'
                      f'<text x="{x + bar / 2}" y="{height - 6}" text-anchor="middle">{low}–{high}%</text>')
    return (f'<svg id="histogram" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">'
            f'<line x1="4" y1="{height - bottom}" x2="{width - 4}" y2="{height - bottom}" stroke="#999"/>'
            + "".join(shapes) + "</svg>")


def _function_cell(qualified: str, titles: dict) -> str:
    """The function's title and its name (which may break after its dot: it is long)."""
    title = titles.get(qualified)
    name = f'<code class="key">{_e(qualified).replace(".", ".<wbr>")}</code>'
    return f"{_e(title)}<br>{name}" if title else name


def _message_html(key: str, lang: str, **fields: str) -> str:
    """The message ``key`` as HTML: its own words escaped, its ``fields`` put in as the HTML they are
    (each caller builds them from escaped parts)."""
    template = message(key, lang)
    return "".join(_e(words) + (fields[name] if name else "") for words, name, _, _ in string.Formatter().parse(template))


def _teach_next(summary: ClassSummary, lang: str) -> str:
    if not summary.pitfalls:
        return ""
    items = "".join(
        f'<li data-function="{_e(p.qualified)}" data-pitfall="{_e(p.key)}">'
        + _message_html("report.teach_item", lang, share=f"<strong>{percent_text(p.share)}</strong>",
                        function=f"<code>{_e(p.qualified)}</code>", count=str(p.count), attempted=str(p.attempted),
                        title=f"<strong>{_e(p.title)}</strong>", section=_e(section_text(p.section, lang)))
        + "</li>" for p in summary.teach_next())
    return f'<section id="teach"><h2>{_e(message("report.teach_next", lang))}</h2><ol class="teach">{items}</ol></section>'


def _share_bar(share: float) -> str:
    return (f'<svg width="64" height="8" viewBox="0 0 64 8" aria-hidden="true"><rect width="64" height="8" fill="#eee"/>'
            f'<rect width="{round(64 * share, 1)}" height="8" fill="{COLOURS[FAILING]}"/></svg>')


def _pitfall_table(summary: ClassSummary, titles: dict, lang: str) -> str:
    heading = f'<section id="pitfalls"><h2>{_e(message("report.pitfalls", lang))}</h2>'
    if not summary.pitfalls:
        return heading + f'<p>{_e(message("report.no_pitfalls", lang))}</p></section>'
    head = "".join(f'<th{cls}>{_e(message(key, lang))}</th>' for key, cls in (
        ("report.col_pitfall", ""), ("report.col_function", ""), ("report.col_count", ' class="num"'),
        ("report.col_share", ' class="num"'), ("report.col_section", ""), ("report.col_example", "")))
    body = []
    for p in summary.pitfalls:
        example = "".join([f"<code>{_e(message('line.called', lang, call=p.call))}</code>" if p.call else "",
                           f"<div>{_e(message('line.differs', lang, text=p.differed))}</div>" if p.differed else ""])
        body.append(
            f'<tr data-function="{_e(p.qualified)}" data-pitfall="{_e(p.key)}" data-count="{p.count}" '
            f'data-attempted="{p.attempted}"><td><strong>{_e(p.title)}</strong><br><span class="key">{_e(p.key)}</span></td>'
            f'<td>{_function_cell(p.qualified, titles)}</td><td class="num">{p.count}</td>'
            f'<td class="num" data-share="{p.share!r}">{percent_text(p.share)}<br>{_share_bar(p.share)}</td>'
            f'<td>{_e(section_text(p.section, lang))}</td><td class="example">{example}</td></tr>')
    return (heading + f'<p class="muted">{_e(message("report.pitfalls_intro", lang))}</p>'
            f'<table class="pitfalls"><colgroup><col class="pitfall"><col class="function"><col class="n"><col class="n">'
            f'<col class="n"><col></colgroup><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></section>')


def _swatch(part: str) -> str:
    return f'<svg width="11" height="11" aria-hidden="true"><rect width="11" height="11" fill="{COLOURS[part]}"/></svg>'


def _stacked_bar(standing: Standing, total: int) -> str:
    """One bar: solved, failing and not started side by side, each as wide as its share of the class."""
    width, x, shapes = 260.0, 0.0, []
    for part in PARTS:
        count = standing.counts[part]
        wide = round(width * count / total, 2) if total else 0.0
        shapes.append(f'<rect data-part="{part}" data-count="{count}" x="{round(x, 2)}" width="{wide}" height="14" '
                      f'fill="{COLOURS[part]}"><title>{count}</title></rect>')
        x += wide
    return (f'<svg class="stack" data-function="{_e(standing.qualified)}" width="{int(width)}" height="14" '
            f'viewBox="0 0 {int(width)} 14" role="img">' + "".join(shapes) + "</svg>")


def _progress(summary: ClassSummary, titles: dict, kata_titles: dict, lang: str) -> str:
    """One table for every function, under a heading row per kata, so that the bars line up."""
    legend = "".join(f"<span>{_swatch(part)}{_e(message('report.' + part, lang))}</span>" for part in PARTS)
    head = "".join(f'<th class="num">{_swatch(part)}</th>' for part in PARTS)
    total = len(summary.scores)
    rows, current = [], None
    for standing in summary.standings:
        kata, _, name = standing.qualified.partition(".")
        if kata != current:
            title = kata_titles.get(kata)
            rows.append(f'<tr class="kata"><th colspan="5">{_e(kata)}{" — " + _e(title) if title else ""}</th></tr>')
            current = kata
        title = titles.get(standing.qualified)
        counts = "".join(f'<td class="num">{standing.counts[part]}</td>' for part in PARTS)
        rows.append(f'<tr><td>{_e(title) + " " if title else ""}<code class="key">{_e(name or kata)}</code></td>'
                    f'<td>{_stacked_bar(standing, total)}</td>{counts}</tr>')
    return (f'<section id="progress"><h2>{_e(message("report.progress", lang))}</h2>'
            f'<div class="legend">{legend}</div><table class="progress"><colgroup><col><col class="bar"><col class="n">'
            f'<col class="n"><col class="n"></colgroup><thead><tr><th>{_e(message("report.col_function", lang))}</th>'
            f'<th></th>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></section>')


def _time_text(stamp: str) -> str:
    """``2026-12-01T10:05:00Z`` as the report writes it: ``2026-12-01 10:05``."""
    return stamp.replace("T", " ")[:16] if len(stamp) >= 16 else stamp


def _graded(rows: list[dict], lang: str) -> str:
    """When (UTC), by which commit of the project, and how (official or practice) the rows were
    graded: a range where the cache kept rows of earlier runs."""
    stamps = sorted(str(row["graded_at"]) for row in rows if row.get("graded_at"))
    if not stamps:
        return ""
    when = _time_text(stamps[0]) + (f" – {_time_text(stamps[-1])}" if _time_text(stamps[-1]) != _time_text(stamps[0]) else "")
    projects = sorted({str(row.get("project")) for row in rows if row.get("project")}) or ["unknown"]
    officials = {bool(row.get("official")) for row in rows if "official" in row}
    how = "report.mixed" if len(officials) > 1 else "report.official" if officials == {True} else "report.practice"
    return (f'<p class="muted" id="graded" data-from="{_e(stamps[0])}" data-to="{_e(stamps[-1])}" '
            f'data-project="{_e(", ".join(projects))}" data-official="{_e(how.rpartition(".")[2])}">'
            f'{_e(message("report.graded", lang, when=when, project=", ".join(projects), how=message(how, lang)))}</p>')


def shared_solutions(rows: list[dict]) -> list[tuple[str, tuple[str, ...]]]:
    """The gradebook's clusters of shared solutions ((kata, submissions)), the largest first: as the
    rows list them, or, for a cluster too large to be listed on each row, the rows whose
    fingerprint of that kata is the same."""
    found: dict[tuple[str, tuple[str, ...]], None] = {}
    unlisted: dict[tuple[str, str], list[str]] = {}
    for row in rows:
        for item in row.get("shared") or ():
            if not isinstance(item, dict):
                continue
            kata = str(item.get("kata", ""))
            if isinstance(item.get("submissions"), list):
                found[kata, tuple(str(name) for name in item["submissions"])] = None
            elif isinstance(row.get("fingerprints"), dict) and kata in row["fingerprints"]:
                unlisted.setdefault((kata, str(row["fingerprints"][kata])), []).append(str(row.get("submission", "")))
    found.update(dict.fromkeys((kata, tuple(sorted(names))) for (kata, _), names in unlisted.items()))
    return sorted(found, key=lambda cluster: (-len(cluster[1]), cluster[0], cluster[1]))


def _shared(rows: list[dict], kata_titles: dict, lang: str) -> str:
    heading = (f'<section id="shared"><h2>{_e(message("report.shared", lang))}</h2>'
               f'<p class="muted">{_e(message("report.shared_intro", lang))}</p>')
    clusters = shared_solutions(rows)
    if not clusters:
        return heading + f'<p>{_e(message("report.no_shared", lang))}</p></section>'
    body = "".join(
        f'<tr data-kata="{_e(kata)}" data-count="{len(names)}"><td>{_e(kata)}'
        f'{"<br>" + _e(kata_titles[kata]) if kata in kata_titles else ""}</td>'
        f'<td class="num">{len(names)}</td><td class="together">{_names(names, lang)}</td></tr>'
        for kata, names in clusters)
    head = (f'<th>{_e(message("report.col_kata", lang))}</th><th class="num">{_e(message("report.col_count", lang))}</th>'
            f'<th>{_e(message("report.col_together", lang))}</th>')
    return heading + f'<table class="shared"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></section>'


def _names(names: tuple[str, ...], lang: str) -> str:
    """The submissions of a cluster; a long list folded (a common way to write a short kata)."""
    spans = "".join(f"<span>{_e(n)}</span>" for n in names)
    if len(names) <= SHARED_SHOWN:
        return spans
    return f'<details><summary>{_e(message("report.common", lang, count=len(names)))}</summary>{spans}</details>'


def _roster(summary: ClassSummary, rows: list[dict], lang: str) -> str:
    functions = len(summary.standings)
    out_of = number_text(summary.max_score)
    students = any(row.get("student") for row in rows)
    late = any("penalty" in row for row in rows)
    cells = []
    for row, name, score, solved in zip(rows, summary.names, summary.scores, summary.solved):
        student = f'<td class="student">{_e(row.get("student", ""))}</td>' if students else ""
        penalty = _number(row.get("penalty"))
        taken = f'<td class="num" data-penalty="{penalty!r}">{"−" + number_text(penalty) if penalty else ""}</td>' if late else ""
        cells.append(f'<tr><td class="name">{_e(name)}</td>{student}<td class="num" data-score="{score!r}">'
                     f'{number_text(score)} / {out_of}</td>{taken}<td class="num" data-solved="{solved}">{solved} / '
                     f'{functions}</td></tr>')
    rows_html = "".join(cells)
    head = (f'<th>{_e(message("report.col_submission", lang))}</th>'
            + (f'<th>{_e(message("report.col_student", lang))}</th>' if students else "")
            + f'<th class="num">{_e(message("report.col_score", lang))}</th>'
            + (f'<th class="num">{_e(message("report.col_late", lang))}</th>' if late else "")
            + f'<th class="num">{_e(message("report.col_solved", lang))}</th>')
    return (f'<section id="roster"><h2>{_e(message("report.roster", lang))}</h2>'
            f'<table class="roster"><thead><tr>{head}</tr></thead><tbody>{rows_html}</tbody></table></section>')


# --- reading a gradebook, writing the page -----------------------------------------------------

class NotAGradebook(ValueError):
    """A file that is not a JSON gradebook of ``grade.py batch``: the message key and its fields."""

    def __init__(self, key: str, **fields):
        super().__init__(key)
        self.key, self.fields = key, fields


def read_gradebook(path: Path, empty: bool = False) -> list[dict]:
    """The rows of the JSON gradebook at ``path``; raises ``NotAGradebook`` (a CSV one holds no
    pitfalls; one without rows, unless ``empty``: a shard of a small class may hold none), or
    ``OSError`` when it cannot be read."""
    if path.suffix.lower() == ".csv":
        raise NotAGradebook("report.csv", file=str(path))
    try:
        rows = json.loads(read_regular(path, GRADEBOOK_LIMIT).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise NotAGradebook("report.not_a_gradebook", file=str(path), why=str(error)[:200]) from None
    except RecursionError:   # a gradebook nests a few levels, never thousands
        raise NotAGradebook("report.not_a_gradebook", file=str(path), why="nested too deep") from None
    if not isinstance(rows, list) or not all(isinstance(row, dict) and "submission" in row for row in rows):
        raise NotAGradebook("report.not_a_gradebook", file=str(path), why="not a list of rows with a submission")
    if not rows and not empty:
        raise NotAGradebook("report.not_a_gradebook", file=str(path), why="no rows")
    return rows


def write(path: Path, rows: list[dict], katas: list[KataInfo], lang: str, source: str = "") -> None:
    """Write the class report of ``rows`` to ``path`` (atomically), in ``lang``."""
    write_atomically(path, render(rows, katas, lang, source).encode("utf-8"))
