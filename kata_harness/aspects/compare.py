"""Compare a learner's observation with the reference's and find the first difference.

Pure Python on plain data (no torch): grade.py's parent process decides the score with this,
so nothing the learner's code patches can change a verdict.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from ..content.messages import shortened
from ..records import TENSOR_FACTS

# Default tolerances by dtype (as torch.testing uses); exact for everything else.
TOLERANCES = {
    "torch.float16": (1e-3, 1e-5), "torch.bfloat16": (1.6e-2, 1e-5),
    "torch.float32": (1.3e-6, 1e-5), "torch.complex64": (1.3e-6, 1e-5),
    "torch.float64": (1e-7, 1e-7), "torch.complex128": (1e-7, 1e-7),
    "float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7),
    "float": (1e-6, 1e-6),
}

TENSOR_ORDER = tuple(fact.name for fact in TENSOR_FACTS)
# The differences found inside descriptions, which an aspect's check attributes to itself.
STRUCTURE = TENSOR_ORDER + ("kind", "inputs", "subclass", "training", "raises")


@dataclass
class Difference:
    """The first thing that differed: ``aspect`` picks the pitfall text, ``key`` the message."""

    aspect: str
    key: str
    fields: dict = field(default_factory=dict)
    where: dict = field(default_factory=dict)   # {"key": "where.input", "name": "x", "path": "[0]"}
    deferred: bool = False   # gives way to a difference a later aspect finds (it explains this one better)


@dataclass
class Tolerance:
    """Relative and absolute tolerance; unset ones take the dtype's default."""
    rtol: float | None = None
    atol: float | None = None

    def for_dtype(self, dtype: str) -> tuple[float, float] | None:
        """(rtol, atol) for values of ``dtype``, or None where values must match exactly."""
        default = TOLERANCES.get(dtype)
        if default is None:
            return None
        return (self.rtol if self.rtol is not None else default[0],
                self.atol if self.atol is not None else default[1])


def kind_of(desc: dict) -> list:
    """[kind, class, item count]: what a description is, for the report to put into words."""
    return [desc.get("kind"), desc.get("class"), len(desc.get("items", []))]


def _first_value_difference(yours, expected, tolerance, index=()):
    """Walk two nested lists; return (index, yours, expected) of the first mismatch or None."""
    if isinstance(expected, list) and isinstance(yours, list):
        if len(yours) != len(expected):
            return index, f"{len(yours)} items", f"{len(expected)} items"
        if yours == expected and _equal_means_close(yours, expected, tolerance):
            return None   # a tensor's values as the reference's, to the last bit: no call per item
        for i, (y, e) in enumerate(zip(yours, expected)):
            if isinstance(e, list) and isinstance(y, list):
                found = _first_value_difference(y, e, tolerance, index + (i,))
                if found:
                    return found
            elif not _close(y, e, tolerance):   # a number of a tensor's values: no call and no index per item
                return index + (i,), y, e
        return None
    return None if _close(yours, expected, tolerance) else (index, yours, expected)


def _equal_means_close(yours: list, expected: list, tolerance) -> bool:
    """Whether two lists that are equal (``==``, item by item) are also ``_close`` item by item,
    known from the kinds of items they hold, in C loops: floats only (within a tolerance or not);
    without a tolerance, no bool beside another kind (``True == 1``, which ``_close`` refuses). A
    list of lists is left to the walk, row by row."""
    kinds = set(map(type, yours)) | set(map(type, expected))
    if tolerance is not None:
        return kinds <= {float}
    return list not in kinds and (bool not in kinds or kinds == {bool})


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _close(yours, expected, tolerance) -> bool:
    """Equal within tolerance (numbers) or exactly equal (everything else); NaN equals NaN."""
    if tolerance is None or not _is_number(expected) or not _is_number(yours):
        if isinstance(yours, float) and isinstance(expected, float) and math.isnan(yours) and math.isnan(expected):
            return True
        return type(yours) is type(expected) and yours == expected or \
            _is_number(yours) and _is_number(expected) and yours == expected
    rtol, atol = tolerance
    y, e = float(yours), float(expected)
    if math.isnan(e) or math.isnan(y):
        return math.isnan(e) and math.isnan(y)
    if math.isinf(e) or math.isinf(y):
        return y == e
    return abs(y - e) <= atol + rtol * abs(e)


def _show(value) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, str):
        return value
    text = repr(value)
    return shortened(text, 120)


