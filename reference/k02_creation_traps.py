"""Reference solutions for k02_creation_traps (uninitialised memory and exclusive bounds)."""

import torch


def class_counts(labels: torch.Tensor, num_classes: int) -> torch.Tensor:
    """Counts per class, accumulated into zeros (never into uninitialised memory)."""
    counts = torch.zeros(num_classes, dtype=torch.float32, device=labels.device)
    return counts.index_add_(0, labels, torch.ones(labels.shape, dtype=torch.float32, device=labels.device))


def roll_dice(n: int, seed: int) -> torch.Tensor:
    """``n`` die throws: randint's upper bound is exclusive, so 1 to 6 is randint(1, 7)."""
    generator = torch.Generator().manual_seed(seed)
    return torch.randint(1, 7, (n,), generator=generator)
