"""Reference solutions for k36_data_loaders (shuffling, the last batch and a reproducible order)."""

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


def training_loader(dataset: Dataset, batch_size: int, seed: int) -> DataLoader:
    """Shuffled anew every epoch from a generator of its own, seeded; the short last batch dropped."""
    return DataLoader(dataset, batch_size=batch_size, shuffle=True, drop_last=True,
                      generator=torch.Generator().manual_seed(seed))


def evaluate_mse(model: nn.Module, loader: DataLoader) -> float:
    """Summed squared errors over the number of elements, in evaluation mode under no_grad; every
    submodule's mode restored."""
    modes = {module: module.training for module in model.modules()}   # a frozen layer keeps its own
    model.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for x, y in loader:
            total += ((model(x) - y) ** 2).sum().item()
            count += y.numel()
    for module, mode in modes.items():
        module.training = mode
    return total / count
