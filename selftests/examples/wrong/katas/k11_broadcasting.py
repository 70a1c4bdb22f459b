"""Reference solutions for k11_broadcasting (broadcasting)."""

import torch


def mse(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Mean squared error, with ``pred`` flattened to ``target``'s shape first."""
    return ((pred.reshape(target.shape) - target) ** 2).mean()


def normalize_rows(x: torch.Tensor) -> torch.Tensor:
    """Each row divided by its sum (keepdim keeps the sums as an (N, 1) column)."""
    return x / x.sum(dim=1, keepdim=True)


def add_channel_bias(img: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """``bias`` (C,) added per channel of ``img`` (B, C, H, W)."""
    return img + bias[:, None, None]


def pairwise_sq_dist(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Squared Euclidean distances between the rows of ``a`` and ``b``: (N, 1, D) - (1, M, D)."""
    return ((a[:, None, :] - b[None, :, :]) ** 2).sum(dim=-1)


def normalize_rows(x):   # a classic wrong answer: the sums broadcast along the wrong dimension
    return x / x.sum(dim=1)
