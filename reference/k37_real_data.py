"""Reference solutions for k37_real_data (real data: targets, splits and scaling)."""

import numpy as np
import torch


def loss_targets(labels: np.ndarray, loss: str) -> torch.Tensor:
    """int64 (N,) class indices for cross-entropy; float32 (N, 1) for BCE and MSE."""
    flat = torch.as_tensor(np.asarray(labels)).reshape(-1)
    if loss == "cross_entropy":
        return flat.to(torch.int64)
    return flat.to(torch.float32).unsqueeze(1)


def train_val_split(n: int, val_size: int, seed: int) -> tuple:
    """A random permutation from a generator of its own: its first n - val_size for training."""
    order = torch.randperm(n, generator=torch.Generator().manual_seed(seed))
    return order[:n - val_size], order[n - val_size:]


def standardized_splits(train: np.ndarray, test: np.ndarray) -> tuple:
    """Both splits shifted and scaled by the training split's column means and population stds."""
    x_train = torch.tensor(train, dtype=torch.float64)
    mean = x_train.mean(dim=0)
    std = x_train.std(dim=0, unbiased=False)
    std = torch.where(std == 0, torch.ones_like(std), std)
    x_test = torch.tensor(test, dtype=torch.float64)
    return ((x_train - mean) / std).to(torch.float32), ((x_test - mean) / std).to(torch.float32)
