"""The global random number generator: whether the call changed torch's global CPU RNG state, as
the reference does or does not (a function with a generator of its own must leave it alone)."""

from __future__ import annotations

from .base import Aspect, Judging, ObservedCall
from .compare import Difference


class Rng(Aspect):
    """Whether the call drew from (or reseeded) the global generator."""

    name = "rng"
    fields = ("rng_changed",)

    def before(self, call: ObservedCall):
        return call.tools.rng_digest()

    def observe(self, call: ObservedCall) -> dict:
        return {"rng_changed": call.tools.rng_digest() != call.before[self.name]}

    def compare(self, yours: dict, expected: dict, judging: Judging) -> Difference | None:
        if "rng_changed" in expected and yours.get("rng_changed") != expected["rng_changed"]:
            return Difference(self.name, "aspect.rng", {"yours": yours.get("rng_changed"),
                                                        "expected": expected["rng_changed"]})
        return None


RNG = Rng()
