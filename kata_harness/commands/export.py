"""``grade.py export GRADEBOOK.json (--canvas CANVAS_EXPORT.csv --column NAME | --moodle) --out FILE.csv``:
a JSON gradebook's scores as a learning platform imports them (``platforms.lms``).

A light command: it reads two files and writes one, with neither torch nor a child process. The
students it could not place (the platform's without a row, the gradebook's without a student
there) are listed on standard error, one per line, so that nobody is left out unnoticed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..files import read_regular, write_atomically
from ..outputs import class_report
from ..platforms import lms
from ..term.tables import TABLE_LIMIT
from . import UsageError


def run(args, *, started: float) -> int:
    """Read the gradebook (and the Canvas export), write the file to import, name who was not placed."""
    if bool(args.canvas) == bool(args.moodle):
        raise UsageError("export: give --canvas CANVAS_EXPORT.csv --column NAME, or --moodle")
    if args.canvas and not args.column:
        raise UsageError("export: --canvas needs --column NAME (the assignment to fill, or to add)")
    rows = _rows(Path(args.gradebook))
    try:
        made = lms.canvas(rows, _text(Path(args.canvas)), args.column) if args.canvas else lms.moodle(rows)
    except lms.ExportError as error:
        raise UsageError(f"export: {args.canvas}: {error}") from None
    out = Path(args.out)
    try:
        write_atomically(out, made.text.encode("utf-8"))
    except OSError as error:
        raise UsageError(f"export: cannot write {out} ({error.strerror or error})") from None
    for name in made.unfilled:
        print(f"export: no score for {name} (no row of the gradebook matches them): left blank", file=sys.stderr)
    for name in made.unplaced:
        print(f"export: {name} matches no student of the platform's file (add email or id with --roster): "
              f"left out", file=sys.stderr)
    placed = len(rows) - len(made.unplaced)
    print(f"export: {placed} of {len(rows)} scores -> {out}", file=sys.stderr)
    return 0


def _rows(path: Path) -> list[dict]:
    try:
        return class_report.read_gradebook(path)
    except class_report.NotAGradebook:
        raise UsageError(f"export: {path} is not a JSON gradebook of grade.py batch (a CSV one keeps no details: "
                         f"grade with --out FILE.json)") from None
    except OSError as error:
        raise UsageError(f"export: cannot read {path} ({error.strerror or error})") from None


def _text(path: Path) -> str:
    try:
        return read_regular(path, TABLE_LIMIT).decode("utf-8")
    except OSError as error:
        raise UsageError(f"export: cannot read {path} ({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise UsageError(f"export: {path} is not UTF-8 (Canvas exports UTF-8; save it again as CSV UTF-8)") from None
