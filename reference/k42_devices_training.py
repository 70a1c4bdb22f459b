"""Reference solutions for k42_devices_training (training on a device: the batch, the model and the
optimizer's state in one place)."""

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader


def predict_classes(model: nn.Module, loader: DataLoader) -> torch.Tensor:
    """Each batch moved to the model's device, the predicted classes in evaluation mode under
    no_grad, the caller's mode restored."""
    device = next(iter(model.parameters())).device   # where the model is, whatever the program chose
    came_in_training = model.training
    model.eval()
    predictions = []
    with torch.no_grad():
        for x, _labels in loader:
            predictions.append(model(x.to(device)).argmax(dim=1))
    model.train(came_in_training)
    return torch.cat(predictions)


def train_on_device(model: nn.Module, loader: DataLoader, lr: float, epochs: int,
                    device: torch.device) -> list[float]:
    """The model moved (in place) before its optimizer is built, every batch moved where the model
    is, each epoch's mean loss per sample taken as a Python float."""
    model.to(device=device)   # in place: the same module, its parameters moved
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    model.train()
    losses = []
    for _ in range(epochs):
        total, count = 0.0, 0
        for x, labels in loader:
            x, labels = x.to(device), labels.to(device)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), labels)
            loss.backward()
            optimizer.step()
            total += loss.item() * len(labels)
            count += len(labels)
        losses.append(total / count)
    return losses


def move_training(model: nn.Module, optimizer: torch.optim.Optimizer, device: torch.device,
                  dtype: torch.dtype) -> None:
    """The model moved and cast in place (its parameters stay the objects the optimizer holds), then
    the optimizer's state loaded again: load_state_dict casts it to each parameter's device and dtype."""
    model.to(device=device, dtype=dtype)
    optimizer.load_state_dict(optimizer.state_dict())
