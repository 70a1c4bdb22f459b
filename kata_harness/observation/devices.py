"""The device pitfall without a second device: watch, during a call, the tensors the code makes on
the default device, and the first operation that combines one of them with a tensor on the inputs'
device.

On a CPU-only grader every input is on the CPU, so ``torch.ones(n, 1)`` next to ``x`` runs and
gives the right values; with ``x`` on a GPU, ``torch.cat([x, torch.ones(n, 1)])`` raises "Expected
all tensors to be on the same device". The meta device (the first lesson's stand-in) catches many
such mixes, but not every function runs on meta (``torch.linalg.lstsq`` does not). This watch
follows the placement a GPU would give: a tensor made without ``device=`` (a factory such as
``torch.ones``, ``torch.zeros``, ``torch.tensor``, ``torch.arange``), moved to the CPU (``.cpu()``,
``.to("cpu")``), or computed only from such tensors is "made on the default device"; everything
else (the inputs, the models, whatever is computed from them, ``torch.ones_like(x)``,
``x.new_ones(...)``, a factory given ``device=``, a tensor moved with ``.to(x.device)`` or
``.to(x)``) is on the inputs' device. An operation that combines a made tensor that is not 0-dim (a
0-dim CPU tensor may meet a GPU tensor, as a Python number may) with a tensor on the inputs' device
is a mix. Cross-device copies are legal on a GPU too, and never count; so is indexing a tensor on the
inputs' device with a CPU index (a mask or indices). The other way round is not: a tensor made on the
default device indexed by a mask or indices on the inputs' device raises on a GPU ("indices should
be either on cpu or on the same device as the indexed tensor (cpu)", checked before any element is
read), so that reading counts as a mix (``INDEXING``), and what it returns stays on the
default device, as the indexed tensor does. Writing through such an index (``made[mask] = 0``) is
not counted: aten moves the indices to the written tensor's device there.

A move to the inputs' device returns a copy, as on a GPU (on the CPU ``.to`` would return the tensor
itself): the tensor moved stays on the default device, so a bare ``x.to(device)`` statement, whose
copy is thrown away, is told from ``x = x.to(device)``.

Known limits: a module made inside the call (``nn.Linear(3, 1)``) is not followed (its parameters
are made by ``nn.Parameter``); ``torch.device("cpu")`` cannot be told from ``x.device`` on a CPU,
so ``.to(torch.device("cpu"))`` counts as a move to the inputs' device; a tensor made before the call
(a module-level constant of the learner's) counts as on the inputs' device, and so does one made by
``torch.from_numpy``, which torch does not pass through a TorchFunctionMode (a case on meta or a GPU
catches both); and a 0-dim index on the inputs' device never counts (Python's indexing reads a 0-dim
integer as a number).
"""

from __future__ import annotations

import weakref

import torch
from torch.overrides import TorchFunctionMode

from ..aspects.device_mix import INDEXING
from .describe import TENSOR_BASE

# Operations that may take tensors on two devices on a GPU as well (an index on the CPU, a copy
# from one device to another, reading or setting an attribute).
LEGAL_ACROSS_DEVICES = frozenset(("__getitem__", "__setitem__", "copy_", "to", "type_as", "__get__", "__set__",
                                  "index_put_", "index_put", "set_"))


def _tensors(value, found: list, depth: int = 0) -> list:
    """Every tensor in ``value`` (arguments: tensors, lists and tuples of them, dicts' values)."""
    if isinstance(value, torch.Tensor):
        found.append(value)
    elif depth < 4 and isinstance(value, (list, tuple)):
        for item in value:
            _tensors(item, found, depth + 1)
    elif depth < 4 and isinstance(value, dict):
        for item in value.values():
            _tensors(item, found, depth + 1)
    return found


def _caller_tensors(value) -> list:
    """The tensors a caller hands in with ``value``: inside containers, and a model's parameters and buffers."""
    found = _tensors(value, [])
    if isinstance(value, torch.nn.Module):
        found += list(value.parameters()) + list(value.buffers())
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, torch.nn.Module):
                found += list(item.parameters()) + list(item.buffers())
    return found


