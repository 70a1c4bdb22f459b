"""The device pitfall on a grader without a second device: during the call, the tensors the code
makes on the default device (``torch.ones(n, 1)``, no ``device=``) are followed, and the first
operation that combines one (not 0-dim) with a tensor on the inputs' device is recorded. On a GPU
that operation raises "Expected all tensors to be on the same device" (or, for such a tensor indexed
by a mask or indices on the inputs' device, ``INDEXING``, "indices should be either on cpu or on the
same device as the indexed tensor"); on the CPU it runs, and only this aspect sees it. The watch
itself is the observing room's (``observation.devices``)."""

from __future__ import annotations

from .base import Aspect, Judging, ObservedCall
from .compare import Difference

INDEXING = "indexing"   # the watch's name for a tensor made on the default device indexed from the inputs' device


class DeviceMix(Aspect):
    """Whether the call mixed a tensor made on the default device with one on the inputs' device."""

    name = "device_mix"
    fields = ("device_mix",)
    pitfalls = ()

    def around(self, call: ObservedCall):
        # One watch for every call of the case: a tensor made by an earlier call is still made.
        call.watching[self.name] = call.tools.device_watch(list(call.args) + list(call.kwargs.values()))
        return call.watching[self.name]

    def observe(self, call: ObservedCall) -> dict:
        watch = call.watching.get(self.name)
        return {"device_mix": None if watch is None else watch.mix}

    def compare(self, yours: dict, expected: dict, judging: Judging) -> Difference | None:
        if "device_mix" not in expected or expected["device_mix"] is not None:
            return None   # the reference mixes too (or no watch): nothing to hold against the learner
        mixed = yours.get("device_mix")
        if mixed is None:
            return None
        if mixed == INDEXING:
            return Difference(self.name, "aspect.device_mix_index", {}, {})
        return Difference(self.name, "aspect.device_mix", {"op": str(mixed)[:80]}, {})


DEVICE_MIX = DeviceMix()
