"""Reference solutions for k39_batch_norm (batch norm in training and evaluation mode)."""

import torch
import torch.nn.functional as F
from torch import nn


def validation_mse(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> float:
    """The MSE in evaluation mode under no_grad (running statistics untouched); the mode restored."""
    came_in_training = model.training
    model.eval()
    with torch.no_grad():
        loss = F.mse_loss(model(x), y).item()
    model.train(came_in_training)
    return loss


def predict_one(model: nn.Module, sample: torch.Tensor) -> torch.Tensor:
    """The sample as a batch of one, in evaluation mode under no_grad; the batch dimension removed."""
    came_in_training = model.training
    model.eval()
    with torch.no_grad():
        output = model(sample.unsqueeze(0)).squeeze(0)
    model.train(came_in_training)
    return output
