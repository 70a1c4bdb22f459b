"""The instructor's record of submissions: when each one was made and at which commit, as the platform
or the instructor wrote it down, never as the student's repository tells it.

A student writes their repository: its tags (``submit/2026-11-30T23-59-59Z-...`` pushed after the
deadline is just a name), its commit dates (``GIT_COMMITTER_DATE`` sets any), its files. So the
deadline is decided from a record kept outside it. One record, two formats:

- **a CSV of submission times**, the instructor's own: a header with at least ``submission`` (the
  submission folder's name) and ``submitted_at`` (ISO 8601; UTC where no zone is given), and
  optionally ``commit`` (the full SHA the submission names); one line per submission, a student
  may have several; more columns are allowed and ignored. An LMS's export of submission times, or
  the instructor's own fetch at the deadline (``git ls-remote`` of every repository, written down
  with the time), both go into it.
- **Classroom 50's gradebook** ``CLASSROOM/scores.json`` (schema ``classroom50/scores/v1``, written
  by the classroom's collect-scores workflow from each submission's release): every submission of
  every student, its ``commit`` and ``graded_at``, the time its grading ran on the platform, after
  the push. Its ``datetime`` is *not* used: Classroom 50's runner fills it with the graded commit's
  committer date, which the student sets. An entry is found under the folder name ``gh teacher
  download`` gives its clone (``CLASSROOM-ASSIGNMENT-USERNAME``, lower case) and under no other
  name (a login may be chosen to equal a classmate's folder); under the username alone only where
  the entry names no classroom and the file holds one assignment.

Names are looked up by their one identity (``identity.key``). Two owners the record writes
differently that are one key (``Bob`` and ``bob``) are refused by name (``Record.clash``).

``read_record`` reads either; ``Record`` answers, for a submission folder, which submissions the
record lists, the latest one by a moment, and the one that names a given commit.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from ..files import read_regular
from . import identity
from .tables import TableError, read_table

CLASSROOM50_SCORES = "classroom50/scores/v1"
RECORD_LIMIT = 256 << 20     # bytes of a scores.json (every submission's tests of a large classroom)
COLUMNS = ("submission", "submitted_at")
_COMMIT = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_COMMIT_IN_URL = re.compile(r"/commit/([0-9a-f]{40}|[0-9a-f]{64})(?:[/?#]|$)")
_TIME = re.compile(r"\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?", re.IGNORECASE)


class RecordError(ValueError):
    """A record that cannot be read as one; the message says which file and why."""


def parse_time(text: str) -> datetime:
    """A moment written in ISO 8601 (``2026-11-30T23:58:01Z``, ``2026-11-30 23:58+08:00``,
    ``2026-11-30 23:58:01 UTC``, ``2026-12-01``: midnight), as an aware datetime in UTC; UTC where
    no zone is given. Raises ValueError."""
    text = text.strip()
    if not _TIME.fullmatch(text):
        raise ValueError(f"not a date and time: {text!r} (write 2026-11-30T23:59:00Z)")
    text = re.sub(r"\s*(UTC|Z)$", "+00:00", text, flags=re.IGNORECASE).replace(" ", "T", 1).replace(" ", "")
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def time_text(moment: datetime) -> str:
    """A moment as the gradebook writes it: ``2026-11-30T23:58:01Z``."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def name_key(name: str) -> str:
    """How a submission's name is looked up: its one identity (``identity.key``: case, spaces around
    it and Unicode form aside)."""
    return identity.key(name)


@dataclass(frozen=True)
class Submitted:
    """One submission the record lists: its folder's name, when the record says it was made (UTC),
    the commit it names (None: the record names none), and where in the record it is."""

    submission: str
    at: datetime
    commit: str | None
    where: str

    def note(self) -> str:
        """What the gradebook says about it."""
        commit = f", commit {self.commit[:12]}" if self.commit else ""
        return f"submitted {time_text(self.at)} by the record ({self.where}{commit})"


