"""Reference solutions for k35_datasets (what a Dataset hands out)."""

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def sample_at(features: np.ndarray, labels: np.ndarray, index: int) -> tuple:
    """Row ``index`` as float32 (D,), its label as int64 (); fresh tensors, the arrays untouched."""
    return torch.tensor(features[index], dtype=torch.float32), torch.tensor(labels[index], dtype=torch.int64)


def image_sample(image: np.ndarray, label: int) -> tuple:
    """(H, W, C) uint8 to (C, H, W) float32 in [0, 1]: the dimensions permuted, the values divided by 255."""
    pixels = torch.from_numpy(np.ascontiguousarray(image)).permute(2, 0, 1).to(torch.float32) / 255
    return pixels, torch.tensor(label, dtype=torch.int64)


class RowsDataset(Dataset):
    """A table's rows as samples: sample_at for each index, N samples."""

    def __init__(self, features: np.ndarray, labels: np.ndarray):
        self.features = features
        self.labels = labels

    def __len__(self):
        return len(self.features)

    def __getitem__(self, index):
        return sample_at(self.features, self.labels, index)


def load_rows(features: np.ndarray, labels: np.ndarray, batch_size: int) -> list:
    """The batches of DataLoader(RowsDataset(features, labels), batch_size), in order."""
    return [(x, y) for x, y in DataLoader(RowsDataset(features, labels), batch_size=batch_size)]
