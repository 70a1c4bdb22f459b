"""``grade.py merge SHARD.json ... --out GRADEBOOK.csv|.json [--report FILE.html] [--feedback DIR]``: the
gradebook of a class graded in shards (``batch --shard K/N``), as one unsharded run writes it.

A light command: it reads the shards' JSON gradebooks and writes one, with neither torch nor a
child process; a submission in two shards, shards of other katas or maxima, and official grading
mixed with practice are refused (``term.shards``). The shared solutions are found again across
all the shards.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..content.curriculum import load_curriculum
from ..content.messages import default_language, message
from ..files import write_atomically
from ..layout import LAYOUT
from ..outputs import class_report, feedback, gradebook
from ..term import shards
from . import UsageError


def run(args, *, started: float) -> int:
    """Read every shard, write the merged gradebook (and the report and feedback asked for)."""
    lang = args.lang or default_language()
    books = []
    for name in args.shards:
        try:
            books.append((name, class_report.read_gradebook(Path(name), empty=True)))
        except class_report.NotAGradebook as problem:
            raise UsageError(message(problem.key, lang, **problem.fields).replace("report:", "merge:", 1)) from None
        except OSError as error:
            raise UsageError(f"merge: cannot read {name} ({error.strerror or error})") from None
    try:
        rows, warnings = shards.merged(books)
    except shards.ShardError as error:
        raise UsageError(str(error)) from None
    for warning in warnings:
        print(warning, file=sys.stderr)
    katas = load_curriculum(LAYOUT.curriculum)
    known = {f.qualified: f for kata in katas for f in kata.functions}
    named = list(rows[0].get("functions", {})) if rows else []
    if any(name not in known for name in named):
        raise UsageError("merge: the shards grade functions this project does not have (merge with the project "
                         "that graded them)")
    functions = [known[name] for name in named]
    out = Path(args.out)
    try:
        write_atomically(out, gradebook.encode(out, rows, functions))
        if args.report:
            class_report.write(Path(args.report), rows, katas, lang, source=out.name)
        if args.feedback:
            Path(args.feedback).mkdir(parents=True, exist_ok=True)
            feedback.write_all(Path(args.feedback), rows, katas, lang)
    except OSError as error:
        raise UsageError(f"merge: cannot write {error.filename or out} ({error.strerror or error})") from None
    print(f"merge: {len(rows)} submissions from {len(books)} shards -> {out}", file=sys.stderr)
    return 0
