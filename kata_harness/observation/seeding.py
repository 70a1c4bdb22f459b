"""Seeding torch the way ``torch.manual_seed`` does, at a fraction of its cost where it can.

``torch.manual_seed`` seeds every backend torch was built with. A backend not yet initialised
gets the seed queued together with a formatted stack trace, for CUDA, XPU and MTIA each: on a
machine without an accelerator that was half of what observing a case cost. Where a process has
no accelerator (none built, or none with a device), those queued seeds can never run, and the
CPU generator's seed is all that ``torch.manual_seed`` changes.
"""

from __future__ import annotations

import functools

import torch

# Taken when the harness is loaded, before any learner code could replace them.
_seed_every_backend = torch.manual_seed
_seed_cpu = torch.default_generator.manual_seed
_accelerator_available = getattr(getattr(torch, "accelerator", None), "is_available", None)   # torch 2.6 on


@functools.cache
def _has_accelerator() -> bool:
    # Asked on the first seed, in the process that observes: never in a zygote before it forks
    # (asking CUDA for its devices there is what makes CUDA fail in the forked children).
    return _accelerator_available is None or bool(_accelerator_available())


def manual_seed(seed: int) -> None:
    """Seed torch as ``torch.manual_seed(seed)`` does (every device's generator)."""
    if _has_accelerator():
        _seed_every_backend(seed)
    else:
        _seed_cpu(seed)
