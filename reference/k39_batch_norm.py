"""Reference solutions for k39_batch_norm (batch norm in training and evaluation mode)."""

import torch
import torch.nn.functional as F
from torch import nn


def validation_mse(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> float:
    """The MSE in evaluation mode under no_grad (running statistics untouched);
    every submodule's mode restored."""
    modes = {module: module.training for module in model.modules()}   # a frozen layer keeps its own
    model.eval()
    with torch.no_grad():
        loss = F.mse_loss(model(x), y).item()
    for module, mode in modes.items():
        module.training = mode
    return loss


def predict_one(model: nn.Module, sample: torch.Tensor) -> torch.Tensor:
    """The sample as a batch of one, in evaluation mode under no_grad; the batch dimension removed;
    every submodule's mode restored."""
    modes = {module: module.training for module in model.modules()}   # a frozen layer keeps its own
    model.eval()
    with torch.no_grad():
        output = model(sample.unsqueeze(0)).squeeze(0)
    for module, mode in modes.items():
        module.training = mode
    return output
