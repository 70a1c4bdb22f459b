"""Checks for k14_numpy_strides: which cases, on which devices, and which aspects matter.

The arrays are NumPy views with negative strides (made by slicing with ::-1 or np.flip), next
to ordinary arrays; flip_images gets square images too, where mirroring the wrong axis keeps
the shape and only the values tell.
"""

import numpy as np
import torch

from kata_harness.spec import Case, Function, Kata, custom


def numpy_view(make):
    """A NumPy array built by ``make(generator)`` (seeded values through torch)."""
    return custom(lambda gen, device: make(gen))


KATA = Kata("k14_numpy_strides", [
    Function("tensor_from_flipped", [
        Case(numpy_view(lambda gen: np.arange(6, dtype=np.float64)[::-1])),
        Case(numpy_view(lambda gen: torch.rand(3, 4, generator=gen).numpy()[:, ::-1])),
        Case(numpy_view(lambda gen: np.flip(torch.randint(0, 256, (2, 3, 2), generator=gen).numpy().astype(np.uint8), 0))),
        Case(numpy_view(lambda gen: torch.randint(-9, 9, (2, 3), generator=gen).numpy().astype(np.int32))),
        Case(numpy_view(lambda gen: torch.randn(7, generator=gen, dtype=torch.float64).numpy()[::-2])),
    ]),
    Function("flip_images", [
        Case(numpy_view(lambda gen: torch.randint(0, 256, (2, 3, 4), generator=gen).numpy().astype(np.uint8))),
        Case(numpy_view(lambda gen: np.array([[[1, 2, 3]]], dtype=np.uint8))),
        Case(numpy_view(lambda gen: torch.randint(0, 256, (3, 4, 4), generator=gen).numpy().astype(np.uint8))),
        Case(numpy_view(lambda gen: torch.randint(0, 256, (1, 5, 1), generator=gen).numpy().astype(np.uint8))),
    ]),
])
