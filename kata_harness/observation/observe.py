"""Call a function on fresh inputs and record everything observable about it as plain data.

The record (an *observation*) is built from ``describe``'s plain-data descriptions of the result,
the inputs after the call, probes, gradients and what in-place writes reveal; it can be sent
between processes, stored in an answer key and compared without torch.
"""

from __future__ import annotations

import hashlib
import inspect
import io
import os
import random
import sys
import traceback
import warnings
from contextlib import ExitStack
from pathlib import Path
from typing import Any, cast

import numpy as np
import torch

from ..aspects import ASPECTS, Instruments, ObservedCall
from ..content.messages import shortened
from ..records import Observation, Raised
from . import containers, seeding
from .describe import PLAIN_TENSORS, TENSOR_BASE, describe, identity, render_call, tensors_by_path, torch_functions_off
from .devices import DefaultDeviceWatch
from .spec import Call, Case, Function

_WARNING_FILTERS = list(warnings.filters)
_get_rng_state = torch.get_rng_state
_autograd_backward = torch.autograd.backward
_TORCH_DIR = str(Path(torch.__file__).resolve().parent)

OUTPUT_LIMIT = 2000          # characters of printed output kept per call


# ---------------------------------------------------------------------------------------------
# Global state


# The global generators' seed before every call: not 0, nor any seed a learner would write, so that a
# function that reseeds the caller's generator with ``torch.manual_seed(0)`` leaves a state that differs.
CALL_SEED = 2_718_281_828


def reset_global_state() -> None:
    """Put torch, NumPy and Python back into a known state before every call, so that what one
    function (or one learner's experiment) set cannot leak into the next."""
    torch.set_grad_enabled(True)
    torch.set_default_dtype(torch.float32)
    if hasattr(torch, "set_default_device"):
        torch.set_default_device(None)
    torch.autograd.set_detect_anomaly(False)
    if torch.are_deterministic_algorithms_enabled():
        # torch's own switch: the public setter also imports torch._inductor, a second or more on
        # its first use, which would be charged to the function graded next.
        torch._C._set_deterministic_algorithms(False)
    torch.backends.cudnn.deterministic = False
    torch.backends.cudnn.benchmark = False
    seeding.manual_seed(CALL_SEED)
    random.seed(CALL_SEED)
    np.random.seed(CALL_SEED)
    cast(list, warnings.filters)[:] = _WARNING_FILTERS   # a list, which the stubs declare a Sequence


def rng_digest() -> str:
    """A fingerprint of the global random number generators' states: torch's CPU generator, NumPy's
    (np.random.seed, np.random.permutation) and Python's (random.seed, random.shuffle), each of which
    a function that should use a generator of its own may seed or draw from instead."""
    digest = hashlib.sha1(bytes(TENSOR_BASE.tolist(_get_rng_state())))
    numpy_state = cast(tuple, np.random.get_state())   # (name, keys, position, ...)
    digest.update(np.ascontiguousarray(numpy_state[1]).tobytes())
    digest.update(repr((numpy_state[2], random.getstate())).encode())
    return digest.hexdigest()


# ---------------------------------------------------------------------------------------------
# Calling


class _Capture(io.StringIO):
    """Keeps the first OUTPUT_LIMIT characters a call prints and counts the rest."""

    def __init__(self):
        super().__init__()
        self.dropped = 0

    def write(self, text):
        text = str(text)
        room = OUTPUT_LIMIT - self.tell()
        if room > 0:
            super().write(text[:room])
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)


UNREADABLE = "<exception str() failed>"   # Python's own words for a message that cannot be read
_TRACEBACK: Any = BaseException.__dict__["__traceback__"]   # read past a subclass's own __traceback__


def _class_name(error: BaseException) -> str:
    """The name of ``error``'s class as its class object holds it (type's own descriptor: a
    metaclass cannot answer for it)."""
    return type.__dict__["__name__"].__get__(type(error))


def _error_record(error: BaseException, learner_file: str | None) -> Raised:
    """What the learner needs to know about an exception: its type, message and their line. An
    exception that lies about itself (its ``__str__``, its traceback or its class's attributes
    raise) is still reported, by its class's real name, with ``UNREADABLE`` for its message."""
    try:
        return _read_error(error, learner_file)
    except BaseException:   # whatever the learner's exception does when read, it stays data
        return {"type": _class_name(error), "message": UNREADABLE, "todo": False,
                "exit": not issubclass(type(error), Exception)}


