"""Reference solutions for k05_devices (device mismatch)."""

import torch
from torch import nn


def add_bias(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """``x + bias`` with ``bias`` moved to ``x``'s device first."""
    return x + bias.to(x.device)


def to_device(batch, device):
    """A copy of the nested structure ``batch`` with every tensor moved to ``device``."""
    if isinstance(batch, torch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: to_device(value, device) for key, value in batch.items()}
    if isinstance(batch, tuple) and hasattr(batch, "_fields"):
        return type(batch)(*(to_device(value, device) for value in batch))
    if isinstance(batch, (list, tuple)):
        return type(batch)(to_device(value, device) for value in batch)
    return batch


def run_model(model: nn.Module, x: torch.Tensor) -> torch.Tensor:
    """``model(x)`` on the device of the model's parameters (``x``'s device if it has none)."""
    param = next(model.parameters(), None)
    device = x.device if param is None else param.device
    return model(x.to(device))
