"""The roster: who each submission is. ``batch --roster ROSTER.csv`` reads a CSV whose header names
``submission`` (the submission folder's name), ``student`` (their name as people write it),
``email`` and ``id`` (the learning platform's identifiers: an SIS login or a student number); more
columns are allowed. Both gradebooks then carry ``student``, ``email`` and ``id``; a submission the
roster does not list is graded and noted; a student it lists without a submission gets a row of
zeros noted "no submission". The identifiers are kept as written (a name that looks like a
formula included), so that the exports can match them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..content.curriculum import FunctionInfo
from ..outputs import gradebook
from . import identity
from .record import name_key
from .tables import TableError, read_table

COLUMNS = ("submission", "student", "email", "id")
IDENTITY = COLUMNS[1:]          # what a row gains from the roster
UNIQUE = ("submission", "email", "id")   # one student's each: two lines with one are refused
NO_SUBMISSION = "no submission"
NOT_ROSTERED = "not on the roster"


class RosterError(ValueError):
    """A roster that cannot be used; the message says why."""


@dataclass(frozen=True)
class Student:
    """One line of the roster."""

    submission: str
    student: str
    email: str
    id: str

    def identity(self) -> dict[str, str]:
        """What a gradebook row carries of the student."""
        return {"student": self.student, "email": self.email, "id": self.id}


@dataclass(frozen=True)
class Roster:
    """The roster's students, in its order."""

    students: tuple[Student, ...]

    def find(self, submission: str) -> Student | None:
        """The student of the submission folder ``submission`` (case aside), if the roster lists one."""
        key = name_key(submission)
        return next((s for s in self.students if name_key(s.submission) == key), None)

    def find_by(self, column: str, value: str) -> Student | None:
        """The student whose ``email``, ``id`` or ``student`` name is ``value`` (an email without
        regard to case)."""
        same = (lambda a, b: a.casefold() == b.casefold()) if column == "email" else (lambda a, b: a == b)
        return next((s for s in self.students if getattr(s, column) and same(getattr(s, column), value)), None)


def read_roster(path: Path) -> Roster:
    """The roster in ``path``; raises RosterError naming the lines (a missing column, a submission
    folder, an email or an id on two lines)."""
    try:
        rows = read_table(path, COLUMNS, "the roster")
    except TableError as error:
        raise RosterError(str(error)) from None
    students: list[Student] = []
    seen: dict[tuple[str, str], int] = {}   # (column, its value as compared) -> the line that has it
    for line, cells in rows:
        if not cells["submission"]:
            raise RosterError(f"the roster {path}, line {line}: no submission folder named")
        for column in UNIQUE:
            if not cells[column]:
                continue   # an id the platform has not given yet is nobody's
            value = (column, _compared(column, cells[column]))
            if value in seen:
                raise RosterError(f"the roster {path}, line {line}: {column} {cells[column]} is on line "
                                  f"{seen[value]} too: one {column} is one student's, so nothing says which "
                                  f"line is theirs (the exports would give one of them both grades)")
            seen[value] = line
        students.append(Student(cells["submission"], cells["student"], cells["email"], cells["id"]))
    return Roster(tuple(students))


def _compared(column: str, value: str) -> str:
    """``value`` as the roster's look-ups compare it: a submission folder by its one identity, an
    email without regard to case, an id as written."""
    if column == "submission":
        return name_key(value)
    return value.casefold() if column == "email" else value


def with_identity(row: dict, student: Student | None, note: str = NOT_ROSTERED) -> dict:
    """``row`` with the roster's columns right after its submission (empty when unrostered), and
    ``note`` when it carries no student."""
    columns = student.identity() if student else dict.fromkeys(IDENTITY, "")
    ordered = {"submission": row["submission"], **columns, **{k: v for k, v in row.items() if k not in IDENTITY}}
    if student is None:
        ordered["notes"] = "; ".join(filter(None, [row.get("notes", ""), note]))
    return ordered


def join(rows: list[dict], roster: Roster, functions: list[FunctionInfo],
         keep: Callable[[str], bool] = lambda name: True) -> list[dict]:
    """The gradebook ``rows`` with the roster's columns, and a row of zeros noted "no submission"
    for each student it lists (and ``keep`` keeps: a shard's own) whose submission no row holds.
    Rows whose names are one identity (``Bob`` and ``bob``) carry no student: neither is guessed."""
    clashing = identity.clashes(str(row["submission"]) for row in rows)
    joined = [with_identity(row, None, "two submissions are this student's: the roster's columns are on neither")
              if row["submission"] in clashing else with_identity(row, roster.find(row["submission"]))
              for row in rows]
    present = {name_key(row["submission"]) for row in rows}
    for student in roster.students:
        if name_key(student.submission) not in present and keep(student.submission):
            joined.append(with_identity(gradebook.row(student.submission, [NO_SUBMISSION], functions, None), student))
    return joined
