"""Reference solutions for k30_optimizers (torch.optim)."""

import torch
import torch.nn.functional as F
from torch import nn


def train_steps(model: nn.Module, optimizer: torch.optim.Optimizer, x: torch.Tensor, y: torch.Tensor,
                steps: int) -> list:
    """``steps`` full-batch steps of the given optimizer on the MSE loss; each loss before its step."""
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def adam_fit(model: nn.Module, x: torch.Tensor, y: torch.Tensor, lr: float, steps: int) -> list:
    """``steps`` full-batch steps of ONE torch.optim.Adam(lr) on the MSE loss."""
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def clipped_step(model: nn.Module, x: torch.Tensor, y: torch.Tensor, lr: float, max_norm: float) -> float:
    """One plain SGD step on the MSE loss with the gradients clipped to a total norm of max_norm."""
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    return loss.item()
