"""What a verdict holds exactly on any CPU: the answer key records float values as one machine's
kernels rounded them, and another CPU (or another kernel family, ``ATEN_CPU_CAPABILITY=default``)
rounds the last bits differently. So float values are compared as the judge compares them, and
exactly only what the contract holds exactly: kinds, classes, dtypes, shapes, devices, integers,
bools and flags."""

from __future__ import annotations

import json
import re

_FLOAT_LITERAL = re.compile(r"-?\d+\.\d+(?:e[+-]?\d+)?", re.IGNORECASE)   # 2.438, -1.5e-05 (not float32)
_INEXACT = ("float", "complex", "half")


def plain(data):
    """What survives the trip through JSON (tuples become lists, and so on): what grade.py's parent
    judges."""
    return json.loads(json.dumps(data, allow_nan=True))


def exact_part(data, inexact: bool = False):
    """``data`` with every value that a CPU may round differently replaced by ``"~"``: the values of
    floating and complex tensors and arrays, Python floats, and the numbers shown in a call or a
    message (four significant digits of inputs that may themselves come from a matrix kernel)."""
    if isinstance(data, dict):
        floating = inexact or any(word in str(data.get("dtype", "")) for word in _INEXACT)
        return {key: (exact_part(value, floating) if key in ("values", "value") else exact_part(value, inexact))
                for key, value in data.items()}
    if isinstance(data, list):
        return [exact_part(item, inexact) for item in data]
    if isinstance(data, float) or (inexact and isinstance(data, int) and not isinstance(data, bool)):
        return "~"
    if isinstance(data, str):
        return _FLOAT_LITERAL.sub("~", data)
    return data


def verdict_shown(verdict) -> tuple:
    """What a learner is told of a verdict, less the float values a CPU may round differently."""
    difference = verdict.difference
    shown = None if difference is None else (difference.aspect, difference.key, exact_part(difference.fields),
                                              exact_part(difference.where))
    return verdict.status, shown, verdict.device, exact_part(verdict.call)
