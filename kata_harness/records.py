"""The plain-data records that cross process boundaries and live in the answer key.

They are JSON: a child sends them as event fields, the answer key stores them, the judge reads
them. Nothing here is trusted when it comes from a learner child; ``grading`` checks every field
it uses before it uses it. The types document the shapes (and let mypy check our own code).
"""

from __future__ import annotations

from typing import Any, TypedDict

Description = dict[str, Any]   # describe.describe(...): {"kind": ..., and the facts of that kind}


class Raised(TypedDict, total=False):
    """What a call raised."""

    type: str
    message: str
    todo: bool          # the learner's own stub line raised NotImplementedError
    exit: bool          # SystemExit, KeyboardInterrupt or another BaseException that is not an Exception
    line: int | None    # a SyntaxError's line (None when it has none)
    where: str          # "file:line: code" of the learner's frame


class Observation(TypedDict, total=False):
    """Everything observed about one call of one case on one device (``observe.observe_case``)."""

    call: str                    # the call as the learner would write it
    label: str | None            # the case's label, which can name its own pitfall
    names: list[str]             # the parameter names, for messages
    printed: str
    raised: Raised
    result: Description
    inputs: list[Description]    # each argument after the call
    rng_changed: bool
    probes: dict[str, Description]
    grad: dict[str, Any]         # {"backward": "ok" | "no graph" | error, "leaves": [...], "grads": [...]}
    after_input_write: Any
    after_result_write: Any


Observations = dict[str, list[Observation]]   # device -> one observation per case


class Expected(TypedDict, total=False):
    """The referee's ``expected`` event for one function: how to judge it and what the reference
    did. The answer key stores exactly these (``grade.py freeze``)."""

    kata: str
    function: str
    aspects: list[str]
    rtol: float | None
    atol: float | None
    timeout: float | None
    skipped: list[str]           # devices not available where it was observed
    devices: list[str]
    plan: dict[str, Any]         # {"public": count, "hidden": [[case index, seed], ...]}
    observations: Observations
