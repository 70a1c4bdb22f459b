"""``grade.py report GRADEBOOK.json [--out class-report.html] [--lang en|zh]``: the class report again.

It draws, from a JSON gradebook that ``grade.py batch`` wrote (in this run or an earlier one), the
page that ``batch --report`` writes: which pitfalls the class fell into (``outputs.class_report``).
A light command: it reads two files and writes one, with neither torch nor a child process.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..content.curriculum import load_curriculum
from ..content.messages import default_language, message
from ..layout import LAYOUT
from ..outputs import class_report
from . import UsageError


def run(args, *, started: float) -> int:
    """Read the gradebook, write the report, say where it is (on standard error)."""

    lang = args.lang or default_language()
    gradebook = Path(args.gradebook)
    try:
        rows = class_report.read_gradebook(gradebook)
    except class_report.NotAGradebook as problem:
        raise UsageError(message(problem.key, lang, **problem.fields)) from None
    except OSError as error:
        raise UsageError(message("report.unreadable", lang, file=str(gradebook), why=error.strerror or str(error))) from None
    out = Path(args.out)
    try:
        class_report.write(out, rows, load_curriculum(LAYOUT.curriculum), lang, source=gradebook.name)
    except OSError as error:
        raise UsageError(message("report.unwritable", lang, file=str(out), why=error.strerror or str(error))) from None
    print(message("report.written", lang, path=out), file=sys.stderr)
    return 0
