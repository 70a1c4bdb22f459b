"""Reference solutions for k07_indexing (views and copies when indexing)."""

import torch


def row_window(x: torch.Tensor, start: int, stop: int) -> torch.Tensor:
    """Rows ``start:stop`` of ``x`` by basic slicing: a view sharing ``x``'s memory."""
    return x[start:stop]


def zero_rows_(x: torch.Tensor, rows: list) -> None:
    """Zero the listed rows of ``x`` in place (index_fill_ writes into x itself)."""
    x.index_fill_(0, torch.as_tensor(rows, dtype=torch.long, device=x.device), 0)


def scale_selected_(x: torch.Tensor, mask: torch.Tensor, factor: float) -> None:
    """Multiply the masked elements of ``x`` by ``factor``, writing the result back into ``x``."""
    x.copy_(torch.where(mask, x * factor, x))
