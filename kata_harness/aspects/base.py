"""What every aspect is: its observing half (in the child) and its comparing half (in the parent)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .compare import STRUCTURE, Difference, Tolerance


@dataclass
class Instruments:
    """What the observing room (``observation``) hands each aspect to observe with, so that no aspect
    imports torch: the describer, the reader of torch's tensor facts (``base``: torch's tensor base
    class, never patched methods), and the harness's own calls of learner code and of autograd."""

    describe: Callable[..., dict]           # describe(obj, before=None, path="") -> plain data
    tensors_by_path: Callable[..., dict]    # every plain tensor inside an object, by path
    plain_tensors: tuple                    # the tensor classes described as tensors
    base: Any                               # torch's tensor base class
    torch_functions_off: Callable[[], Any]  # a context without __torch_function__
    backward: Callable[[Any], None]         # torch.autograd.backward as it was when the harness loaded
    poke: Callable[[Any], None]             # change every tensor and array inside an object in place
    rng_digest: Callable[[], str]           # a fingerprint of the global RNG states (torch, NumPy, Python)
    call_catching: Callable[..., tuple]     # (fn, args, kwargs, learner_file) -> (result, error, printed)
    probe_call: Callable[..., Any]          # spec.Call(fn, args, kwargs, result): what a probe is given
    device_watch: Callable[..., Any]        # (the caller's values) -> a context following tensors made on the CPU


@dataclass
class ObservedCall:
    """One call as the child saw it, handed to each aspect's ``observe``: the function and the
    case, the arguments after the call and its result, the parameter names, the identities of the
    input tensors before the call, ``again()``: fresh arguments and a fresh call, for an aspect that
    must call the function a second time, and the instruments to observe with."""

    fn: Callable
    spec: Any                      # the spec.Function being checked
    device: str
    args: list
    kwargs: dict
    result: Any
    names: list[str]
    identities: dict               # path -> (id, data pointer) of each input tensor before the call
    learner_file: str | None
    again: Callable[[], tuple[list, dict, Any, Any]]   # -> (args, kwargs, result, error record or None)
    tools: Instruments
    before: dict = field(default_factory=dict)         # what aspects recorded before the call, by name
    watching: dict = field(default_factory=dict)       # the context each aspect's ``around`` gave, by name


@dataclass
class Judging:
    """What the comparing halves need besides the two observations: the function's chosen aspects
    and tolerance, and the parameter names (for messages)."""

    aspects: frozenset
    tolerance: Tolerance
    names: list


class Aspect:
    """One aspect. ``always``: observed and compared for every function (else only when named in
    ``Function(aspects=...)``). ``stage``: 1 observes right after the call, 2 after the stage-1
    aspects, 3 last (it may run the function again or change its inputs' gradients). ``fields``:
    what it adds to an observation. ``pitfalls``: the pitfall keys its differences carry."""

    name: str = ""
    always: bool = False
    stage: int = 1
    fields: tuple[str, ...] = ()
    pitfalls: tuple[str, ...] = ()

    def applies(self, chosen, device: str) -> bool:
        """Whether this aspect observes a call of a function that chose ``chosen``, on ``device``."""
        return self.always or self.name in chosen

    def before(self, call: ObservedCall) -> Any:
        """What to remember just before the call (kept in ``call.before[self.name]``)."""
        return None

    def around(self, call: ObservedCall) -> Any:
        """A context the call runs in (each call of a case, the earlier ones too), or None."""
        return None

    def observe(self, call: ObservedCall) -> dict:
        """The fields this aspect adds to the observation of ``call`` (in the child)."""
        raise NotImplementedError

    def compare(self, yours: dict, expected: dict, judging: Judging) -> Difference | None:
        """The first difference this aspect finds between two observations of one case (in the
        parent); a difference marked ``deferred`` gives way to one a later aspect finds."""
        raise NotImplementedError


def relabel(found: Difference | None, aspect: str) -> Difference | None:
    """Attribute a difference found deep inside an aspect's check to that aspect (its pitfall text)."""
    if found is not None and found.aspect in STRUCTURE:
        found.aspect = aspect
    return found
