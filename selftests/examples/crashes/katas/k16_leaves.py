"""A learner's k16_leaves: one function takes the interpreter down with it, the other is right
(graded by a fresh process)."""

import ctypes

import torch


def trainable(values) -> torch.Tensor:
    """A new float32 leaf that requires grad, holding ``values`` (list or tensor)."""
    ctypes.string_at(0)                                         # reads address 0: a crash in native code


def init_weight(shape: tuple, std: float, seed: int) -> torch.Tensor:
    """A float32 leaf requiring grad: seeded standard normal values times ``std``."""
    generator = torch.Generator().manual_seed(seed)
    weight = torch.randn(shape, generator=generator) * std
    return weight.requires_grad_(True)
