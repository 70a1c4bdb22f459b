"""``grade.py [grade] [SELECTOR ...]``: grade the selected functions and print the result in ``--format``."""

from __future__ import annotations

import sys

from .. import api
from ..outputs.text import use_colour


def run(args, *, started: float, processes: api.Processes | None = None) -> int:
    """``grade.py [grade] [SELECTOR ...]``: grade the selected functions and print the result in
    ``--format`` (``api.grade_submission`` of the run the command line settles)."""
    result = api.grade_submission(api.from_args(args, started=started, processes=processes))
    print(result.render(colour=use_colour(sys.stdout)))
    return 0
