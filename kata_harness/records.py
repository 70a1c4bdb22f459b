"""The plain-data records that cross process boundaries and live in the answer key.

They are JSON: a child sends them as event fields, the answer key stores them, the judge reads
them. Nothing here is trusted when it comes from a learner child; ``grading`` checks every field
it uses before it uses it. The types document the shapes (and let mypy check our own code).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple, TypedDict

Description = dict[str, Any]   # describe.describe(...): {"kind": ..., and the facts of that kind}


class Reason(NamedTuple):
    """Why a function errored: a message key of ``content.messages`` and the fields it is formatted
    with (a child sends a kata's as ``[key, fields]``)."""

    key: str
    fields: dict


def plain(value):
    """``tolist()`` output made JSON-friendly: complex numbers become [real, imag]."""
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, complex):
        return [value.real, value.imag]
    return value


def device_name(device) -> str:
    """A device as descriptions name it: ``cpu``, ``meta``, ``cuda`` (whatever its index)."""
    return "cuda" if device.type == "cuda" else device.type


@dataclass(frozen=True)
class TensorFact:
    """One fact a tensor's description holds. ``read(base, tensor)`` reads it through torch's
    tensor base class (never through methods learner code could patch), as plain data."""

    name: str
    read: Callable[[Any, Any], Any]


def _values(base, t):
    """A tensor's values as nested lists; None on the data-less meta device."""
    if base.device.__get__(t).type == "meta":
        return None
    return plain(base.tolist(base.cpu(base.detach(t))))


# What an input's description says of the tensor at its path after the call (``same_object``): True
# when it is the very object it was, in the same memory; NEW_MEMORY when it is the same object whose
# memory was swapped for another (``p.data = ...``); False when another object took its place.
NEW_MEMORY = "new memory"


# In the order differences are looked for (the first that differs is the one reported).
TENSOR_FACTS = (
    TensorFact("shape", lambda base, t: list(base.shape.__get__(t))),
    TensorFact("dtype", lambda base, t: str(base.dtype.__get__(t))),
    TensorFact("device", lambda base, t: device_name(base.device.__get__(t))),
    TensorFact("values", _values),
    TensorFact("requires_grad", lambda base, t: bool(base.requires_grad.__get__(t))),
    TensorFact("leaf", lambda base, t: bool(base.is_leaf.__get__(t))),
    TensorFact("history", lambda base, t: base.grad_fn.__get__(t) is not None),
    TensorFact("contiguous", lambda base, t: bool(base.is_contiguous(t))),
)


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
