"""The inputs after the call: each argument described again, with whether each tensor is still
the same object in the same memory and its ``.grad``. A function must leave its inputs as the
reference leaves them (unchanged, unless the reference changes them in place)."""

from __future__ import annotations

from .base import Aspect, Judging, ObservedCall, relabel
from .compare import Difference, compare

# What is compared of each input (its container type never matters: the caller made it).
INPUT_FACTS = frozenset(("shape", "dtype", "device", "values", "requires_grad", "same_object", "grad"))


class Inputs(Aspect):
    """Whether (and how) the call changed its arguments."""

    name = "inputs"
    fields = ("inputs",)
    pitfalls = ("new_memory",)   # an input whose memory was replaced (explanations: its situation)

    def observe(self, call: ObservedCall) -> dict:
        describe = call.tools.describe
        positional = [describe(a, before=call.identities, path=f"{i}") for i, a in enumerate(call.args)]
        return {"inputs": positional + [describe(v, before=call.identities, path=k) for k, v in call.kwargs.items()]}

    def compare(self, yours: dict, expected: dict, judging: Judging) -> Difference | None:
        names = judging.names
        for i, (y, e) in enumerate(zip(yours["inputs"], expected["inputs"])):
            where = {"key": "where.input", "name": names[i] if i < len(names) else f"arg{i}"}
            found = relabel(compare(y, e, INPUT_FACTS, judging.tolerance, where), self.name)
            if found:
                # A module's state after the call: what the probes saw explains it better.
                found.deferred = e.get("kind") == "module" and bool(expected.get("probes"))
                return found
        return None


INPUTS = Inputs()
