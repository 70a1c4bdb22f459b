"""A procedure judged as a procedure: where a contract asks for a given number of steps of a given
update (gradient descent at a rate, an optimizer's steps), the losses the call returns and the
parameters it ends with are compared with the reference's own run on the same case, within the
function's tolerance, not only the end point (a closed-form fit written into the parameters, with
invented falling losses, reaches the same end point).

The losses are the result, or the item ``Function(losses=INDEX)`` names in a tuple result; the
final parameters are the result's other items and every model argument's parameters. A difference
is told by what it most likely is: another number of steps (``step_count``), each loss recorded
after its update (the reference's losses shifted by one step: ``loss_after_step``), the same losses
but parameters that end elsewhere (an update too many or too few after the last recorded loss, or
parameters set by other means: ``final_params``), or a run that leaves the reference's at some step
(``procedure``: another update, or no run at all). The last gives way to a kata's probes, which
name the classic wrong updates (uphill, gradients not cleared) better, and is left to the
``values`` aspect where the function chose it (its pitfall text then explains the run).
"""

from __future__ import annotations

from .base import Aspect, Judging, ObservedCall
from .compare import Difference, Tolerance, _close, _show, compare

FINAL_FACTS = frozenset(("shape", "values"))


def numbers(desc) -> list | None:
    """The losses a description holds, as a flat list of numbers: a 1-D (or 0-dim) tensor's values, a
    list or tuple of numbers or of 0-dim tensors, or one number; None for anything else."""
    if not isinstance(desc, dict):
        return None
    kind = desc.get("kind")
    if kind == "tensor":
        values = desc.get("values")
        if values is None or len(desc.get("shape", [])) > 1:
            return None
        return values if isinstance(values, list) else [values]
    if kind in ("float", "int"):
        return [desc.get("value")]
    if kind in ("list", "tuple"):
        found = [numbers(item) for item in desc.get("items", [])]
        if any(item is None or len(item) != 1 for item in found):
            return None
        return [item[0] for item in found if item is not None]
    return None


def _dtype(desc: dict) -> str:
    if desc.get("kind") == "tensor":
        return str(desc.get("dtype"))
    items = desc.get("items") or []
    return _dtype(items[0]) if items and isinstance(items[0], dict) and items[0].get("kind") == "tensor" else "float"


def _losses(result: dict, at) -> dict | None:
    if at is None:
        return result
    items = result.get("items") if result.get("kind") in ("tuple", "list") else None
    return items[at] if isinstance(at, int) and items is not None and 0 <= at < len(items) else None


class Procedure(Aspect):
    """The losses and final parameters of a run of steps, against the reference's run."""

    name = "procedure"
    fields = ("procedure",)
    pitfalls = ("step_count", "loss_after_step", "final_params")

    def observe(self, call: ObservedCall) -> dict:
        # Where the losses are (the expected observation's word is the one the parent believes), and
        # the parameters each model argument ends with.
        values = list(call.args) + list(call.kwargs.values())
        models = [[name, call.tools.describe(value)] for name, value in zip(call.names, values)
                  if hasattr(value, "named_parameters") and hasattr(value, "training")]
        return {"procedure": {"losses": call.spec.losses, "models": models}}

    def compare(self, yours: dict, expected: dict, judging: Judging) -> Difference | None:
        if "procedure" not in expected or "result" not in expected or "result" not in yours:
            return None
        at = expected["procedure"].get("losses")
        e_desc, y_desc = _losses(expected["result"], at), _losses(yours["result"], at)
        e, y = numbers(e_desc), numbers(y_desc)
        if e is None or y is None or e_desc is None:
            return None   # not a run of losses: the result aspect tells what it is
        where = {"key": "where.result", "path": f"[{at}]" if at is not None else ""}
        if len(y) != len(e):
            return Difference("step_count", "aspect.step_count", {"yours": len(y), "expected": len(e)}, where)
        tolerance = judging.tolerance.for_dtype(_dtype(e_desc))
        first = next((i for i, (mine, theirs) in enumerate(zip(y, e)) if not _close(mine, theirs, tolerance)), None)
        if first is None:
            return self._final(yours, expected, at, judging.tolerance)
        if len(e) > 1 and all(_close(y[i], e[i + 1], tolerance) for i in range(len(e) - 1)):
            return Difference("loss_after_step", "aspect.loss_after_step", {}, where)
        if "values" in judging.aspects:
            return None   # the function's own text for different values explains a run that differs
        found = Difference(self.name, "aspect.procedure",
                           {"step": first + 1, "yours": _show(y[first]), "expected": _show(e[first])}, where)
        found.deferred = bool(expected.get("probes"))   # a kata's probe names a classic wrong update better
        return found

    def _final(self, yours: dict, expected: dict, at, tolerance: Tolerance) -> Difference | None:
        """The parameters the run ended with: the result's other items, then each model argument's."""
        if at is not None:
            y_items, e_items = yours["result"].get("items") or [], expected["result"].get("items") or []
            for i, (y, e) in enumerate(zip(y_items, e_items)):
                if i != at:
                    found = compare(y, e, FINAL_FACTS, tolerance, {"key": "where.result", "path": f"[{i}]"})
                    if found:
                        return _as_final(found)
        y_models = (yours.get("procedure") or {}).get("models") or []
        for (name, e), (_, y) in zip(expected["procedure"].get("models") or [], y_models):
            found = compare(y, e, FINAL_FACTS, tolerance, {"key": "where.input", "name": name})
            if found:
                return _as_final(found)
        return None


def _as_final(found: Difference) -> Difference | None:
    """A difference in the final values is this aspect's; structure (a kind, a shape) is the result's
    or the inputs' aspect's to tell."""
    if found.aspect != "values":
        return None
    found.aspect = "final_params"
    return found


PROCEDURE = Procedure()
