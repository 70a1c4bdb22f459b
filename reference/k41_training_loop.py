"""Reference solutions for k41_training_loop (the capstone: a classifier trained and evaluated with a DataLoader)."""

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader


def train_classifier(model: nn.Module, loader: DataLoader, lr: float, epochs: int) -> list[float]:
    """SGD on the cross-entropy of the raw logits, batch by batch in training mode, the gradients
    cleared before each backward; each epoch's loss is the mean over its samples."""
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    model.train()
    losses = []
    for _ in range(epochs):
        total, count = 0.0, 0
        for x, labels in loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), labels)
            loss.backward()
            optimizer.step()
            total += loss.item() * len(labels)
            count += len(labels)
        losses.append(total / count)
    return losses


def evaluate(model: nn.Module, loader: DataLoader) -> tuple[float, float]:
    """The mean cross-entropy and the accuracy over every sample, in evaluation mode under no_grad;
    every submodule's mode restored."""
    modes = {module: module.training for module in model.modules()}   # a frozen layer keeps its own
    model.eval()
    total, correct, count = 0.0, 0, 0
    with torch.no_grad():
        for x, labels in loader:
            logits = model(x)
            total += F.cross_entropy(logits, labels, reduction="sum").item()
            correct += int((logits.argmax(dim=1) == labels).sum())
            count += len(labels)
    for module, mode in modes.items():
        module.training = mode
    return total / count, correct / count
