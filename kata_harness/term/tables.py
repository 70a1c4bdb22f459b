"""The instructor's CSV files (a roster, a record of submission times, extensions, a Canvas
export), read one way: UTF-8 with or without a byte order mark, a header naming the columns, at
most a few megabytes, each line numbered for the message that refuses it."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from ..files import read_regular

TABLE_LIMIT = 64 << 20   # bytes: far above the roster or the submission record of any class


class TableError(ValueError):
    """A file that cannot be read as the table it should be; the message says which and why."""


def read_table(path: Path, required: tuple[str, ...], what: str) -> list[tuple[int, dict[str, str]]]:
    """The rows of the CSV file ``path`` as (line number, {column: cell}), every cell stripped of
    surrounding spaces; raises ``TableError`` when it cannot be read, is not UTF-8, or its header
    lacks a ``required`` column or names a column twice (``what`` names the file in the message:
    "the roster")."""
    try:
        text = read_regular(path, TABLE_LIMIT).decode("utf-8-sig")
    except OSError as error:
        raise TableError(f"{what} {path}: cannot be read ({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise TableError(f"{what} {path}: not UTF-8 text (save it as CSV UTF-8)") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = [name.strip() for name in reader.fieldnames or []]
    twice = repeated_columns(header)
    if twice:
        named = f"the columns {', '.join(twice)} are" if len(twice) > 1 else f"the column {twice[0]} is"
        raise TableError(f"{what} {path}, line {reader.line_num}: {named} named more than once (nothing says which one "
                         f"holds the students' cells: keep one, rename or remove the others)")
    missing = [name for name in required if name not in header]
    if missing:
        raise TableError(f"{what} {path}: no column {', '.join(missing)} in its first line (it has: "
                         f"{', '.join(header) or 'nothing'})")
    reader.fieldnames = header
    rows = []
    try:
        for row in reader:
            cells = {name: (value or "").strip() for name, value in row.items() if isinstance(name, str)}
            if any(cells.values()):
                rows.append((reader.line_num, cells))
    except csv.Error as error:
        raise TableError(f"{what} {path}, line {reader.line_num}: {error}") from None
    return rows


def repeated_columns(header: list[str]) -> list[str]:
    """The column names ``header`` holds more than once, case aside (``email`` and ``Email``: a
    reader would keep one and drop the other without a word); unnamed columns (a spreadsheet's
    trailing commas) do not count."""
    seen: dict[str, str] = {}
    twice: dict[str, None] = {}
    for name in filter(None, header):
        if name.casefold() in seen:
            twice[seen[name.casefold()]] = None
        seen.setdefault(name.casefold(), name)
    return list(twice)
