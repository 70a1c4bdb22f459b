"""Reference solutions for k34_module_calls (calling, storing and moving modules)."""

import copy

import torch
from torch import nn


def layer_outputs(model: nn.Module, x: torch.Tensor) -> dict:
    """Each direct child's output during model(x), captured by forward hooks that are removed again."""
    outputs = {}
    handles = [child.register_forward_hook(lambda _m, _args, out, name=name: outputs.__setitem__(name, out.detach()))
               for name, child in model.named_children()]
    try:
        with torch.no_grad():
            model(x)
    finally:
        for handle in handles:
            handle.remove()
    return {name: outputs[name] for name, _ in model.named_children() if name in outputs}


def scaler_module(mean: torch.Tensor, std: torch.Tensor) -> nn.Module:
    """A module holding copies of ``mean`` and ``std`` as buffers: saved and moved with it, never trained."""
    class Scaler(nn.Module):
        def __init__(self, mean, std):
            super().__init__()
            self.register_buffer("mean", mean.detach().clone())
            self.register_buffer("std", std.detach().clone())

        def forward(self, x):
            return (x - self.mean) / self.std

    return Scaler(mean, std)


def deployed_copy(model: nn.Module, device: torch.device) -> nn.Module:
    """A deep copy, moved and switched to evaluation mode; the caller's model is untouched."""
    return copy.deepcopy(model).to(device).eval()
