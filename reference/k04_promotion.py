"""Reference solutions for k04_promotion (mixing dtypes, and * versus @)."""

import numpy as np
import torch


def project(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """``x @ w`` after converting the int64 ``x`` to ``w``'s dtype (matmul does not promote)."""
    return x.to(w.dtype) @ w


def weighted_sum(values: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    """The matrix-vector product: one weighted sum per row."""
    return values @ weights


def standardize(x: torch.Tensor, mean: np.ndarray, std: np.ndarray) -> torch.Tensor:
    """``(x - mean) / std`` with the float64 statistics converted to ``x``'s dtype and device first."""
    mean_t = torch.as_tensor(mean, dtype=x.dtype, device=x.device)
    std_t = torch.as_tensor(std, dtype=x.dtype, device=x.device)
    return (x - mean_t) / std_t
