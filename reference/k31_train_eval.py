"""Reference solutions for k31_train_eval (train() and eval())."""

import torch
import torch.nn.functional as F
from torch import nn


def fit_with_validation(model: nn.Module, batches: list, val_x: torch.Tensor, val_y: torch.Tensor, lr: float,
                        epochs: int) -> list:
    """Each epoch: plain SGD over the batches in training mode, then the validation MSE in evaluation
    mode without a graph. The validation losses, one per epoch; the model ends in training mode."""
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    val_losses = []
    for _ in range(epochs):
        model.train()
        for x, y in batches:
            optimizer.zero_grad()
            F.mse_loss(model(x), y).backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            val_losses.append(F.mse_loss(model(val_x), val_y).item())
    model.train()
    return val_losses