def _index_text(index) -> str:
    return "[" + ", ".join(str(i) for i in index) + "]" if index else "[]"


def compare(yours: dict, expected: dict, aspects, tolerance: Tolerance, where: dict) -> Difference | None:
    """First difference between two descriptions, looking only at ``aspects``."""
    y_kind, e_kind = yours.get("kind"), expected.get("kind")
    if y_kind == "error" or e_kind == "error":
        return Difference("raises", "aspect.raises", {"error": error_text((yours if y_kind == "error" else expected)
                                                                           .get("error", {}))}, where)
    if y_kind == "tensor-subclass":
        return Difference("subclass", "aspect.subclass", {"yours": yours.get("class")}, where)
    if {y_kind, e_kind} == {"list", "tuple"} and "container" not in aspects:
        y_kind = e_kind   # the contract accepts either sequence
    # A tensor and an nn.Parameter are interchangeable (same kind); other classes must match, or be a
    # subclass of the expected object's class.
    if y_kind != e_kind or e_kind in ("namedtuple", "object") and yours.get("class") != expected.get("class") \
            and not (e_kind == "object" and expected.get("class") in yours.get("bases", ())):
        return Difference("kind", "aspect.kind", {"yours": kind_of(yours), "expected": kind_of(expected)}, where)
    compare_kind = _BY_KIND.get(e_kind)
    return compare_kind(yours, expected, aspects, tolerance, where) if compare_kind else None


def _compare_array(yours, expected, aspects, tolerance, where):
    return _compare_tensor(yours, expected, aspects & {"shape", "dtype", "values"}, tolerance, where)


def _compare_sequence(yours, expected, aspects, tolerance, where):
    y_items, e_items = yours["items"], expected["items"]
    if len(y_items) != len(e_items):
        return Difference("shape", "aspect.length", {"yours": len(y_items), "expected": len(e_items)}, where)
    return _first_found(compare(y, e, aspects, tolerance, _extend(where, f"[{i}]"))
                        for i, (y, e) in enumerate(zip(y_items, e_items)))


def _compare_dict(yours, expected, aspects, tolerance, where):
    if yours["keys"] != expected["keys"] and sorted(yours["keys"]) != sorted(expected["keys"]):
        return Difference("kind", "aspect.keys", {"yours": ", ".join(yours["keys"]) or "none",
                                                  "expected": ", ".join(expected["keys"])}, where)
    y_by_key = dict(zip(yours["keys"], yours["items"]))
    return _first_found(compare(y_by_key[key], e, aspects, tolerance, _extend(where, f"[{key}]"))
                        for key, e in zip(expected["keys"], expected["items"]))


def _compare_module(yours, expected, aspects, tolerance, where):
    # A layer the module does not register (kept in a plain Python list) owns no parameter: the
    # counts differ even where every registered one matches.
    for group in ("params", "buffers"):
        if len(yours[group]) != len(expected[group]):
            return Difference("kind", "aspect.length", {"yours": len(yours[group]), "expected": len(expected[group])},
                              _extend(where, ".parameters()" if group == "params" else ".buffers()"))
    if _modes_differ(yours["training"], expected["training"]):
        return Difference("training", "aspect.training",
                          {"yours": _show(yours["training"]), "expected": _show(expected["training"])}, where)
    return _first_found(compare(y, e, aspects & {"shape", "dtype", "device", "values"}, tolerance,
                                _extend(where, f".{name}"))
                        for group in ("params", "buffers") for (name, y), (_, e) in zip(yours[group], expected[group]))


def _modes_differ(yours: list, expected: list) -> bool:
    """Whether two modules' training flags (one per submodule, in ``modules()`` order) differ. Where
    the modules hold another number of submodules (an activation between the layers: it owns no
    parameter, and the parameters matched above), their flags have no positions in common: the
    modes they hold between them are compared."""
    if len(yours) != len(expected):
        return set(yours) != set(expected)
    return yours != expected


def _compare_scalar(yours, expected, aspects, tolerance, where):
    e_kind = expected["kind"]
    if e_kind == "numpy-scalar" and yours.get("dtype") != expected.get("dtype") and "dtype" in aspects:
        return Difference("dtype", "aspect.dtype", {"yours": yours["dtype"], "expected": expected["dtype"]}, where)
    tol = tolerance.for_dtype("float") if e_kind in ("float", "complex", "numpy-scalar") else None
    if _first_value_difference(yours.get("value"), expected.get("value"), tol):
        return Difference("values", "aspect.value",
                          {"yours": _show(yours.get("value")), "expected": _show(expected.get("value"))}, where)
    return None


