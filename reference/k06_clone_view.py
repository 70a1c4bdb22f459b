"""Reference solutions for k06_clone_view (clone vs view)."""

import torch


def zero_first_row(x: torch.Tensor) -> torch.Tensor:
    """A copy of ``x`` with row 0 set to 0."""
    y = x.clone()
    y[0] = 0
    return y


def zero_column_(x: torch.Tensor, j: int) -> None:
    """Set column ``j`` of ``x`` to 0 in place."""
    x[:, j] = 0


def clipped(x: torch.Tensor, limit: float) -> torch.Tensor:
    """A new tensor with ``x``'s values clamped to [-limit, limit]."""
    return x.clamp(-limit, limit)


def snapshot(x: torch.Tensor) -> torch.Tensor:
    """A detached copy of ``x``'s current values."""
    return x.detach().clone()
