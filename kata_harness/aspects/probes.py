"""Probes: a function's own extra observations after the call (``spec.Probe``: what the model was
fed, the RNG draws that follow, ...), each compared as a description and named by the probe (the
key of its pitfall text). Observed after the call's own aspects, before those that change state."""

from __future__ import annotations

from .base import Aspect, Judging, ObservedCall, relabel
from .compare import Difference, compare


class Probes(Aspect):
    """What each of the function's probes saw."""

    name = "probes"
    always = True
    stage = 2
    fields = ("probes",)

    def applies(self, chosen, device: str) -> bool:
        return True

    def observe(self, call: ObservedCall) -> dict:
        tools = call.tools
        seen = {}
        for probe in call.spec.probes:
            given = tools.probe_call(call.fn, call.args, call.kwargs, call.result)
            value, error, _ = tools.call_catching(probe.observe, (given,), {}, call.learner_file)
            seen[probe.name] = tools.describe(value) if error is None else {"kind": "error", "error": error}
        return {"probes": seen} if seen else {}

    def compare(self, yours: dict, expected: dict, judging: Judging) -> Difference | None:
        for name, e in expected.get("probes", {}).items():
            y = yours.get("probes", {}).get(name, {"kind": "none"})
            found = relabel(compare(y, e, frozenset(("shape", "dtype", "device", "values")), judging.tolerance,
                                    {"key": "where.probe", "name": name}), name)
            if found:
                return found
        return None


PROBES = Probes()
