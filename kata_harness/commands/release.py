"""``grade.py release``: the command line of writing the student template and the platforms'
graders, for this harness's project (``platforms``: ``student``, ``gradescope``, ``classroom50`` and
``codio`` each write and check theirs; their docstrings tell what each holds)."""

from __future__ import annotations

import sys
from pathlib import Path

from ..api import read_secret
from ..layout import LAYOUT
from ..platforms import classroom50, codio, gradescope, student
from ..platforms.common import ReleaseError
from . import UsageError


def run(args, *, started: float) -> int:
    """``grade.py release [OUT_DIR] [--gradescope ZIP] [--classroom50 DIR] [--codio DIR] [--max-hint-level N]``:
    write the student template and the platforms' graders asked for, and check what was written."""
    project = LAYOUT   # the project this harness belongs to
    secret = read_secret(args.secret_file, "release")
    official = " (in official grading too, with the hidden cases)" if secret else ""
    capped = "" if args.max_hint_level is None else f"; hints capped at level {args.max_hint_level}"
    steps = []
    if args.out_dir:
        steps.append((lambda: student.release(project, Path(args.out_dir), force=args.force, secret=secret,
                                             max_hint_level=args.max_hint_level),
                      f"student template written to {args.out_dir} and checked: stubs score 0, the reference scores "
                      f"full marks{official}{capped}"))
    if args.gradescope:
        steps.append((lambda: gradescope.release(project, Path(args.gradescope), force=args.force, visibility=args.visibility,
                                                 lang=args.lang, secret=secret),
                      f"Gradescope autograder written to {args.gradescope} and checked: graded as Gradescope would "
                      f"grade it, the reference scores full marks{official}"))
    if args.classroom50:
        steps.append((lambda: classroom50.release(project, Path(args.classroom50), force=args.force, secret=secret,
                                                  max_hint_level=args.max_hint_level, lang=args.lang),
                      f"Classroom 50 template and autograder written to {args.classroom50}/template and "
                      f"{args.classroom50}/autograder and checked: run as Classroom 50's runner runs it, the "
                      f"reference scores full marks (public cases){capped}"))
    if args.codio:
        steps.append((lambda: codio.release(project, Path(args.codio), force=args.force, lang=args.lang, secret=secret),
                      f"Codio secure folder written to {args.codio} and checked: run as a Codio code test, the "
                      f"reference scores 100 %{official}"))
    for write, done in steps:
        try:
            problems = write()
        except ReleaseError as error:
            raise UsageError(f"release: {error}") from None
        if problems:
            for problem in problems:
                print(f"release: {problem}", file=sys.stderr)
            return 1
        print(done)
    return 0