def _first_found(differences) -> Difference | None:
    """The first difference a lazy sequence of comparisons finds (the rest are never compared)."""
    return next((found for found in differences if found), None)


def _compare_tensor(yours, expected, aspects, tolerance, where):
    """A tensor's chosen facts in ``TENSOR_ORDER``, then (for an input) whether it is still the same
    object, and its ``.grad``."""
    for fact in TENSOR_ORDER:
        if fact not in aspects:
            continue
        found = _compare_values(yours, expected, tolerance, where) if fact == "values" else \
            _compare_fact(fact, yours.get(fact), expected.get(fact), where)
        if found:
            return found
    if "same_object" in aspects and "same_object" in expected and yours.get("same_object") != expected["same_object"]:
        return Difference("inputs", "aspect.same_object",
                          {"yours": yours.get("same_object"), "expected": expected["same_object"]}, where)
    if "grad" in aspects and "grad" in expected:
        return _compare_grad(yours.get("grad"), expected["grad"], aspects, tolerance, _extend(where, ".grad"))
    return None


def _compare_fact(fact: str, y, e, where) -> Difference | None:
    """One fact other than the values: equal, or the difference named after it."""
    if y == e:
        return None
    shown = {"yours": _show(tuple(y) if fact == "shape" else y), "expected": _show(tuple(e) if fact == "shape" else e)}
    return Difference(fact, f"aspect.{fact}", shown, where)


def _compare_values(yours, expected, tolerance, where) -> Difference | None:
    """The values, within the dtype's tolerance; skipped only where the expected description has none
    (a meta tensor): silence on the learner's side never passes."""
    e = expected.get("values")
    if e is None:
        return None
    found = _first_value_difference(yours.get("values"), e, tolerance.for_dtype(expected["dtype"]))
    if not found:
        return None
    index, y_value, e_value = found
    if not index:   # a 0-dim tensor: there is no position to name
        return Difference("values", "aspect.value", {"yours": _show(y_value), "expected": _show(e_value)}, where)
    return Difference("values", "aspect.values", {"index": _index_text(index), "yours": _show(y_value),
                                                  "expected": _show(e_value)}, where)


def _compare_grad(y_grad, e_grad, aspects, tolerance, where) -> Difference | None:
    """An input's ``.grad`` after the call: present where the reference's is, with its shape and values."""
    if (y_grad is None) != (e_grad is None):
        return Difference("inputs", "aspect.value", {"yours": "None" if y_grad is None else "a tensor",
                                                     "expected": "None" if e_grad is None else "a tensor"}, where)
    if e_grad is None:
        return None
    return _compare_tensor(y_grad, e_grad, aspects & {"shape", "values"}, tolerance, where)


# How each kind of description is compared (kinds not listed have nothing more to compare).
# Keyed by a description's "kind", looked up with whatever kind a description holds (None when it has none).
_BY_KIND: dict[str | None, Callable[..., Difference | None]] = {
    "tensor": _compare_tensor, "ndarray": _compare_array,
    "list": _compare_sequence, "tuple": _compare_sequence, "namedtuple": _compare_sequence,
    "dict": _compare_dict, "module": _compare_module,
    **dict.fromkeys(("int", "float", "bool", "str", "complex", "numpy-scalar", "device", "dtype"), _compare_scalar),
}


def _extend(where: dict, suffix: str) -> dict:
    return {**where, "path": where.get("path", "") + suffix}


def tidy_cut(text: str, limit: int | None = None) -> str:
    """``text`` without a word cut in half: a message shortened elsewhere (marked by a trailing
    " ..." or by reaching ``limit`` characters) ends at its last full sentence or word, then "..."."""
    cut = text.endswith(" ...")
    if cut:
        text = text[:-4]
    elif limit is None or len(text) < limit:
        return text
    sentence = max(text.rfind(". "), text.rfind("; "))
    if sentence >= len(text) // 2:
        return text[:sentence + 1] + " ..."
    space = text.rfind(" ")
    return (text[:space] if space > 0 else text).rstrip(",;:") + " ..."


def error_text(error: dict) -> str:
    """An exception record (type, message, where) as the learner reads it."""
    kind, detail = error.get("type", "Exception"), tidy_cut(str(error.get("message", "")).strip())
    text = f"{kind}: {detail}" if detail else kind
    return text + (f"\n    at {error['where']}" if error.get("where") else "")
