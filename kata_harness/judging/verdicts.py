"""Verdicts: how a function fared, and the first judgement of a learner's observations against the expected ones. Pure Python."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from ..aspects import ASPECTS, Judging
from ..aspects.compare import Difference, Tolerance, error_text
from ..records import Reason


class Status(str, Enum):
    """How a function fared (the value is the JSON ``status``)."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    TODO = "todo"

    def __str__(self) -> str:
        return self.value


@dataclass
class Verdict:
    """The outcome for one function. ``difference`` and ``call`` explain a failure;
    ``reason`` explains an error."""

    status: Status
    device: str = ""
    call: str = ""
    label: str | None = None
    difference: Difference | None = None
    reason: Reason | None = None
    printed: str = ""
    skipped: list = field(default_factory=list)   # devices not available here (e.g. cuda)

    def __post_init__(self):
        self.status = Status(self.status)   # a plain string is checked, never trusted

    @property
    def reason_key(self) -> str | None:
        """The message key of an error's reason (None for anything else)."""
        return self.reason.key if self.reason else None


def judge(aspects, tolerance: Tolerance, yours: dict, expected: dict) -> Verdict:
    """Compare the learner's observations with the reference's, device by device, case by case.

    ``yours`` and ``expected`` map a device name to its list of case observations.
    """
    for device, expected_cases in expected.items():
        your_cases = yours.get(device, [])
        for index, e in enumerate(expected_cases):
            if "raised" in e:
                return Verdict(Status.ERROR, device, e.get("call", ""),
                               reason=Reason("error.reference", {"error": e["raised"]["message"]}))
            if index >= len(your_cases):
                break
            y = your_cases[index]
            raised = y.get("raised", {})
            if raised.get("todo"):
                return Verdict(Status.TODO, device, y["call"], printed=y.get("printed", ""))
            if raised.get("exit"):
                return Verdict(Status.ERROR, device, y["call"], printed=y.get("printed", ""),
                               reason=Reason("error.exit", {"error": f"{raised['type']}: {raised['message']}"}))
            found = compare_case(y, e, aspects, tolerance)
            if found:
                return Verdict(Status.FAILED, device, e.get("call", ""), e.get("label"), found, printed=y.get("printed", ""))
    return Verdict(Status.PASSED)


def compare_case(yours: dict, expected: dict, aspects, tolerance: Tolerance) -> Difference | None:
    """The first difference between two observations of the same case: what the learner's call
    raised, else what each aspect of the table (``aspects.ASPECTS``) finds, in its order, among
    those always checked and those the function chose (``aspects``)."""
    chosen = frozenset(aspects)
    if "raised" in yours:
        raised = yours["raised"]
        aspect = "name_error" if raised.get("type") == "NameError" else "raises"
        return Difference(aspect, "aspect.raises", {"error": error_text(raised)}, {})
    judging = Judging(chosen, tolerance, expected.get("names", []))
    deferred = None
    for each in ASPECTS:
        if not (each.always or each.name in chosen):
            continue
        found = each.compare(yours, expected, judging)
        if found is not None and not found.deferred:
            return found
        deferred = deferred or found
    return deferred
