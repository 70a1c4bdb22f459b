"""Reference solutions for k32_linear_regression (the lesson's worked example)."""

import torch
import torch.nn.functional as F
from torch import nn


def least_squares(x: torch.Tensor, y: torch.Tensor) -> tuple:
    """The (w, b) minimising mean((x @ w + b - y) ** 2), from torch.linalg.lstsq with a column of ones."""
    design = torch.cat([x, torch.ones(x.shape[0], 1, dtype=x.dtype, device=x.device)], dim=1)
    # Solved in float64, then rounded: the expected fit of float32 data is the float32 nearest the
    # exact one, which any correct float32 solver reaches within the tolerance.
    solution = torch.linalg.lstsq(design.double(), y.unsqueeze(1).double()).solution.squeeze(1).to(x.dtype)
    return solution[:-1], solution[-1]


def fit_by_hand(x: torch.Tensor, y: torch.Tensor, lr: float, steps: int) -> tuple:
    """Gradient descent from w = 0, b = 0, by hand: forward, loss, backward, update under no_grad."""
    w = torch.zeros(x.shape[1], dtype=x.dtype, device=x.device, requires_grad=True)
    b = torch.zeros((), dtype=x.dtype, device=x.device, requires_grad=True)
    losses = []
    for _ in range(steps):
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
        w.grad = None
        b.grad = None
        losses.append(loss.item())
    return w.detach(), b.detach(), torch.tensor(losses)


def fit_with_sgd(model: nn.Linear, x: torch.Tensor, y: torch.Tensor, lr: float, steps: int) -> torch.Tensor:
    """Train the nn.Linear(D, 1) ``model`` on targets y (N,) with torch.optim.SGD; the losses."""
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = F.mse_loss(model(x).squeeze(1), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return torch.tensor(losses)
