"""The caller's models after the call: each module argument's training mode and, for every parameter
it had before the call, whether it is still the same object, whether it still requires grad, and its
``.grad`` (none, or which values). A training step that leaves a stale gradient, unfreezes a frozen
parameter, swaps a parameter for a new tensor or leaves the model in another mode than the reference
does differs here, even where the result is right."""

from __future__ import annotations

from .base import Aspect, Judging, ObservedCall, relabel
from .compare import Difference, compare

GRAD_FACTS = frozenset(("shape", "values"))


def _modules(call: ObservedCall) -> list:
    """(argument name, module) for every argument that is a model (duck-typed: no torch here)."""
    values = list(call.args) + list(call.kwargs.values())
    return [(name, value) for name, value in zip(call.names, values)
            if hasattr(value, "named_parameters") and hasattr(value, "training") and hasattr(value, "modules")]


class Caller(Aspect):
    """What the call left of the caller's models: modes, parameters, flags and gradients."""

    name = "caller"
    fields = ("caller",)
    pitfalls = ()

    def before(self, call: ObservedCall):
        return [[name, list(module.named_parameters())] for name, module in _modules(call)]

    def observe(self, call: ObservedCall) -> dict:
        base, describe = call.tools.base, call.tools.describe
        now = dict(_modules(call))
        seen = []
        for name, params in call.before[self.name]:
            module = now.get(name)
            current = dict(module.named_parameters()) if module is not None else {}
            described = []
            for pname, p in params:
                grad = base.grad.__get__(p)
                described.append([pname, {"same_object": current.get(pname) is p,
                                          "requires_grad": bool(base.requires_grad.__get__(p)),
                                          "grad": None if grad is None else describe(grad)}])
            training = [bool(m.training) for m in module.modules()] if module is not None else []
            seen.append({"name": name, "training": training, "params": described})
        return {"caller": seen}

    def compare(self, yours: dict, expected: dict, judging: Judging) -> Difference | None:
        found = self._first(yours, expected, judging)
        if found is not None:
            # A kata's own probe of the model (its flags, its gradients) explains it better.
            found.deferred = bool(expected.get("probes"))
        return found

    def _first(self, yours: dict, expected: dict, judging: Judging) -> Difference | None:
        if "caller" not in expected:
            return None
        for y_model, e_model in zip(yours.get("caller") or [], expected["caller"]):
            model = e_model["name"]
            where = {"key": "where.input", "name": model}
            if y_model["training"] != e_model["training"]:
                return Difference(self.name, "aspect.caller_mode",
                                  {"yours": _mode(y_model["training"]), "expected": _mode(e_model["training"])}, where)
            for (pname, y), (_, e) in zip(y_model["params"], e_model["params"]):
                where = {"key": "where.parameter", "name": f"{model}.{pname}"}
                if y["same_object"] != e["same_object"]:
                    return Difference(self.name, "aspect.caller_replaced", {}, where)
                if y["requires_grad"] != e["requires_grad"]:
                    return Difference(self.name, "aspect.caller_frozen",
                                      {"yours": y["requires_grad"], "expected": e["requires_grad"]}, where)
                if (y["grad"] is None) != (e["grad"] is None):
                    key = "aspect.caller_grad_left" if e["grad"] is None else "aspect.caller_grad_missing"
                    return Difference(self.name, key, {}, where)
                if e["grad"] is not None:
                    found = relabel(compare(y["grad"], e["grad"], GRAD_FACTS, judging.tolerance,
                                            {"key": "where.parameter_grad", "name": f"{model}.{pname}"}), self.name)
                    if found:
                        return found
        return None


def _mode(flags: list) -> str:
    return "train" if all(flags) else "eval" if not any(flags) else "mixed"


CALLER = Caller()
