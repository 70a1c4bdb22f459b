"""Reference solutions for k25_detach (constants in the graph, frozen parameters)."""

import torch
import torch.nn.functional as F
from torch import nn


def consistency_loss(model: nn.Module, x: torch.Tensor, noise: torch.Tensor) -> torch.Tensor:
    """MSE between model(x + noise) and the fixed target model(x) (detached)."""
    target = model(x).detach()
    return F.mse_loss(model(x + noise), target)


def freeze_(model: nn.Module) -> None:
    """Switch requires_grad off on every parameter of ``model``, in place."""
    for parameter in model.parameters():
        parameter.requires_grad_(False)
