"""The result: its structure (kind, class, container type, length, keys, a module's flags) and,
for each tensor in it, the facts the function chose among ``records.TENSOR_FACTS``. Always checked."""

from __future__ import annotations

from ..records import TENSOR_FACTS
from .base import Aspect, Judging, ObservedCall
from .compare import Difference, compare


class Result(Aspect):
    """What the call returned."""

    name = "result"
    always = True
    fields = ("result",)
    pitfalls = ("kind", "subclass", "training", "shape", "values")

    def observe(self, call: ObservedCall) -> dict:
        return {"result": call.tools.describe(call.result)}

    def compare(self, yours: dict, expected: dict, judging: Judging) -> Difference | None:
        return compare(yours["result"], expected["result"], judging.aspects, judging.tolerance, {"key": "where.result"})


RESULT = Result()

__all__ = ["RESULT", "TENSOR_FACTS"]
