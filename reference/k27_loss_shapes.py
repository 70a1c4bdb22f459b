"""Reference solutions for k27_loss_shapes (losses and their shapes)."""

import torch
import torch.nn.functional as F
from torch import nn


def regression_loss(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """MSE between model(x), of shape (N, 1), and targets y of shape (N,)."""
    return F.mse_loss(model(x).squeeze(1), y)


def as_regression_data(features: list, targets: list) -> tuple:
    """X float32 (N, D) and y float32 (N, 1), shaped like what nn.Linear(D, 1) returns; no gradients."""
    inputs = torch.tensor(features, dtype=torch.float32)
    column = torch.tensor(targets, dtype=torch.float32).reshape(-1, 1)
    return inputs, column
