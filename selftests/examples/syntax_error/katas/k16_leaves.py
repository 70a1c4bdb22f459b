"""Reference solutions for k16_leaves (leaves and trainable tensors)."""

import torch


def trainable(values) -> torch.Tensor:
    """A new float32 leaf that requires grad, holding ``values`` (list or tensor)."""
    if isinstance(values, torch.Tensor):
        return values.detach().to(torch.float32, copy=True).requires_grad_(True)
    return torch.tensor(values, dtype=torch.float32, requires_grad=True)


def init_weight(shape: tuple, std: float, seed: int) -> torch.Tensor:
    """A float32 leaf requiring grad: seeded standard normal values times ``std``."""
    generator = torch.Generator().manual_seed(seed)
    weight = torch.randn(shape, generator=generator) * std
    return weight.requires_grad_(True)