def _is_cpu_target(value) -> bool:
    return isinstance(value, str) and value.split(":")[0] == "cpu"


class DefaultDeviceWatch(TorchFunctionMode):
    """A TorchFunctionMode that follows which tensors the code made on the default device and
    remembers the first operation that mixed one with a tensor on the inputs' device (``mix``)."""

    def __init__(self, caller_values=()):
        super().__init__()
        self._made: dict = {}     # id -> weak reference, for each tensor made on the default device
        self.mix: str | None = None
        # The caller's tensors (the arguments, their models' parameters and buffers) are on the inputs'
        # device whatever happens to them: on the CPU, x.cpu() is x itself.
        self._caller = {id(t): t for value in caller_values for t in _caller_tensors(value)}

    def made(self, t) -> bool:
        """Whether ``t`` was made on the default device during the call."""
        ref = self._made.get(id(t))
        return ref is not None and ref() is t

    def _mark(self, t, made: bool) -> None:
        if made and self._caller.get(id(t)) is t:
            return
        if made:
            self._made[id(t)] = weakref.ref(t)
        else:
            self._made.pop(id(t), None)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        given = _tensors(args, []) + _tensors(kwargs, [])
        if self.mix is None and name == "__getitem__":
            if self._indexed_from_the_inputs_device(args):
                self.mix = INDEXING
        elif self.mix is None and name not in LEGAL_ACROSS_DEVICES and len(given) > 1:
            made = [t for t in given if self.made(t)]
            if any(TENSOR_BASE.dim(t) > 0 for t in made) and len(made) < len(given):
                self.mix = _shown(func, name)
        result = func(*args, **kwargs)
        placed = self._placement(name, args, kwargs, given)
        if placed is False and name in ("to", "cuda", "type_as") and given and result is given[0] and self.made(result):
            # A move to the inputs' device that is a no-op on the CPU returns the tensor itself; on a GPU
            # it returns a copy and leaves the tensor where it was, so a bare ``x.to(device)`` moves
            # nothing. The copy a GPU would make keeps the tensor on the default device here too.
            result = result.clone()
        if placed is not None:
            for t in _tensors(result, []):
                self._mark(t, placed)
        return result

    def _indexed_from_the_inputs_device(self, args) -> bool:
        """Whether ``args`` of a read ``t[index]`` index a tensor made on the default device with a
        mask or indices (not 0-dim) on the inputs' device, which a GPU refuses."""
        if not args or not isinstance(args[0], torch.Tensor) or not self.made(args[0]):
            return False
        return any(TENSOR_BASE.dim(t) > 0 and not self.made(t) for t in _tensors(args[1:], []))

    def _placement(self, name: str, args, kwargs, given: list) -> bool | None:
        """Whether the result is made on the default device (True), on the inputs' (False), or left as
        it is (None: an attribute read, a result that is not a tensor)."""
        if name in ("__get__", "__set__"):
            return None
        if name == "__getitem__" and given:
            return self.made(args[0])       # indexing keeps the indexed tensor's device, whatever the index's
        if "device" in kwargs and kwargs["device"] is not None:
            return _is_cpu_target(kwargs["device"])
        if name == "cpu":
            return True
        if name in ("cuda", "to", "type_as") and given[1:]:
            return self.made(given[1])      # moved to where that tensor is
        if name == "cuda":
            return False
        if name == "to":
            targets = [a for a in args[1:] if isinstance(a, (str, torch.device, int))]
            if targets:
                return _is_cpu_target(targets[0])
        if not given:
            return True                     # a factory without device=: the default device
        return all(self.made(t) for t in given)


def _shown(func, name: str) -> str:
    """The operation as the learner wrote it: ``torch.cat``, ``Tensor.add`` or ``x @ y``."""
    module = getattr(func, "__module__", None) or ""
    if name.startswith("__") and name.endswith("__"):
        return f"the operator {name}"
    if getattr(func, "__objclass__", None) is not None or "Tensor" in getattr(func, "__qualname__", ""):
        return f"Tensor.{name}"
    prefix = module if module.startswith("torch") else "torch"
    return f"{prefix.replace('torch._C._linalg', 'torch.linalg').replace('torch._C._nn', 'torch.nn.functional')}.{name}"
