"""Reference solutions for k09_contiguity (non-contiguous views)."""

import torch


def flatten_transposed(x: torch.Tensor) -> torch.Tensor:
    """The elements of ``x.T`` in row-major order, copying when the view is not contiguous."""
    return x.t().reshape(-1)


def merge_heads(x: torch.Tensor) -> torch.Tensor:
    """(B, H, T, D) -> (B, T, H*D): move H next to D, then merge the two axes."""
    batch, heads, steps, dim = x.shape
    return x.transpose(1, 2).reshape(batch, steps, heads * dim)


def to_channels_first(img: torch.Tensor) -> torch.Tensor:
    """(H, W, C) -> contiguous (C, H, W)."""
    return img.permute(2, 0, 1).contiguous()
