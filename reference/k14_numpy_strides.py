"""Reference solutions for k14_numpy_strides (flipped NumPy arrays and tensors)."""

import numpy as np
import torch


def tensor_from_flipped(arr: np.ndarray) -> torch.Tensor:
    """``arr`` copied into ordinary (positive-stride) memory, then wrapped as a tensor."""
    return torch.from_numpy(np.ascontiguousarray(arr))


def flip_images(batch: np.ndarray) -> torch.Tensor:
    """The batch as a tensor, mirrored along the width axis by torch (which copies)."""
    return torch.from_numpy(batch).flip(-1)
