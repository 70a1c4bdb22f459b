"""Reference solutions for k14_indexing (views and copies when indexing)."""

import torch


def row_window(x: torch.Tensor, start: int, stop: int) -> torch.Tensor:
    """Rows ``start:stop`` of ``x`` by basic slicing: a view sharing ``x``'s memory."""
    return x[start:stop]


def zero_rows_(x: torch.Tensor, rows: list) -> None:
    """Zero the listed rows of ``x`` by assigning through the index (in place)."""
    x[rows] = 0


def scale_selected_(x: torch.Tensor, mask: torch.Tensor, factor: float) -> None:
    """Multiply the masked elements of ``x`` by ``factor``, writing back through the mask."""
    x[mask] = x[mask] * factor
