"""``grade.py batch DIR``: the command line of grading a class. Its options are checked here, before
anything is graded (the folder, ``--at``, the report's folder, the term's files), one run is
settled for the class, and ``batch.engine`` grades it: intake, the cache, the worker pool, each
distinct kata file graded once (its docstring tells how each submission is kept from the others).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .. import api
from ..batch.engine import default_jobs, expected_table, run_batch
from ..content.messages import default_language, message
from ..isolation import repository, sandbox
from ..layout import Layout
from ..outputs import class_report, feedback
from ..term import plan as term
from . import UsageError


def _checked_arguments(args) -> tuple[Path, Path | None]:
    """The submissions' folder and the report's path, each checked before anything is graded (a
    mistake is found now, not after grading the class)."""
    directory = Path(args.directory)
    if not directory.is_dir():
        raise UsageError(f"batch: {directory} is not a folder")
    if not any(p.is_dir() and not p.name.startswith(".") for p in directory.iterdir()):
        raise UsageError(f"batch: {directory} holds no submission folders")
    if args.at is not None and repository.is_date(args.at):
        try:
            repository.parse_date(args.at)
        except ValueError:
            raise UsageError(f"batch: --at {args.at}: not a date (write 2026-12-01 or 2026-12-01T09:00Z)") from None
    report = Path(args.report) if args.report else None
    if report is not None and not report.parent.is_dir():   # found now, not after grading the class
        raise UsageError(message("report.unwritable", args.lang or default_language(), file=str(report),
                                 why="no such folder"))
    return directory, report


def run(args, *, started: float, processes: api.Processes | None = None) -> int:
    """``grade.py batch DIR [--out FILE.csv|FILE.json] [--report FILE.html] [-j N]``: grade every submission
    folder in DIR (and, with ``--report``, write the class report of the gradebook)."""
    directory, report = _checked_arguments(args)
    plan = _term_plan(args)
    settled = api.settle(solutions=directory, lang=args.lang, against=args.against, secret_file=args.secret_file,
                         sandboxed=not args.no_sandbox, function_timeout=args.timeout, processes=processes,
                         started=started, command="batch")
    if settled.sandbox == sandbox.NONE and not args.no_sandbox:
        raise UsageError(message("batch.no_sandbox", "en"))
    functions = list(settled.functions)
    source = settled.expectations()
    if source.stale:   # a gradebook must not hold errors that are the key's fault
        raise UsageError(message("error.stale_key", "en"))
    cases = settled.hidden_cases(source)
    if cases.error:
        raise UsageError(f"batch: {message(cases.error, 'en')}")
    if not cases.official and cases.not_run:
        print(f"batch: {Layout.HIDDEN_KEY} exists but KATA_SECRET is not set: only the public cases are "
              f"graded ({cases.not_run} hidden cases left out)", file=sys.stderr)
    rows = run_batch(directory, Path(args.out), functions, lambda: expected_table(source, functions),
                     project=settled.project,
                     jobs=default_jobs() if args.jobs is None else args.jobs, function_timeout=settled.function_timeout,
                     sandboxed=settled.sandboxed, extras=cases.extras, at=args.at, lanes=settled.processes.lanes,
                     plan=plan, official=cases.official)
    if report is not None:
        class_report.write(report, rows, list(settled.katas), settled.lang, source=Path(args.out).name)
        print(message("report.written", settled.lang, path=report), file=sys.stderr)
    if plan.feedback is not None:
        written = feedback.write_all(plan.feedback, rows, list(settled.katas), settled.lang)
        print(f"feedback for {len(written)} submissions -> {plan.feedback}", file=sys.stderr)
    return 0


def _term_plan(args) -> term.TermPlan:
    """The term's part of this run (``term.plan.settle``: every file it names read and checked now),
    and a word on standard error about what the deadline then rests on. ``--at RECORD.csv`` (or
    ``scores.json``, a file of the record's formats) is ``--record RECORD.csv``."""
    if args.record is None and args.at is not None and term.names_a_record(args.at):
        args.record, args.at = args.at, None
    plan = term.settle(at=args.at, record=args.record, roster_file=args.roster, extensions=args.extensions,
                       late_rules=args.late or (), shard=args.shard, feedback=args.feedback, out=Path(args.out),
                       folders=[e for e in os.listdir(args.directory) if not e.startswith(".")])  # noqa: PTH208
    if plan.record is not None:
        for problem in plan.record.problems[:20]:
            print(f"batch: {problem}", file=sys.stderr)
        if len(plan.record.problems) > 20:
            print(f"batch: ... and {len(plan.record.problems) - 20} more entries of the record not used", file=sys.stderr)
    elif args.at is not None:
        print(f"batch: --at {args.at} chooses each commit by what the student wrote ("
              f"{'its committer date' if repository.is_date(args.at) else 'a tag, which anyone who can push names'}); "
              f"for a deadline no student can move, give the platform's or your own record: --record FILE "
              f"(docs/deadline-grading.md)", file=sys.stderr)
    return plan
