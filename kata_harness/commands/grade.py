"""``grade.py [grade] [SELECTOR ...]``: grade the selected functions and print the result in ``--format``."""

from __future__ import annotations

import sys
import time

from ..content.messages import default_language
from ..isolation import sandbox
from ..isolation.channel import learner_lane
from ..judging import hidden, integrity, judge
from ..judging.judge import FUNCTION_TIMEOUT, Grading
from ..judging.verdicts import Reason, Status, Verdict
from ..outputs.document import HowItRan, document
from ..outputs.render import Printout, render
from ..outputs.text import integrity_text, use_colour
from .shared import existing_solutions, expectations_for, secret_for, select


def run(args, *, started: float) -> int:
    """``grade.py [grade] [SELECTOR ...]``: grade the selected functions and print the result in
    ``--format``."""
    lang = args.lang or default_language()
    katas, functions = select(args.selectors, lang)
    solutions = existing_solutions(args.solutions, lang)
    secret = secret_for(args.secret_file, "grade.py")
    expected = expectations_for(args.against, lang, official=hidden.is_official(secret, args.format))
    boxed = sandbox.mode() == sandbox.BUBBLEWRAP

    # The learner's side imports torch (the slow part) while this process decides the hidden cases
    # (it may decrypt the hidden key) and checks the grading files; it reads its jobs once torch is in.
    lane = learner_lane(solutions, sandboxed=boxed)
    lane.start()
    cases = hidden.prepare(secret, args.format in hidden.OFFICIAL_FORMATS, functions, expected)
    cases.give_to(expected)
    if cases.error:   # official grading that cannot happen: 0 points, never a silent practice grade
        lane.stop()
        checked = integrity.check(secret=secret)
        grading = Grading(verdicts={f.qualified: Verdict(Status.ERROR, reason=Reason(cases.error, {}))
                                    for f in functions})
    else:
        expected.start(functions)
        checked = integrity.check(secret=secret)
        # Leave a second to stop the children and print, counted from grade.py's start.
        remaining = args.deadline - (time.monotonic() - started) - 1.0
        try:
            grading = judge.grade(functions, solutions, expected, lane=lane, extras=cases.extras,
                                  function_timeout=args.timeout or FUNCTION_TIMEOUT, deadline=max(remaining, 0.1))
        finally:
            expected.stop()
            lane.stop()
    shown = args.solutions.rstrip("/")
    ran = HowItRan(sandbox.BUBBLEWRAP if boxed else sandbox.NONE, cases.official, cases.not_run)
    doc = document(katas, functions, grading, lang=lang, solutions=shown, graded_against=expected.name,
                   integrity=checked, ran=ran)
    # A secret problem is named on every test (a wrong secret also fails the manifest's signature).
    tampered = None if checked.ok or cases.error else integrity_text(checked, lang)
    printout = Printout(doc, katas, functions, grading, lang, solutions, shown, checked, tampered, args.visibility,
                        time.monotonic() - started, use_colour(sys.stdout))
    print(render(printout, args.format))
    return 0
