"""Scores into a learning platform: the instructor's own Canvas gradebook export filled in, or the
rows Moodle's CSV grade import maps.

Canvas imports only a file shaped like its export: its leading columns (``Student``, ``ID``, ``SIS
User ID``, ``SIS Login ID``, ``Section``; ``Integration ID`` where it has one), one row per student
and the ``Points Possible`` row; every other column is an assignment (an unknown one becomes a new
assignment). So ``canvas`` keeps the export's leading columns, rows and ``Points Possible`` row and
writes one assignment column: the named one, filled (an existing ``Katas (12345)`` for ``--column
Katas``), or added. A student is matched through the gradebook's ``email`` or ``id`` (the roster's)
to ``SIS Login ID``, ``ID`` or ``SIS User ID``, else through the submission's name (its identity,
``identity.key``); a student who cannot be matched, or whom two rows match, keeps a blank cell.
``moodle`` writes ``email,grade`` (or ``idnumber,grade``
where the gradebook has more ids than emails).

The identifiers are written as the gradebook and the export hold them, so that the platform can
match them: a login that starts with ``=`` or ``-`` stays as it is. Only the cells that people
read and nothing matches on (a student's display name, the section) get the ``'`` that keeps a
spreadsheet from running them as formulas.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from ..outputs.gradebook import neutralise
from ..term import identity
from ..term.late import number
from ..term.tables import repeated_columns

LEADING = ("Student", "ID", "SIS User ID", "SIS Login ID", "Integration ID", "Root Account", "Section")
DISPLAY = ("Student", "Section")          # read by people, matched by nothing: neutralised
POINTS_POSSIBLE = "Points Possible"


class ExportError(ValueError):
    """An export that cannot be made; the message says why."""


@dataclass
class Export:
    """What an export wrote, and who it could not place: the platform's students without a row
    (``unfilled``) and the gradebook's rows without a student there (``unplaced``)."""

    text: str
    unfilled: list[str] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)


def _score(row: dict) -> str:
    value = row.get("score")
    return str(number(value)) if isinstance(value, (int, float)) and not isinstance(value, bool) else ""


def _column(header: list[str], name: str, leading: int) -> int | None:
    """The index of the assignment column ``name`` in a Canvas header: that name, or that name with
    Canvas's assignment number after it (``Katas (12345)``); None when there is none."""
    for index, title in enumerate(header[leading:], leading):
        if title == name or (title.startswith(name + " (") and title.endswith(")") and title[len(name) + 2:-1].isdigit()):
            return index
    return None


def _matcher(rows: list[dict]):
    """A function from a Canvas line ({column: cell}) to the gradebook row of that student (or None)."""
    keyed: dict[tuple[str, str], dict | None] = {}
    for row in rows:
        for kind, value in (("email", row.get("email")), ("id", row.get("id")), ("name", row.get("submission"))):
            if isinstance(value, str) and value:
                found = (kind, _key(kind, value))
                # Two rows with one key (two folders of one student): neither is guessed (None).
                keyed[found] = None if found in keyed and keyed[found] is not row else row

    def match(line: dict) -> dict | None:
        login, canvas_id, sis = line.get("SIS Login ID", ""), line.get("ID", ""), line.get("SIS User ID", "")
        for kind, value in (("email", login), ("id", login), ("id", canvas_id), ("id", sis),
                            ("name", login), ("name", canvas_id)):
            found = (kind, _key(kind, value))
            if value and found in keyed:
                return keyed[found]
        return None
    return match


def _key(kind: str, value: str) -> str:
    """How an identifier is compared: an id as written, an email case aside, a submission's name by
    its identity (``identity.key``)."""
    return value if kind == "id" else value.casefold() if kind == "email" else identity.key(value)


def canvas(rows: list[dict], export: str, column: str) -> Export:
    """The Canvas gradebook ``export`` (its text) with the gradebook ``rows``' scores in the
    assignment ``column``; raises ExportError when ``export`` is not a Canvas gradebook export,
    names a column twice, or holds more than one column that is ``column``."""
    lines = list(csv.reader(io.StringIO(export.removeprefix("\ufeff"), newline="")))
    if not lines or [cell.strip() for cell in lines[0][:2]] != ["Student", "ID"]:
        raise ExportError("not a Canvas gradebook export (its first line must start with Student,ID: "
                          "Grades -> Export -> Export Entire Gradebook)")
    header = [cell.strip() for cell in lines[0]]
    if twice := repeated_columns(header):
        raise ExportError(f"the Canvas export, line 1: {', '.join(twice)} named more than once (nothing says "
                          f"which one to match or fill: export the gradebook again)")
    leading = next((i for i, title in enumerate(header) if title not in LEADING), len(header))
    if len(named := [title for title in header[leading:] if _column([title], column, 0) is not None]) > 1:
        raise ExportError(f"the Canvas export, line 1: {', '.join(named)} are all the assignment {column} "
                          f"(give --column the whole title of the one to fill)")
    found = _column(header, column, leading)
    title = header[found] if found is not None else column
    maximum = max((row.get("max_score", 0) for row in rows if isinstance(row.get("max_score"), (int, float))), default=0)
    match, used = _matcher(rows), set()
    result = Export("")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header[:leading] + [title])
    for cells in lines[1:]:
        line = dict(zip(header, cells + [""] * (len(header) - len(cells))))
        kept = [neutralise(cell) if header[i] in DISPLAY else cell for i, cell in enumerate(cells[:leading])]
        kept += [""] * (leading - len(kept))
        if line.get("Student", "").strip() == POINTS_POSSIBLE:
            writer.writerow(kept + [str(number(maximum))])
            continue
        row = match(line) if line.get("ID") else None
        if row is None:
            if line.get("ID"):
                result.unfilled.append(line.get("Student") or line["ID"])
            writer.writerow(kept + [""])
            continue
        used.add(id(row))
        writer.writerow(kept + [_score(row)])
    result.unplaced = [row["submission"] for row in rows if id(row) not in used]
    result.text = ("\ufeff" if export.startswith("\ufeff") else "") + out.getvalue()
    return result


def moodle(rows: list[dict]) -> Export:
    """``email,grade`` rows (``idnumber,grade`` where the gradebook has more ids than emails),
    which Moodle's Grades -> Import -> CSV file maps to a user field and a grade item."""
    graded = [row for row in rows if _score(row)]
    key = "id" if sum(bool(row.get("id")) for row in graded) > sum(bool(row.get("email")) for row in graded) else "email"
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["email" if key == "email" else "idnumber", "grade"])
    result = Export("")
    for row in graded:
        if row.get(key):
            writer.writerow([row[key], _score(row)])
        else:
            result.unplaced.append(row["submission"])
    result.text = out.getvalue()
    return result
