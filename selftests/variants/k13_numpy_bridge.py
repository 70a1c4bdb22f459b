"""Classic wrong answers and other correct idioms for k13_numpy_bridge."""

import copy

import numpy as np
import torch

from selftests.variants import right, wrong


@wrong("to_numpy", "Can't call numpy() on Tensor that requires grad", "leave the graph")
def to_numpy_plain(t):
    return t.numpy()


@wrong("to_numpy", "can't convert cuda:0 device type tensor", "the CPU")
def to_numpy_without_cpu(t):
    return t.detach().numpy()


@wrong("to_numpy", "CPU")
def to_numpy_asarray(t):
    return np.asarray(t.detach())


@wrong("to_numpy", "requires_grad", "leave t alone")
def to_numpy_switches_grad_off(t):
    t.requires_grad_(False)
    return t.cpu().numpy()


@wrong("to_numpy", "float64", "tolist")
def to_numpy_via_list(t):
    return np.array(t.tolist())


@right("to_numpy")
def to_numpy_cpu_then_detach(t):
    return t.cpu().detach().numpy()


@right("to_numpy")
def to_numpy_force(t):
    return t.numpy(force=True)


@right("to_numpy")
def to_numpy_via_to(t):
    return t.detach().to("cpu").numpy()


@right("to_numpy")
def to_numpy_no_grad_when_needed(t):
    if t.is_cuda:
        t = t.cpu()
    with torch.no_grad():
        return t.numpy().copy()


@right("to_numpy")
def to_numpy_from_list_with_dtype(t):
    dtype = torch.empty((), dtype=t.dtype).numpy().dtype
    return np.array(t.tolist(), dtype=dtype)


@wrong("numpy_snapshot", "shares memory", "memory of its own")
def snapshot_view(t):
    return t.numpy()


@wrong("numpy_snapshot", "shares memory", "np.asarray")
def snapshot_asarray(t):
    return np.asarray(t)


@wrong("numpy_snapshot", "shares memory", "do not copy a tensor that is already on the CPU")
def snapshot_detach_cpu(t):
    return t.detach().cpu().numpy()


@wrong("numpy_snapshot", "float64")
def snapshot_from_list(t):
    return np.array(t.tolist())


@right("numpy_snapshot")
def snapshot_np_array(t):
    return np.array(t)


@right("numpy_snapshot")
def snapshot_clone_first(t):
    return t.clone().numpy()


@right("numpy_snapshot")
def snapshot_deepcopy(t):
    return copy.deepcopy(t.numpy())


@right("numpy_snapshot")
def snapshot_np_copy(t):
    return np.copy(t.detach().numpy())


@wrong("share_array", "torch.tensor(arr)", "wrap arr's memory")
def share_tensor_copy(arr):
    return torch.tensor(arr)


@wrong("share_array", "float32", "Wrapping arr's memory")
def share_tensor_constructor(arr):
    return torch.Tensor(arr)


@wrong("share_array", "dtype", "float64 stays float64")
def share_as_float(arr):
    return torch.from_numpy(arr).float()


@wrong("share_array", "does not share memory")
def share_clone(arr):
    return torch.from_numpy(arr).clone()


@right("share_array")
def share_as_tensor(arr):
    return torch.as_tensor(arr)


@right("share_array")
def share_asarray(arr):
    return torch.asarray(arr)


@right("share_array")
def share_from_numpy_view(arr):
    return torch.from_numpy(arr).view(arr.shape)
