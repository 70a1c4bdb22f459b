"""The caller's models after the call: each module argument's training mode and, for every parameter
it had before the call, whether it is still the same object and whether it still requires grad; with
``caller_grads``, also its ``.grad`` (none, or which values). A training step that leaves a stale gradient, unfreezes a frozen
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
    grads = False   # whether the parameters' .grad after the call is part of the contract

    def before(self, call: ObservedCall):
        # Each parameter object as it was before the call (the child keeps them; only plain data leaves).
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
                facts: dict[str, object] = {"same_object": current.get(pname) is p,
                         "requires_grad": bool(base.requires_grad.__get__(p))}
                if self.grads:
                    # Only where the contract names it: otherwise a .grad the reference happens to leave
                    # would be a field a correct answer (torch.autograd.grad) cannot match.
                    grad = base.grad.__get__(p)
                    facts["grad"] = None if grad is None else describe(grad)
                described.append([pname, facts])
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
                found = self._parameter(f"{model}.{pname}", y, e, judging)
                if found:
                    return found
        return None

    def _parameter(self, name: str, y: dict, e: dict, judging: Judging) -> Difference | None:
        """The first difference in one parameter of the caller's model."""
        where = {"key": "where.parameter", "name": name}
        if y["same_object"] != e["same_object"]:
            return Difference(self.name, "aspect.caller_replaced", {}, where)
        if y["requires_grad"] != e["requires_grad"]:
            return Difference(self.name, "aspect.caller_frozen",
                              {"yours": y["requires_grad"], "expected": e["requires_grad"]}, where)
        if not self.grads:
            return None
        if (y["grad"] is None) != (e["grad"] is None):
            key = "aspect.caller_grad_left" if e["grad"] is None else "aspect.caller_grad_missing"
            return Difference(self.name, key, {}, where)
        if e["grad"] is None:
            return None
        return relabel(compare(y["grad"], e["grad"], GRAD_FACTS, judging.tolerance,
                               {"key": "where.parameter_grad", "name": name}), self.name)


def _mode(flags: list) -> str:
    return "train" if all(flags) else "eval" if not any(flags) else "mixed"


class CallerGrads(Caller):
    """The caller aspect where the contract also says what the parameters' ``.grad`` holds after the
    call (a function that must leave them alone; most training steps promise nothing about it, and
    ``torch.autograd.grad`` leaves ``.grad`` as it was)."""

    name = "caller_grads"
    fields = ("caller_grads",)
    grads = True

    def observe(self, call: ObservedCall) -> dict:
        return {"caller_grads": super().observe(call)["caller"]}

    def _first(self, yours: dict, expected: dict, judging: Judging) -> Difference | None:
        if "caller_grads" not in expected:
            return None
        return super()._first({"caller": yours.get("caller_grads")}, {"caller": expected["caller_grads"]}, judging)


CALLER = Caller()
CALLER_GRADS = CallerGrads()
