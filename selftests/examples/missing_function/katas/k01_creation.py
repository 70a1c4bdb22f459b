"""A learner's k01_creation with mask_like deleted (the other three right)."""

import torch


def arange_inclusive(start: int, end: int, step: int = 1) -> torch.Tensor:
    """int64 values from ``start`` up to and including ``end`` when a step lands on it."""
    return torch.arange(start, end + 1, step)


def evenly_spaced(start: float, end: float, count: int) -> torch.Tensor:
    """``count`` float32 points from ``start`` to ``end``, both included."""
    return torch.linspace(start, end, count, dtype=torch.float32)


def filled(shape: tuple, value: float) -> torch.Tensor:
    """A float32 tensor of ``shape`` filled with ``value``, even when ``value`` is an int."""
    return torch.full(shape, value, dtype=torch.float32)

