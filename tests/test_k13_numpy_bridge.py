"""Checks for k13_numpy_bridge: which cases, on which devices, and which aspects matter.

`to_numpy` is checked on the CPU and on a real GPU (tests marked `cuda`), and on every machine
through the probe `gpu_tensor`: it hands the function a CPU tensor that behaves like a CUDA
tensor where NumPy is concerned (`.numpy()` and `np.asarray` refuse it with PyTorch's own
message, `.device` says cuda:0, and `.cpu()`, `.to("cpu")` or `.numpy(force=True)` bring it
back), so that learners without a GPU meet the missing `.cpu()` too.
"""

import numpy as np
import torch

from kata_harness.spec import BASIC, Case, Function, Kata, Probe, array, custom, randint, randn, tensor, transposed

_GPU_ERROR = ("can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor "
              "to host memory first.")


# What a CUDA tensor's properties say.
_AS_ON_GPU = {torch.Tensor.device.__get__: torch.device("cuda", 0), torch.Tensor.is_cuda.__get__: True,
              torch.Tensor.is_cpu.__get__: False, torch.Tensor.get_device: 0}


class _GpuStandIn(torch.Tensor):
    """A CPU tensor that acts like a CUDA tensor towards NumPy (see the module docstring)."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func is torch.Tensor.numpy and kwargs.get("force"):
            with torch._C.DisableTorchFunctionSubclass():
                return torch.Tensor.clone(args[0]).numpy(force=True)
        if func in (torch.Tensor.numpy, torch.Tensor.__array__):
            raise TypeError(_GPU_ERROR)
        if func in _AS_ON_GPU:
            return _AS_ON_GPU[func]
        if func is torch.Tensor.cpu:
            with torch._C.DisableTorchFunctionSubclass():
                return torch.Tensor.clone(args[0])     # a copy to host memory, as from a GPU
        if func is torch.Tensor.to:
            return cls._moved(func, args, kwargs)
        if func is torch.Tensor.type and len(args) + len(kwargs) > 1 and cls._to_host_type(args, kwargs):
            with torch._C.DisableTorchFunctionSubclass():
                return torch.Tensor.clone(func(*args, **kwargs))
        return super().__torch_function__(func, types, args, kwargs)

    @classmethod
    def _moved(cls, func, args, kwargs):
        """``tensor.to(...)``: a copy to host memory for the CPU, else still a stand-in."""
        device, dtype = torch._C._nn._parse_to(*args[1:], **{k: v for k, v in kwargs.items()
                                                              if k not in ("copy", "non_blocking")})[:2]
        with torch._C.DisableTorchFunctionSubclass():
            if device is not None and device.type == "cpu":
                out = func(*args, **kwargs)
                return torch.Tensor.clone(out) if out is args[0] else out
            out = torch.Tensor.to(args[0], dtype) if dtype is not None else args[0]
        return out.as_subclass(cls)

    @staticmethod
    def _to_host_type(args, kwargs) -> bool:
        """Whether ``tensor.type(T)`` names a CPU tensor type (a string or class, not a dtype)."""
        target = args[1] if len(args) > 1 else kwargs.get("dtype")
        name = target if isinstance(target, str) else getattr(target, "__module__", "") + "." + \
            getattr(target, "__name__", "")
        return "cuda" not in str(name) and not isinstance(target, torch.dtype)


def _on_gpu(call):
    """What the function does with a GPU tensor holding the same values as this case's input."""
    source = call.args[0].detach().to("cpu", copy=True)
    stand_in = source.as_subclass(_GpuStandIn).requires_grad_(call.args[0].requires_grad)
    try:
        result = call.fn(stand_in)
    except Exception as error:  # the learner's failure is the observation
        return f"{type(error).__name__}: {str(error)[:200]}"
    return "np.ndarray" if type(result) is np.ndarray else type(result).__name__


KATA = Kata("k13_numpy_bridge", [
    Function("to_numpy", [
        Case(randn(3, requires_grad=True)),
        Case(randn(2, 3)),
        Case(randint(-5, 5, 2, 2)),
        Case(tensor([True, False, True])),
        Case(randn(2, 2, dtype=torch.float64, requires_grad=True)),
        Case(tensor(2.5, requires_grad=True)),
    ], devices=("cpu", "cuda"), probes=(Probe("gpu_tensor", _on_gpu),)),
    Function("numpy_snapshot", [
        Case(randn(2, 3)),
        Case(randint(0, 10, 4)),
        Case(tensor([[True, False], [False, True]])),
        Case(randn(3, dtype=torch.float64)),
        Case(transposed(randn(3, 2))),
    ], aspects=BASIC + ("independent",)),
    Function("share_array", [
        Case(array([[0.5, -1.25, 2.0], [3.5, 0.0, -4.0]], dtype=np.float64)),
        Case(array(randint(-9, 9, 4), dtype=np.int32)),
        Case(array([1.5, -0.5, 2.25], dtype=np.float32)),
        Case(array([[True, False], [True, True]])),
        Case(array(randint(0, 255, 2, 2), dtype=np.uint8)),
        Case(custom(lambda gen, device: (np.arange(6, dtype=np.float64).reshape(2, 3) / 4).T)),  # a non-contiguous view
    ], aspects=BASIC + ("independent",)),
])
