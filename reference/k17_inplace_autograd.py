"""Reference solutions for k17_inplace_autograd (in-place operations and autograd)."""

import torch


def sgd_update_(params: list, lr: float) -> None:
    """``p -= lr * p.grad`` for every leaf, in place, with autograd switched off."""
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad


def doubled_sigmoid(x: torch.Tensor) -> torch.Tensor:
    """``2 * sigmoid(x)``, out of place so that backward() can use sigmoid's saved output."""
    return 2 * torch.sigmoid(x)
