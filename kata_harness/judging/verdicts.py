"""Verdicts: how a function fared, and the judgement of a learner's observations against the
expected ones: the first difference, case by case and aspect by aspect (``judge``), what a failure
on a hidden case may tell (``hidden_difference``), and whether passing observations are complete
(``incomplete``: every device, case and field the expected ones have). ``verdict_for`` puts them
together, as the judge calls it for each function. Pure Python, on plain data."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from ..aspects import ASPECTS, Judging
from ..aspects.compare import Difference, Tolerance, error_text
from ..records import Expected, Observations, Reason

OPTIONAL_DEVICES = ("cuda",)   # devices a learner's machine may lack (reported as skipped)


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


def public_cases(expected: Expected) -> int | None:
    """How many of the expected observations per device are public cases (None: unknown, all)."""
    plan = expected.get("plan")
    return plan.get("public") if isinstance(plan, dict) else None


def verdict_for(expected: Expected, observations: Observations, usable=None) -> Verdict:
    """Judge a learner's observations against the expected ones; incomplete or malformed
    observations never pass. The public cases are judged first; a difference found only on a
    hidden case is reported without its expected value (``hidden_difference``). ``usable``: the
    devices the learner's child could use (see ``incomplete``). Observations on an optional device
    the expected ones lack (a GPU here, an answer key frozen without one) are set aside."""
    aspects, tolerance = expected["aspects"], Tolerance(expected["rtol"], expected["atol"])
    if isinstance(observations, dict):
        observations = {device: cases for device, cases in observations.items()
                        if device in expected["observations"] or device not in OPTIONAL_DEVICES}
    if observations == expected["observations"] and not _reference_raised(expected["observations"]):
        # What the reference itself observed, item for item: judged against itself every aspect
        # finds nothing and nothing is missing (``selftests/test_verdicts`` holds every key's
        # record to that), so neither walk is needed. (``==`` takes True for 1, which only a forged
        # observation could hold where the reference has the other, and gains it nothing.)
        return Verdict(Status.PASSED, skipped=list(expected.get("skipped", [])))
    public = public_cases(expected)
    try:
        verdict = judge(aspects, tolerance, observations, expected["observations"])
        if public is not None and verdict.status == Status.FAILED:
            first = judge(aspects, tolerance, {d: obs[:public] for d, obs in observations.items()},
                          {d: obs[:public] for d, obs in expected["observations"].items()})
            verdict = first if first.status != Status.PASSED else hidden_difference(verdict)
        missing = incomplete(observations, expected["observations"], usable) if verdict.status == Status.PASSED \
            else None
    except Exception as error:   # a forged observation can be of any shape
        return Verdict(Status.ERROR, reason=Reason("error.protocol", {"what": f"unreadable observations ({type(error).__name__})"}))
    if missing:
        return Verdict(Status.ERROR, reason=Reason("error.protocol", {"what": missing}))
    skipped = list(expected.get("skipped", []))
    if verdict.status == Status.PASSED:
        skipped += [d for d in expected["observations"] if d not in observations]
    verdict.skipped = skipped
    return verdict


def _reference_raised(expected: dict) -> bool:
    """Whether the reference raised in any case (then every learner's verdict is an error)."""
    return any("raised" in case for cases in expected.values() if isinstance(cases, list) for case in cases
               if isinstance(case, dict))


def hidden_difference(verdict: Verdict) -> Verdict:
    """A failure on a hidden case, told without the expected value: its results are in no file a
    student has, and a message must not leak them one by one. The learner's own exception is kept."""
    found = verdict.difference
    assert found is not None   # only a failure comes here, and judge gives each its difference
    if found.key == "aspect.raises" and not found.where:   # what the learner's code raised
        return verdict
    verdict.difference = Difference(found.aspect, "hidden.differs", {"aspect": found.aspect})
    return verdict


def incomplete(yours: dict, expected: dict, usable=None) -> str | None:
    """What a learner's passing observations lack compared with the expected ones: a device, a
    case, or a field anywhere inside (None when they are complete). A device the expected ones
    have may be missing only when it is optional and not ``usable`` on the learner's side (its
    child said so before any learner code ran; None: unknown, as for a recorded run)."""
    devices = set(expected)
    if not set(yours) <= devices:
        return f"observations for devices nobody asked for: {sorted(set(yours) - devices)}"
    for device in devices - set(yours):
        if device not in OPTIONAL_DEVICES or (usable is not None and device in usable):
            return f"no observations on {device}"
    for device in yours:
        if not isinstance(yours[device], list) or len(yours[device]) != len(expected[device]):
            return f"a wrong number of cases on {device}"
        gap = _first_gap(yours[device], expected[device], device)
        if gap:
            return f"an incomplete observation ({gap})"
    return None


def _first_gap(yours, expected, path: str) -> str | None:
    """The first place where ``expected`` holds something that ``yours`` lacks: a field, an item,
    or a value (a learner's None where the expected record has a number, a 0-dim result's value
    among them). Only where the expected record itself has nothing (a meta tensor's values) may
    the learner's have nothing too."""
    if expected is None:
        return None
    if yours is None:
        return path
    if isinstance(expected, dict):
        return _first_gap_in_fields(yours, expected, path)
    if isinstance(expected, list):
        if not isinstance(yours, list) or len(yours) != len(expected):
            return path
        # A tensor's values are long lists of numbers: a number is checked here, without a call or a
        # path per item (a path is made only for the gap found).
        for index, (y, e) in enumerate(zip(yours, expected)):
            if isinstance(e, (dict, list)):
                gap = _first_gap(y, e, f"{path}[{index}]")
                if gap:
                    return gap
            elif y is None and e is not None:
                return f"{path}[{index}]"
    return None


def _paired_by_key(yours: dict, expected: dict) -> dict:
    """A returned dict's items in the order of the expected dict's keys (they pair by key, in any
    order, as the comparison pairs them); any other record as it is."""
    if expected.get("kind") == "dict" and isinstance(yours.get("keys"), list) \
            and isinstance(yours.get("items"), list) and all(isinstance(k, str) for k in yours["keys"]):
        by_key = dict(zip(yours["keys"], yours["items"]))
        return {**yours, "keys": expected["keys"], "items": [by_key.get(k) for k in expected["keys"]]}
    return yours


def _first_gap_in_fields(yours, expected: dict, path: str) -> str | None:
    """``_first_gap`` for a record: every field of the expected one, what the learner printed aside."""
    if not isinstance(yours, dict):
        return path
    yours = _paired_by_key(yours, expected)
    for key, value in expected.items():
        # What was printed is the learner's own; an object's bases describe its class, which the
        # comparison judges (a subclass of the expected class has more of them, and is accepted).
        if key in ("printed", "bases"):
            continue
        if key not in yours:
            return f"{path}.{key}"
        if key == "training" and expected.get("kind") == "module":
            # One flag per submodule: a module with another number of submodules (an activation
            # between the layers) has another number of flags, which the comparison judges.
            if not isinstance(yours[key], list) or not all(isinstance(flag, bool) for flag in yours[key]):
                return f"{path}.{key}"
            continue
        if not isinstance(value, (dict, list)):   # a field's value: checked here (a path only for a gap)
            if value is not None and yours[key] is None:
                return f"{path}.{key}"
            continue
        gap = _first_gap(yours[key], value, f"{path}.{key}")
        if gap:
            return gap
    return None
