"""Reference solutions for k33_modules (what nn.Module registers)."""

import torch
from torch import nn


def stacked_layers(sizes: list, device: torch.device) -> nn.Module:
    """nn.Linear(sizes[i], sizes[i + 1]) for each consecutive pair, on `device`, registered in an
    nn.ModuleList so that the container owns their parameters."""
    return nn.ModuleList(nn.Linear(a, b, device=device) for a, b in zip(sizes, sizes[1:]))


def count_parameters(model: nn.Module, trainable_only: bool = False) -> int:
    """How many numbers the model learns: the elements of its parameters (only those with
    requires_grad where `trainable_only`)."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad or not trainable_only)
