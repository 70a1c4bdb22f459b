"""Reference solutions for k20_reproducibility (random seeds)."""

import random

import numpy as np
import torch


def set_seed(seed: int) -> None:
    """Seed Python's ``random``, NumPy's global RNG and torch (manual_seed covers every GPU too)."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def noise(shape: tuple, seed: int) -> torch.Tensor:
    """``torch.randn(shape)`` as after ``torch.manual_seed(seed)``, drawn from a private generator."""
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(shape, generator=generator)
