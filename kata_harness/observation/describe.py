"""Describe objects as plain data, and render a learner's call as they would have written it.

A description holds only lists, numbers and strings, so it can be sent between processes, stored
in an answer key and compared without torch. Tensor facts are read through
``torch._C.TensorBase`` with ``__torch_function__`` disabled: learner code can patch
``torch.Tensor`` or return a subclass, but it cannot change what is read here.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from ..content.messages import shortened
from ..records import NEW_MEMORY, TENSOR_FACTS, device_name, plain
from . import containers

# What the observing room reads tensors with, past anything a learner patched or subclassed:
# torch's own tensor base class (Any: its descriptors are read unbound, ``TENSOR_BASE.dtype.__get__(t)``,
# which the stubs do not describe), the classes described as plain tensors, and the context in
# which no ``__torch_function__`` override runs.
TENSOR_BASE: Any = getattr(torch._C, "TensorBase", None) or torch._C._TensorBase   # renamed in torch 2.3
PLAIN_TENSORS = (torch.Tensor, torch.nn.Parameter)
torch_functions_off = torch._C.DisableTorchFunction

SMALL_TENSOR = 8             # tensors up to this many elements are shown with their values


# ---------------------------------------------------------------------------------------------
# Describing objects


def _tensor_values(t):
    """A tensor's values as plain data (None on the meta device)."""
    return next(fact for fact in TENSOR_FACTS if fact.name == "values").read(TENSOR_BASE, t)


def describe(obj, *, before: dict | None = None, path: str = "", depth: int = 0) -> dict:
    """Plain-data description of ``obj``.

    ``before`` maps paths to (id, data pointer) recorded before the call; when given, tensors
    also report whether they are still the same object in the same memory, and their ``.grad``.
    """
    with torch_functions_off():
        return _describe(obj, before, path, depth)


def _describe(obj, before, path, depth):
    kind = type(obj)
    if depth > 12:
        return {"kind": "object", "class": "too deeply nested"}
    if kind in PLAIN_TENSORS:
        return _describe_tensor(obj, before, path, depth)
    if isinstance(obj, torch.Tensor):
        return {"kind": "tensor-subclass", "class": kind.__name__}
    simple = _describe_simple(obj)
    if simple is not None:
        return simple
    inner = containers.items(obj)
    if inner is not None:
        return _describe_container(obj, inner, before, path, depth)
    if isinstance(obj, torch.nn.Module):
        return {
            "kind": "module", "class": kind.__name__,
            "training": [m.training for m in obj.modules()],
            "params": [[n, _describe(p, None, "", depth + 1)] for n, p in obj.named_parameters()],
            "buffers": [[n, _describe(b, None, "", depth + 1)] for n, b in obj.named_buffers()],
        }
    # The classes it is an instance of: a subclass of the expected class (a DataLoader of one's own) is one.
    return {"kind": "object", "class": kind.__name__, "bases": [c.__name__ for c in kind.__mro__[1:-1]]}


def _describe_tensor(obj, before, path, depth) -> dict:
    """A plain tensor's facts (``records.TENSOR_FACTS``); with ``before``, also whether it is still the
    same object in the same memory, and its ``.grad``."""
    desc = {"kind": "tensor", "class": type(obj).__name__, **{fact.name: fact.read(TENSOR_BASE, obj) for fact in TENSOR_FACTS}}
    if before is not None:
        desc["same_object"] = _same_object(before.get(path), identity(obj))
        # Only leaves keep .grad (reading it on a non-leaf just warns).
        grad = TENSOR_BASE.grad.__get__(obj) if desc["leaf"] else None
        desc["grad"] = None if grad is None else _describe(grad, None, path, depth + 1)
    return desc


def _describe_simple(obj) -> dict | None:
    """A NumPy array or scalar, None, a number, a string, a device or a dtype; None for anything else."""
    kind = type(obj)
    if kind is np.ndarray:
        return {"kind": "ndarray", "shape": list(obj.shape), "dtype": str(obj.dtype),
                "values": plain(obj.tolist()) if obj.dtype != object else None}
    if isinstance(obj, np.generic):
        return {"kind": "numpy-scalar", "dtype": str(obj.dtype), "value": plain(obj.item())}
    if obj is None:
        return {"kind": "none"}
    if kind in (bool, int, float, str):
        return {"kind": kind.__name__, "value": obj}
    if kind is complex:
        return {"kind": "complex", "value": [obj.real, obj.imag]}
    if kind is torch.device:
        return {"kind": "device", "value": device_name(obj)}
    if kind is torch.dtype:
        return {"kind": "dtype", "value": str(obj)}
    return None


def _describe_container(obj, inner, before, path, depth) -> dict:
    """A list, tuple, named tuple or dict, item by item."""
    kind = type(obj)
    desc = {"kind": "namedtuple" if containers.is_namedtuple(obj) else kind.__name__,
            "items": [_describe(v, before, path + containers.step(obj, k), depth + 1) for k, v in inner]}
    if desc["kind"] == "namedtuple":
        desc["class"] = kind.__name__
    if kind is dict:
        desc["keys"] = [repr(k) for k in obj]
    return desc


