"""Independence: whether in-place writes leak between the inputs and the result. Two fresh calls:
after the first, every input tensor is changed in place and the result described; after the
second, the result is changed and the inputs described. The result must share memory with the
inputs exactly where the reference's does. Not on the data-less meta device."""

from __future__ import annotations

from .base import Aspect, Judging, ObservedCall, relabel
from .compare import Difference, compare


class Independent(Aspect):
    """What an in-place write to one side shows on the other."""

    name = "independent"
    stage = 3
    fields = ("after_input_write", "after_result_write")

    def applies(self, chosen, device: str) -> bool:
        return self.name in chosen and device != "meta"

    def observe(self, call: ObservedCall) -> dict:
        describe, poke = call.tools.describe, call.tools.poke
        args, kwargs, result, error = call.again()
        if error:
            after_input_write = {"kind": "error", "error": error}
        else:
            poke([args, kwargs])
            after_input_write = describe(result)
        args, kwargs, result, error = call.again()
        after_result_write: dict | list
        if error:
            after_result_write = {"kind": "error", "error": error}
        else:
            poke(result)
            after_result_write = [describe(a) for a in args] + [describe(v) for v in kwargs.values()]
        return {"after_input_write": after_input_write, "after_result_write": after_result_write}

    def compare(self, yours: dict, expected: dict, judging: Judging) -> Difference | None:
        if "after_input_write" not in expected:
            return None
        names = judging.names
        first = names[0] if names else "x"
        found = relabel(compare(yours["after_input_write"], expected["after_input_write"], frozenset(("values",)),
                                judging.tolerance, {"key": "where.after_input_write", "name": first}), self.name)
        if found:
            return found
        y_inputs, e_inputs = yours["after_result_write"], expected["after_result_write"]
        if isinstance(e_inputs, list) and isinstance(y_inputs, list):
            for i, (y, e) in enumerate(zip(y_inputs, e_inputs)):
                where = {"key": "where.after_result_write", "name": names[i] if i < len(names) else f"arg{i}"}
                found = relabel(compare(y, e, frozenset(("values",)), judging.tolerance, where), self.name)
                if found:
                    return found
        return None


INDEPENDENT = Independent()