@dataclass
class Record:
    """The submissions of a record by folder name, each list oldest first; ``problems``: its
    entries that could not be used, and why (batch prints them)."""

    source: str
    submissions: dict[str, list[Submitted]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    spellings: dict[str, dict[str, list[str]]] = field(default_factory=dict)   # key -> owner as written -> where

    def add(self, name: str, submitted: Submitted, owner: str | None = None) -> None:
        """File ``submitted`` under the folder name ``name`` (one name: its key), made by ``owner``
        as the record writes them (``name`` where it names no other)."""
        found = name_key(name)
        self.submissions.setdefault(found, []).append(submitted)
        self.submissions[found].sort(key=lambda s: s.at)
        self.spellings.setdefault(found, {}).setdefault(owner if owner is not None else name, []).append(submitted.where)

    def clash(self, name: str) -> list[str]:
        """The owners the record writes for the key of ``name`` where it writes more than one (two
        students the record cannot tell apart: neither is graded); else none."""
        owners = list(self.spellings.get(name_key(name), ()))
        return owners if len(owners) > 1 else []

    def clash_lines(self, name: str) -> str:
        """Where the record writes each of the clashing owners of ``name`` (``'Bob': record.csv line
        2; 'bob': record.csv line 5``); empty where there is no clash."""
        if not self.clash(name):
            return ""
        return "; ".join(f"{owner!r}: {', '.join(wheres)}" for owner, wheres in self.spellings[name_key(name)].items())

    def refuse_clashes(self) -> None:
        """Name in ``problems`` every name the record writes in two spellings of one key (read once,
        before anything is graded): their lines are used for neither student."""
        for found, owners in self.spellings.items():
            if len(owners) > 1:
                self.problems.append(f"{', '.join(map(repr, owners))} are one student's name (they differ only "
                                     f"in case, spaces or Unicode form), so nothing says whose these are: "
                                     f"{self.clash_lines(found)}; neither is graded")

    def of(self, name: str) -> list[Submitted]:
        """The submissions of the folder ``name``, oldest first (none: the record does not list it, or
        it writes two students' names of one key, whose histories are never merged)."""
        return [] if self.clash(name) else list(self.submissions.get(name_key(name), ()))

    def latest(self, name: str, until: datetime | None = None) -> Submitted | None:
        """The last submission of ``name`` made at or before ``until`` (None: the last of all)."""
        counted = [s for s in self.of(name) if until is None or s.at <= until]
        return counted[-1] if counted else None

    def naming(self, name: str, commit: str) -> Submitted | None:
        """The last submission of ``name`` that names ``commit`` (None when the record names it nowhere)."""
        named = [s for s in self.of(name) if s.commit == commit.lower()]
        return named[-1] if named else None

    def names_commits(self) -> bool:
        """Whether any of its submissions names a commit."""
        return any(s.commit for entries in self.submissions.values() for s in entries)


def read_record(path: Path) -> Record:
    """The record in ``path``: Classroom 50's ``scores.json`` for a ``.json`` file, else a CSV of
    submission times; raises ``RecordError`` naming what is wrong (a file nested too deep to be
    a record among it). Names of one key written two ways are named in its ``problems``."""
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(read_regular(path, RECORD_LIMIT).decode("utf-8"))
        except OSError as error:
            raise RecordError(f"the record {path}: cannot be read ({error.strerror or error})") from None
        except ValueError as error:
            raise RecordError(f"the record {path}: not JSON ({str(error)[:200]})") from None
        except RecursionError:
            raise RecordError(f"the record {path}: nested too deep to be Classroom 50's scores.json "
                              f"(its values nest a few levels, never thousands)") from None
        found = _classroom50(data, path.name)
    else:
        try:
            rows = read_table(path, COLUMNS, "the record")
        except TableError as error:
            raise RecordError(str(error)) from None
        found = _csv(rows, path.name)
    found.refuse_clashes()
    return found


def _csv(rows: list[tuple[int, dict[str, str]]], source: str) -> Record:
    """The submissions of a CSV record. Where some lines name a commit, a line that names none is
    left out (a fetch that found no commit, say): it would let the folder as it is now be graded."""
    record = Record(source)
    commits = any(cells.get("commit") for _, cells in rows)
    for line, cells in rows:
        if commits and not cells.get("commit"):
            record.problems.append(f"{source} line {line}: no commit, where the record names commits: not used")
            continue
        name, commit = cells["submission"], cells.get("commit", "").lower() or None
        if not name:
            raise RecordError(f"the record {source}, line {line}: no submission named")
        try:
            moment = parse_time(cells["submitted_at"])
        except ValueError as error:
            raise RecordError(f"the record {source}, line {line}: {error}") from None
        if commit is not None and not _COMMIT.fullmatch(commit):
            raise RecordError(f"the record {source}, line {line}: commit {commit!r} is not a full SHA "
                              f"(40 or 64 hexadecimal digits: a short one could name a commit the student made to match)")
        record.add(name, Submitted(name, moment, commit, f"{source} line {line}"))
    return record


def _classroom50(data, source: str) -> Record:
    """The submissions of Classroom 50's scores.json, by the folder names of their clones."""
    if not isinstance(data, dict) or data.get("schema") != CLASSROOM50_SCORES:
        raise RecordError(f"the record {source}: a .json record must be Classroom 50's scores.json "
                          f"(schema {CLASSROOM50_SCORES}); a CSV record needs a .csv name")
    buckets = data.get("assignments")
    if not isinstance(buckets, dict):
        raise RecordError(f"the record {source}: no assignments in it")
    record = Record(source)
    for slug, bucket in buckets.items():
        entries = bucket.get("entries") if isinstance(bucket, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            owner = entry.get("owner") if isinstance(entry, dict) else None
            if not isinstance(owner, str) or not owner:
                record.problems.append(f"{source}: an entry of {slug} without an owner (not used)")
                continue
            history = entry.get("submissions")
            for item in history if isinstance(history, list) else []:
                _classroom50_submission(record, item, str(slug), owner, single=len(buckets) == 1)
    return record


def _classroom50_submission(record: Record, item, slug: str, owner: str, *, single: bool) -> None:
    """File one submission of a Classroom 50 entry: its time is ``graded_at`` (the platform's clock
    when its grading ran), never ``datetime`` (the commit's own date)."""
    item = item if isinstance(item, dict) else {}
    tag = item.get("submission") if isinstance(item.get("submission"), str) else "?"
    where = f"{record.source}: {owner} {tag}"
    try:
        moment = parse_time(item["graded_at"])
    except (KeyError, TypeError, ValueError, AttributeError):
        record.problems.append(f"{where}: no graded_at, the platform's time (its datetime is the commit's "
                               f"own date, which the student sets): not used")
        return
    commit = _recorded_commit(item.get("commit"))
    if commit is None:
        record.problems.append(f"{where}: no commit named (not used)")
        return
    classroom = item.get("classroom") if isinstance(item.get("classroom"), str) else ""
    # One name only: its repository's (a bare owner could be chosen to equal a classmate's folder,
    # ``c-hw-bob`` as a login); the owner alone only where no classroom says what the repository is.
    name = f"{classroom}-{slug}-{owner}".lower() if classroom else (owner if single else "")
    if not name:
        record.problems.append(f"{where}: no classroom named, and the file holds several assignments (not used)")
        return
    record.add(name, Submitted(name, moment, commit, where), owner)


def _recorded_commit(text) -> str | None:
    """The full SHA of a Classroom 50 ``commit`` field (its commit page's address, or the SHA itself)."""
    if not isinstance(text, str):
        return None
    if _COMMIT.fullmatch(text.lower()):
        return text.lower()
    found = _COMMIT_IN_URL.search(text.lower())
    return found.group(1) if found else None
