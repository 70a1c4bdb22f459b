"""Reference solutions for k12_joining (cat, stack, split)."""

import torch


def stack_samples(samples: list) -> torch.Tensor:
    """N tensors of shape (D,) stacked along a new first axis into an (N, D) batch."""
    return torch.stack(samples, dim=0)


def concat_features(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """(N, D1) and (N, D2) joined along the feature axis into (N, D1 + D2)."""
    return torch.cat([a, b], dim=1)


def split_into_batches(x: torch.Tensor, batch_size: int) -> list:
    """Consecutive slices of ``batch_size`` rows along dim 0, the last one possibly shorter."""
    return list(torch.split(x, batch_size, dim=0))


def stack_samples(samples):   # a classic wrong answer: cat joins along an existing dimension
    return torch.cat(samples)
