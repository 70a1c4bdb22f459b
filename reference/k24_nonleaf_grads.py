"""Reference solutions for k24_nonleaf_grads (gradients of non-leaves and of inputs)."""

import torch
from torch import nn


def hidden_grad(model: nn.Sequential, x: torch.Tensor) -> torch.Tensor:
    """d model(x).sum() / dh for the first layer's output h = model[0](x), whether or not model[0] is frozen."""
    hidden = model[0](x)
    hidden.requires_grad_()   # tracked even where the caller froze model[0] (then h is a leaf of its own)
    hidden.retain_grad()
    out = hidden
    for layer in list(model)[1:]:
        out = layer(out)
    out.sum().backward()
    return hidden.grad


def input_saliency(model: nn.Module, x: torch.Tensor) -> torch.Tensor:
    """d model(x).sum() / dx, on a leaf of our own; no parameter's .grad is touched."""
    leaf = x.detach().clone().requires_grad_(True)
    grad, = torch.autograd.grad(model(leaf).sum(), leaf)
    return grad
