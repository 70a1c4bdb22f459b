"""Reference solutions for k08_dimensions (an int index drops an axis, a slice keeps it)."""

import torch


def sample_as_batch(batch: torch.Tensor, i: int) -> torch.Tensor:
    """``batch[i]`` with the batch axis put back: shape (1, ...)."""
    return batch[i].unsqueeze(0)


def relative_to_first_column(x: torch.Tensor) -> torch.Tensor:
    """``x`` minus its first column, kept as an (N, 1) column so that it broadcasts across D."""
    return x - x[:, 0:1]