def _read_error(error: BaseException, learner_file: str | None) -> Raised:
    """``_error_record``, from what the exception says of itself."""
    frames = traceback.extract_tb(_TRACEBACK.__get__(error))
    frame = _learner_frames(frames, learner_file)[-1:]
    text = shortened(str.__str__(str(error)), 504, " ...")   # an exact str, whatever __str__ returned
    # A stub is a function whose own line raises NotImplementedError; torch raises it too
    # (e.g. for meta tensors), and that is a failure, not a todo.
    learner_path = os.path.realpath(learner_file) if learner_file else None
    last = frames[-1] if frames else None
    stub_line = last is not None and (last.line or "").strip().startswith("raise NotImplementedError") \
        and not os.path.realpath(last.filename).startswith(_TORCH_DIR) \
        and (learner_path is None or os.path.realpath(last.filename) == learner_path)
    record: Raised = {"type": _class_name(error), "message": text,
                      "todo": type(error) is NotImplementedError and stub_line,
                      "exit": not issubclass(type(error), Exception)}
    if issubclass(type(error), SyntaxError):
        syntax = cast(SyntaxError, error)
        record["message"], record["line"] = str.__str__(str(syntax.msg)), syntax.lineno
    if frame:
        record["where"] = f"{_shown_path(frame[0].filename)}:{frame[0].lineno}: {(frame[0].line or '').strip()}"
    return record


def _learner_frames(frames: traceback.StackSummary, learner_file: str | None) -> list:
    """The frames of ``frames`` that run in the learner's file."""
    learner_path = os.path.realpath(learner_file) if learner_file else None
    return [f for f in frames if learner_path and os.path.realpath(f.filename) == learner_path]


def _raised_while_examined(error: BaseException, learner_file: str | None) -> bool:
    """Whether ``error`` came from the learner's code while the harness examined what it returned
    (a ``__repr__``, a metaclass's ``__name__`` or ``__mro__`` that raises): the learner's failure,
    not the harness's."""
    try:
        return bool(_learner_frames(traceback.extract_tb(_TRACEBACK.__get__(error)), learner_file))
    except BaseException:
        return False


def _shown_path(filename: str) -> str:
    """The learner's file as the learner knows it: relative to the project (``katas/k03_dtypes.py``),
    or its name alone where it lies elsewhere (batch's staging folder has a random name, which
    would make two gradings of the same file differ)."""
    shown = os.path.relpath(filename)
    return Path(filename).name if shown.startswith("..") else shown


def call_catching(fn, args, kwargs, learner_file=None):
    """Call ``fn`` catching everything (SystemExit, KeyboardInterrupt, pytest.skip too) and
    capturing what it prints. Returns (result, error record or None, printed text)."""
    capture = _Capture()
    old_out, old_err = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = capture
    # Warnings the call raises are shown with what it printed (they often name the pitfall).
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            return fn(*args, **kwargs), None, capture
        except BaseException as error:  # the learner's failure, whatever it is, is data here
            return None, _error_record(error, learner_file), capture
        finally:
            sys.stdout, sys.stderr = old_out, old_err
            for warning in caught:
                capture.write(f"{warning.category.__name__}: {warning.message}\n")


def _printed(capture: _Capture) -> str:
    text = capture.getvalue()
    return text + (f"\n... (+{capture.dropped} characters)" if capture.dropped else "")


def parameter_names(fn, count: int) -> list[str]:
    """The names of ``fn``'s first ``count`` parameters (arg0, arg1... where unknown)."""
    try:
        names = [p.name for p in inspect.signature(fn).parameters.values()]
    except (TypeError, ValueError):
        names = []
    return (names + [f"arg{i}" for i in range(len(names), count)])[:count]


# ---------------------------------------------------------------------------------------------
# Poking memory: in-place writes that reveal sharing


def poke(obj) -> None:
    """Change every tensor and array inside ``obj`` in place (no autograd), where possible."""
    with torch_functions_off(), torch.no_grad():
        for t in tensors_by_path(obj).values():
            if TENSOR_BASE.device.__get__(t).type == "meta":
                continue
            try:
                if TENSOR_BASE.dtype.__get__(t) == torch.bool:
                    TENSOR_BASE.logical_not_(t)
                else:
                    TENSOR_BASE.add_(t, 1)
            except RuntimeError:
                pass  # e.g. an expanded view: not writable, so it cannot leak either
    for a in _arrays(obj):
        if a.flags.writeable:
            if a.dtype == bool:
                np.logical_not(a, out=a)
            elif a.dtype != object:
                a += 1


