"""Reference solutions for k40_checkpoints (saving and loading a model and its optimizer)."""

import io

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.modules.utils import consume_prefix_in_state_dict_if_present


def save_checkpoint(model: nn.Module, optimizer: torch.optim.Optimizer, buffer: io.BytesIO) -> None:
    """Both state_dicts in one dict, written with torch.save (tensors and plain containers only)."""
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, buffer)


def load_for_inference(buffer: io.BytesIO, model: nn.Module, device: torch.device) -> nn.Module:
    """Loaded onto ``device`` (map_location), a DataParallel prefix removed, strictly, into the model
    moved there, in evaluation mode."""
    checkpoint = torch.load(buffer, map_location=device, weights_only=True)
    state = checkpoint["model"]
    consume_prefix_in_state_dict_if_present(state, "module.")
    model.to(device).load_state_dict(state)
    return model.eval()


def resume_training(buffer: io.BytesIO, model: nn.Module, optimizer: torch.optim.Optimizer,
                    x: torch.Tensor, y: torch.Tensor, steps: int) -> list[float]:
    """Model and optimizer state loaded, then the usual loop in training mode."""
    checkpoint = torch.load(buffer, map_location=x.device, weights_only=True)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    model.train()
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses
