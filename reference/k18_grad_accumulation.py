"""Reference solutions for k18_grad_accumulation (gradient accumulation)."""

import torch
import torch.nn.functional as F
from torch import nn


def train(model: nn.Module, batches: list, lr: float) -> list:
    """One plain SGD step per batch on the MSE loss; each step's loss before its update."""
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for x, y in batches:
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def accumulated_step(model: nn.Module, micro_batches: list, lr: float) -> float:
    """One SGD step on the mean of the micro-batch gradients; the mean micro-batch loss."""
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    optimizer.zero_grad()
    count = len(micro_batches)
    total = 0.0
    for x, y in micro_batches:
        loss = F.mse_loss(model(x), y)
        (loss / count).backward()
        total += loss.item()
    optimizer.step()
    return total / count


def grad_at(f, x: torch.Tensor) -> torch.Tensor:
    """d f(x).sum() / dx, computed on a fresh leaf so that ``x`` stays untouched."""
    leaf = x.detach().clone().requires_grad_(True)
    f(leaf).sum().backward()
    return leaf.grad
