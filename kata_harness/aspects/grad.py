"""Gradients: ``backward()`` through the sum of the result, and the gradients that reach the
inputs that are autograd leaves. Observed last: it fills those inputs' ``.grad``."""

from __future__ import annotations

from .base import Aspect, Judging, ObservedCall, relabel
from .compare import Difference, compare

BACKWARD_CUT = 300   # characters of a backward() error kept


class Grad(Aspect):
    """Whether backward() works through the result, and what reaches the leaves."""

    name = "grad"
    stage = 3
    fields = ("grad",)

    def observe(self, call: ObservedCall) -> dict:
        tools = call.tools
        base = tools.base
        leaves, leaf_names = [], []
        for name, value in zip(call.names, list(call.args) + list(call.kwargs.values())):
            for path, t in tools.tensors_by_path(value).items():
                if base.requires_grad.__get__(t) and base.is_leaf.__get__(t):
                    leaves.append(t)
                    leaf_names.append(name + path)
        result = call.result
        if type(result) not in tools.plain_tensors or not base.requires_grad.__get__(result):
            return {"grad": {"backward": "no graph", "leaves": leaf_names}}
        try:
            with tools.torch_functions_off():
                tools.backward(base.sum(result))
        except BaseException as error:
            return {"grad": {"backward": f"{type(error).__name__}: {str(error)[:BACKWARD_CUT]}", "leaves": leaf_names}}
        grads = [tools.describe(base.grad.__get__(t)) for t in leaves]
        return {"grad": {"backward": "ok", "leaves": leaf_names, "grads": grads}}

    def compare(self, yours: dict, expected: dict, judging: Judging) -> Difference | None:
        if "grad" not in expected:
            return None
        y, e = yours["grad"], expected["grad"]
        if y["backward"] != e["backward"]:
            return Difference(self.name, "aspect.backward", {"yours": y["backward"], "expected": e["backward"]}, {})
        leaves = e.get("leaves") or []
        for i, (y_grad, e_grad) in enumerate(zip(y.get("grads", []), e.get("grads", []))):
            where = {"key": "where.grad", "name": leaves[i] if i < len(leaves) else f"input {i}"}
            found = relabel(compare(y_grad, e_grad, frozenset(("shape", "values")), judging.tolerance, where), self.name)
            if found:
                return found
        return None


GRAD = Grad()