def _same_object(then, now: tuple):
    """True for the same object in the same memory; ``NEW_MEMORY`` for the same object whose memory
    was replaced (``p.data = ...``), which autograd and every view of the old memory never see."""
    if then == now:
        return True
    return NEW_MEMORY if then is not None and then[0] == now[0] else False


def identity(t) -> tuple:
    """What tells one tensor from another after a call: the object, and where its memory starts."""
    ptr = 0 if TENSOR_BASE.device.__get__(t).type == "meta" else TENSOR_BASE.data_ptr(t)
    return (id(t), ptr)


def tensors_by_path(obj, path: str = "") -> dict:
    """Every plain tensor inside ``obj`` (lists, tuples, dicts), by the path ``describe`` uses."""
    return {where: leaf for where, leaf in containers.leaves(obj, path) if type(leaf) in PLAIN_TENSORS}


# ---------------------------------------------------------------------------------------------
# Showing the learner's call


def render(obj, depth: int = 0) -> str:
    """A short, readable rendering of an argument, for the "Called ..." line."""
    with torch_functions_off():
        return _render(obj, depth)


def _render(obj, depth):
    kind = type(obj)
    if kind in PLAIN_TENSORS:
        return _render_tensor(obj)
    if kind is np.ndarray:
        if 0 < obj.size <= SMALL_TENSOR and obj.dtype != object:
            return f"np.array({_render_values(plain(obj.tolist()))}, dtype={obj.dtype})"
        return f"np.ndarray(<shape {obj.shape}>, dtype={obj.dtype})"
    if depth > 3:
        return "..."
    inner = containers.items(obj)
    if inner is not None:
        return _render_container(obj, inner, depth)
    if isinstance(obj, torch.nn.Module):
        return _render_module(obj)
    if kind is torch.device:
        return f"torch.device('{obj}')"
    if callable(obj) and hasattr(obj, "__name__"):
        return obj.__name__
    return repr(obj)


def _render_tensor(obj) -> str:
    """``tensor([1., 2.], dtype=float64, device='meta', requires_grad=True)``, or its shape when large."""
    shape = tuple(TENSOR_BASE.shape.__get__(obj))
    dtype = str(TENSOR_BASE.dtype.__get__(obj)).replace("torch.", "")
    device = TENSOR_BASE.device.__get__(obj)
    extras = [] if dtype == "float32" else [f"dtype={dtype}"]
    if device.type != "cpu":
        extras.append(f"device='{device_name(device)}'")
    if TENSOR_BASE.requires_grad.__get__(obj):
        extras.append("requires_grad=True")
    if not TENSOR_BASE.is_contiguous(obj):
        extras.append("non-contiguous")
    small = 0 < TENSOR_BASE.numel(obj) <= SMALL_TENSOR and device.type != "meta"
    body = _render_values(_tensor_values(obj)) if small else f"<shape {shape}>"
    return f"tensor({', '.join([body, *extras])})"


def _render_container(obj, inner, depth) -> str:
    """A list, tuple, named tuple or dict as the learner would write it."""
    shown = [(key, _render(value, depth + 1)) for key, value in inner]
    if containers.is_namedtuple(obj):
        return f"{type(obj).__name__}({', '.join(f'{key}={text}' for key, text in shown)})"
    if type(obj) is dict:
        return "{" + ", ".join(f"{key!r}: {text}" for key, text in shown) + "}"
    body = ", ".join(text for _, text in shown)
    if type(obj) is list:
        return f"[{body}]"
    return f"({body},)" if len(shown) == 1 else f"({body})"


def _render_module(obj) -> str:
    """``Sequential(Linear, ReLU, float32 on cpu, eval mode)``: its children, where it lives, its mode."""
    children = [type(c).__name__ for c in obj.children()]
    inner = ", ".join(children) if children else obj.extra_repr()
    flag = "" if obj.training else ", eval mode"
    place = next((f", {str(TENSOR_BASE.dtype.__get__(p)).replace('torch.', '')} on {device_name(TENSOR_BASE.device.__get__(p))}"
                  for p in obj.parameters()), "")
    return f"{type(obj).__name__}({inner}{place}{flag})"


def _render_values(values):
    if isinstance(values, list):
        return "[" + ", ".join(_render_values(v) for v in values) + "]"
    if isinstance(values, float):
        if values != values:
            return "nan"
        return f"{values:.0f}." if values.is_integer() and abs(values) < 1e6 else f"{values:.4g}"
    return repr(values)


def render_call(name: str, args, kwargs) -> str:
    """``name(arg, ...)`` as the learner would have written the call."""
    parts = [render(a) for a in args] + [f"{k}={render(v)}" for k, v in kwargs.items()]
    text = f"{name}({', '.join(parts)})"
    return shortened(text, 400)
