"""Reference solutions for k23_retain_graph (the graph is used once)."""

import torch
import torch.nn.functional as F
from torch import nn


def two_loss_grads(model: nn.Linear, x: torch.Tensor) -> tuple:
    """The gradients of out.mean() and of (out ** 2).mean() with respect to model.weight, each on
    its own, from one forward pass out = model(x)."""
    out = model(x)
    first, = torch.autograd.grad(out.mean(), model.weight, retain_graph=True)
    second, = torch.autograd.grad((out ** 2).mean(), model.weight)
    return first, second


def fit_head(encoder: nn.Module, head: nn.Linear, x: torch.Tensor, y: torch.Tensor, lr: float, steps: int) -> list:
    """``steps`` plain SGD steps on head alone, on features the encoder, not trained, computes once."""
    with torch.no_grad():
        features = encoder(x)
    optimizer = torch.optim.SGD(head.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = F.mse_loss(head(features), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses
