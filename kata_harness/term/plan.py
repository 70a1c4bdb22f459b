"""What one ``grade.py batch`` run does for the term, settled once before anything is graded: the
roster, the instructor's record of submissions, the late policy, the shard, where the feedback
goes. ``settle`` reads and checks every file now (a mistake is found before the class is graded,
not after); ``finish`` turns the graded rows into the gradebook's: the late policy applied, the
roster's columns and its students without a submission, the shared solutions marked, the rows in
their one order.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from ..content.curriculum import FunctionInfo
from ..outputs import gradebook
from ..usage import UsageError
from . import late, roster, shared
from .record import Record, RecordError, Submitted, parse_time, read_record, time_text
from .shards import Shard, ShardError, parse_shard


@dataclass(frozen=True)
class TermPlan:
    """The term's part of one batch run (every field None or empty: a plain gradebook)."""

    roster: roster.Roster | None = None
    record: Record | None = None
    policy: late.Policy | None = None
    shard: Shard | None = None
    feedback: Path | None = None

    def keeps(self, name: str) -> bool:
        """Whether this run grades the submission folder ``name`` (its shard's, or every one)."""
        return self.shard is None or self.shard.holds(name)

    def counted(self, name: str) -> Submitted | None:
        """The submission of ``name`` that counts: the record's last one made by the last moment
        that counts (the deadline, or the last late cutoff; with no deadline, its last one)."""
        assert self.record is not None
        return self.record.latest(name, self.policy.last_accepted(name) if self.policy else None)


def names_a_record(at: str) -> bool:
    """Whether ``--at`` names a file of the record's formats (a ``.csv`` or ``.json`` that is there)
    rather than a tag or a date."""
    path = Path(at)
    return path.suffix.lower() in (".csv", ".json") and path.is_file()


def settle(*, at: str | None, record: str | None, roster_file: str | None, extensions: str | None,
           late_rules: Sequence[str] = (), shard: str | None = None, feedback: str | None = None,
           out: Path, folders: Collection[str] | None = None) -> TermPlan:
    """The ``TermPlan`` of batch's options: every file read and every combination checked now
    (``folders``: the class's submission folders, which an extension may name where no roster is
    given); raises ``UsageError`` naming what is wrong."""
    try:
        students = roster.read_roster(Path(roster_file)) if roster_file else None
        submissions = read_record(Path(record)) if record else None
        policy = _policy(at, late_rules, extensions, submissions, students, folders)
        part = parse_shard(shard) if shard else None
    except (roster.RosterError, RecordError, late.PolicyError, ShardError) as error:
        raise UsageError(f"batch: {error}") from None
    if part is not None and out.suffix != ".json":
        raise UsageError(f"batch: --shard writes a part of the class for `grade.py merge`: give --out {out.stem}.json")
    return TermPlan(students, submissions, policy, part, _feedback_folder(feedback))


def _policy(at: str | None, rules: Sequence[str], extensions: str | None, record: Record | None,
            students: roster.Roster | None, folders: Collection[str] | None) -> late.Policy | None:
    """The late policy: with a record and a deadline (``--at DATE``); ``--late`` and
    ``--extensions`` need both, since they apply to the record's times."""
    deadline = _deadline(at) if record is not None else None
    if (rules or extensions) and deadline is None:
        raise late.PolicyError("--late and --extensions apply to the times of the instructor's record: give "
                               "--record FILE and the deadline as --at DATE")
    if deadline is None:
        return None
    known = None if folders is None else [*folders, *(record.submissions if record else ())]
    extended = late.read_extensions(Path(extensions), students, known) if extensions else {}
    return late.Policy(deadline, tuple(late.parse_rule(rule) for rule in rules), extended)


def _deadline(at: str | None) -> datetime | None:
    """``--at`` as the deadline, when it names a date (a tag names no moment)."""
    if at is None:
        return None
    try:
        return parse_time(at)
    except ValueError:
        return None


def _feedback_folder(feedback: str | None) -> Path | None:
    """``--feedback DIR``: a folder (made now if it is not there) beside which nothing else is written."""
    if feedback is None:
        return None
    folder = Path(feedback)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise UsageError(f"batch: --feedback {folder}: not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"batch: --feedback {folder}: cannot be made ({error.strerror or error})") from None
    return folder


def project_commit(root: Path) -> str:
    """The commit of the project at ``root`` that grades (``+changes`` when its grading files differ from it);
    ``unknown`` where it is not a git checkout."""
    environment = {"PATH": os.environ.get("PATH", os.defpath), "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"}

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30,
                              env=environment, stdin=subprocess.DEVNULL)
        if done.returncode:
            raise OSError(done.stderr.strip())
        return done.stdout.strip()

    try:
        commit = git("rev-parse", "HEAD")
        changed = git("status", "--porcelain", "--untracked-files=no", "--", "kata_harness", "tests", "curriculum",
                      "reference", "grade.py")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return commit[:12] + ("+changes" if changed else "")


def provenance(official: bool, root: Path, project: str | None = None) -> dict:
    """How a row was graded, for the row itself: when (UTC), by which commit of the project at
    ``root`` (``project``, when the caller knows it), and whether officially (the hidden cases, with the secret) or for practice."""
    return {"graded_at": time_text(datetime.now(timezone.utc)), "project": project or project_commit(root),
            "official": official}


def finish(plan: TermPlan, rows: list[dict], submitted: dict[str, Submitted | None],
           functions: list[FunctionInfo], stamp: dict) -> list[dict]:
    """The gradebook's rows from the graded ``rows`` (``submitted``: the record's submission each
    one graded, by name): the late policy applied, the roster joined (its students without a
    submission stamped with ``stamp``, this run's ``provenance``), the shared solutions marked,
    the shard noted, in ``gradebook.row_order``."""
    finished = []
    for row in rows:
        chosen = submitted.get(row["submission"])
        if plan.record is not None:
            row = {**row, "submitted_at": time_text(chosen.at) if chosen else ""}
        if plan.policy is not None:
            row = late.penalised(row, plan.policy, chosen.at if chosen else None)
        finished.append(row)
    if plan.roster is not None:
        finished = [row if "graded_at" in row else {**row, **stamp}
                    for row in roster.join(finished, plan.roster, functions, keep=plan.keeps)]
    if plan.shard is not None:
        finished = [{**row, "shard": str(plan.shard)} for row in finished]
    return shared.mark(sorted(finished, key=gradebook.row_order))
