"""Reference solutions for k22_backward (calling backward)."""

import torch


def derivative(f, x: torch.Tensor) -> torch.Tensor:
    """f'(x) element by element: backward() of the non-scalar f(x) with a gradient of ones."""
    leaf = x.detach().clone().requires_grad_(True)
    y = f(leaf)
    y.backward(torch.ones_like(y))
    return leaf.grad


def backprop_upstream(f, x: torch.Tensor, upstream: torch.Tensor) -> torch.Tensor:
    """dL/dx from dL/dy = upstream, y = f(x): backward() with ``gradient=upstream``."""
    leaf = x.detach().clone().requires_grad_(True)
    f(leaf).backward(gradient=upstream)
    return leaf.grad
