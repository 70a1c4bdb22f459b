"""The late policy: a deadline (``batch --at DATE``), per-student deadlines (``--extensions FILE``)
and penalty rules (``--late CUTOFF=FACTOR``, as many as wanted), applied to the times of the
instructor's record (``record``), never to a date the student wrote.

A submission made by its deadline keeps its score; one made later is worth the factor of the first
rule whose cutoff it meets (``--late 2026-12-03T23:59Z=0.8 --late 2026-12-07T23:59Z=0.5``: 80 %
until the 3rd, half until the 7th); after the last cutoff nothing counts. An extension moves a
student's deadline, and their cutoffs with it by as much. The row keeps the points it earned
(``raw_score``), the factor (``late_factor``), the points taken off (``penalty``) and what counts
(``final_score``, also its ``score``).

The extensions file is a CSV with a header naming ``deadline`` (or ``due``) and one of
``submission``, ``email``, ``id`` or ``student`` (the roster's columns, to say who it is); more
columns are allowed.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from .record import name_key, parse_time, time_text
from .roster import Roster
from .tables import TableError, read_table


class PolicyError(ValueError):
    """A late rule or an extensions file that cannot be used; the message says why."""


@dataclass(frozen=True)
class LateRule:
    """Submissions made by ``until`` (and after the deadline, or an earlier rule's cutoff) keep
    ``factor`` of their points."""

    until: datetime
    factor: float


def parse_rule(text: str) -> LateRule:
    """``--late CUTOFF=FACTOR`` (``2026-12-03T23:59Z=0.8``); raises PolicyError."""
    moment, sep, factor = text.rpartition("=")
    try:
        value = float(factor)
    except ValueError:
        value = -1.0
    if not sep or not 0 <= value <= 1:
        raise PolicyError(f"--late {text}: write CUTOFF=FACTOR, a date and a factor from 0 to 1 "
                          f"(--late 2026-12-03T23:59Z=0.8)")
    try:
        return LateRule(parse_time(moment), value)
    except ValueError as error:
        raise PolicyError(f"--late {text}: {error}") from None


@dataclass(frozen=True)
class Policy:
    """The deadline, the extensions (submission folder's name, as ``name_key`` writes it -> its
    deadline) and the late rules (by cutoff)."""

    deadline: datetime
    rules: tuple[LateRule, ...] = ()
    extensions: dict[str, datetime] = field(default_factory=dict)

    def __post_init__(self):
        ordered = tuple(sorted(self.rules, key=lambda rule: rule.until))
        for rule in ordered:
            if rule.until <= self.deadline:
                raise PolicyError(f"--late {time_text(rule.until)}: a cutoff must come after the deadline "
                                  f"{time_text(self.deadline)}")
        if len({rule.until for rule in ordered}) < len(ordered):
            raise PolicyError("--late: two rules with the same cutoff")
        object.__setattr__(self, "rules", ordered)

    def deadline_for(self, name: str) -> datetime:
        """The deadline of the submission ``name``: its extension, else everyone's."""
        return self.extensions.get(name_key(name), self.deadline)

    def _shift(self, name: str) -> timedelta:
        return self.deadline_for(name) - self.deadline

    def last_accepted(self, name: str) -> datetime:
        """The last moment a submission of ``name`` counts: its deadline, or its last cutoff."""
        return (self.rules[-1].until + self._shift(name)) if self.rules else self.deadline_for(name)

    def factor(self, name: str, at: datetime) -> float:
        """The share of its points a submission of ``name`` made at ``at`` keeps."""
        if at <= self.deadline_for(name):
            return 1.0
        for rule in self.rules:
            if at <= rule.until + self._shift(name):
                return rule.factor
        return 0.0


def read_extensions(path: Path, roster: Roster | None, known: Collection[str] | None = None) -> dict[str, datetime]:
    """{submission folder's name (``name_key``): its deadline} from the extensions file, whose lines
    name a student by ``submission``, or by ``email`` or ``id`` through the roster; raises PolicyError
    naming the lines where two name one student, or where one names a student the class does not
    have: neither on the roster nor among the ``known`` names (its folders, the record's
    submissions; None: not checked but against the roster). A typo must not leave a student's own
    deadline where it was."""
    try:
        rows = read_table(path, (), "the extensions file")
    except TableError as error:
        raise PolicyError(str(error)) from None
    extended: dict[str, datetime] = {}
    lines: dict[str, int] = {}
    keys = None if known is None else {name_key(name) for name in known}
    for line, cells in rows:
        if "deadline" not in cells and "due" not in cells:
            raise PolicyError(f"the extensions file {path}: no column deadline (or due) in its first line")
        where = f"{path}, line {line}"
        name = cells.get("submission") or _rostered(cells, roster, where)
        key = name_key(name)
        rostered = roster is not None and roster.find(name) is not None
        if not rostered and (roster is not None or keys is not None) and key not in (keys or ()):
            checked = ("not on the roster, " if roster is not None else "") + "no folder of the class, no submission in the record"
            raise PolicyError(f"the extensions file {where}: {name} is no student of the class ({checked}): a "
                              f"misspelt name would leave the student's own deadline unmoved")
        if key in lines:
            raise PolicyError(f"the extensions file {where}: {name} has an extension on line {lines[key]} too "
                              f"(one deadline per student: keep one line)")
        lines[key] = line
        try:
            extended[key] = parse_time(cells.get("deadline") or cells.get("due", ""))
        except ValueError as error:
            raise PolicyError(f"the extensions file {where}: {error}") from None
    return extended


def _rostered(cells: dict, roster: Roster | None, where: str) -> str:
    """The submission folder of the student an extension names by email or id, through the roster."""
    for column in ("email", "id", "student"):
        if cells.get(column):
            if roster is None:
                raise PolicyError(f"the extensions file {where}: names a student by {column}, which needs --roster")
            found = roster.find_by(column, cells[column])
            if found is None:
                raise PolicyError(f"the extensions file {where}: no student with {column} {cells[column]} in the roster")
            return found.submission
    raise PolicyError(f"the extensions file {where}: name the student (submission, email, id or student)")


def number(value: float) -> float | int:
    """A score as the gradebook writes it: a whole number without a fraction, else two decimals."""
    value = round(value, 2)
    return int(value) if float(value).is_integer() else value


def penalised(row: dict, policy: Policy, submitted_at: datetime | None) -> dict:
    """``row`` with the late policy applied to the submission it graded, made at ``submitted_at``
    (None: nothing of it counted; the row is all zeros already)."""
    raw = row["score"]
    factor = 0.0 if submitted_at is None else policy.factor(row["submission"], submitted_at)
    final = number(raw * factor)
    return {**row, "deadline": time_text(policy.deadline_for(row["submission"])), "raw_score": raw,
            "late_factor": factor, "penalty": number(raw - final), "final_score": final, "score": final}
