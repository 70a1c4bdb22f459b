"""Reference solutions for k13_numpy_bridge (NumPy and tensors)."""

import numpy as np
import torch


def to_numpy(t: torch.Tensor) -> np.ndarray:
    """``t``'s values as a NumPy array of the matching dtype, even with grad or on a GPU."""
    return t.detach().cpu().numpy()


def numpy_snapshot(t: torch.Tensor) -> np.ndarray:
    """A NumPy copy of ``t`` that shares no memory with it."""
    return t.detach().cpu().numpy().copy()


def share_array(arr: np.ndarray) -> torch.Tensor:
    """A tensor sharing ``arr``'s memory, with the same dtype."""
    return torch.from_numpy(arr)
