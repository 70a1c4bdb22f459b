"""Reference solutions for k21_determinism (deterministic algorithms)."""

import torch


def make_reproducible(seed: int) -> None:
    """Seed torch, insist on deterministic algorithms (errors, not warnings), no cuDNN benchmarking."""
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.benchmark = False


def put_values_(x: torch.Tensor, positions: torch.Tensor, values: torch.Tensor) -> None:
    """Write ``values`` at flat ``positions`` through a flat view of ``x`` (scatter_ is deterministic)."""
    x.view(-1).scatter_(0, positions, values)