def _arrays(obj):
    return [leaf for _, leaf in containers.leaves(obj) if type(leaf) is np.ndarray]


# ---------------------------------------------------------------------------------------------
# Observing one case


def observe_case(fn, spec: Function, case: Case, seed: int, device: str, learner_file=None) -> Observation:
    """Call ``fn`` on case ``case`` built fresh for ``device`` and record what the spec checks:
    the call as the learner would write it, what it printed, what it raised, or else what each
    aspect that applies observes (``aspects.ASPECTS``, stage by stage)."""
    target = torch.device(device)
    reset_global_state()
    args, kwargs = case.build(seed, target)
    names = parameter_names(fn, len(args)) + list(kwargs)
    observation: Observation = {"call": render_call(spec.name, args, kwargs), "label": case.label, "names": names}
    applying = [aspect for aspect in ASPECTS if aspect.applies(spec.aspects, device)]
    seen = ObservedCall(fn, spec, device, args, kwargs, None, names, _identities(args, kwargs), learner_file,
                        again=lambda: _again(fn, case, seed, target, learner_file), tools=INSTRUMENTS)
    contexts = [context for context in (aspect.around(seen) for aspect in applying) if context is not None]
    for _ in range(case.calls - 1):   # earlier calls in a row: what they leave behind is the case
        _, error, printed = _call_within(contexts, fn, args, kwargs, learner_file)
        if error:
            observation["printed"], observation["raised"] = _printed(printed), error
            return observation
    seen.identities = _identities(args, kwargs)
    seen.before = {aspect.name: aspect.before(seen) for aspect in applying}
    result, error, printed = _call_within(contexts, fn, args, kwargs, learner_file)
    observation["printed"] = _printed(printed)
    if error:
        observation["raised"] = error
        return observation
    seen.result = result
    try:
        for stage in sorted({aspect.stage for aspect in applying}):
            for aspect in applying:
                if aspect.stage == stage:
                    observation.update(aspect.observe(seen))   # type: ignore[typeddict-item]
    except BaseException as error:
        if not _raised_while_examined(error, learner_file):
            raise
        observation["raised"] = _error_record(error, learner_file)
    return observation


def _call_within(contexts: list, fn, args, kwargs, learner_file):
    """``call_catching`` inside the aspects' contexts (entered and left around the call alone)."""
    with ExitStack() as stack:
        for context in contexts:
            stack.enter_context(context)
        return call_catching(fn, args, kwargs, learner_file)


def _identities(args, kwargs) -> dict:
    found = {}
    for path, value in [(f"{i}", a) for i, a in enumerate(args)] + list(kwargs.items()):
        found.update(tensors_by_path(value, path))
    return {path: identity(t) for path, t in found.items()}


def _again(fn, case, seed, target, learner_file):
    """A second, fresh call of case ``case``: (args, kwargs, result, error record or None)."""
    reset_global_state()
    args, kwargs = case.build(seed, target)
    for _ in range(case.calls):
        result, error, _ = call_catching(fn, args, kwargs, learner_file)
        if error:
            break
    return args, kwargs, result, error


INSTRUMENTS = Instruments(describe=describe, tensors_by_path=tensors_by_path, plain_tensors=PLAIN_TENSORS, base=TENSOR_BASE,
                          torch_functions_off=torch_functions_off, backward=_autograd_backward, poke=poke,
                          rng_digest=rng_digest, call_catching=call_catching, probe_call=Call,
                          device_watch=DefaultDeviceWatch)


def observe_function(fn, spec: Function, kata: str, device: str, learner_file=None, extras=()) -> list[Observation]:
    """Observations of every public case of ``spec`` on ``device``, then of the ``extras`` official
    grading adds ([case index, seed] pairs); stops early on a stub."""
    observations = []
    for case, seed in spec.runs(kata, extras):
        observation = observe_case(fn, spec, case, seed, device, learner_file)
        observations.append(observation)
        if observation.get("raised", {}).get("todo") or observation.get("raised", {}).get("exit"):
            break
    reset_global_state()
    return observations
