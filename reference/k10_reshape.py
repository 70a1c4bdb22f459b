"""Reference solutions for k10_reshape (reshape gives a view or a copy)."""

import torch


def flat_copy(x: torch.Tensor) -> torch.Tensor:
    """``x`` flattened, then cloned, so that it never shares memory with ``x``."""
    return x.reshape(-1).clone()


def zero_flat_(x: torch.Tensor, positions: list) -> None:
    """Zero the row-major ``positions`` of ``x`` through (row, column) indices, which write into x."""
    index = torch.tensor(positions, dtype=torch.long, device=x.device)
    x[index // x.shape[1], index % x.shape[1]] = 0
