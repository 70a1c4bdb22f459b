"""Checks for k08_dimensions: which cases, on which devices, and which aspects matter.

Negative sample numbers catch `batch[i:i + 1]` (empty for i = -1); the shapes of
relative_to_first_column make the dropped axis raise (N != D), run silently with wrong numbers
(N == D), and broadcast to a wrong shape (D == 1).
"""

import torch

from kata_harness.spec import Case, Function, Kata, randint, randn, tensor

DEVICES = ("cpu", "meta", "cuda")

KATA = Kata("k08_dimensions", [
    Function("sample_as_batch", [
        Case(randn(4, 3), 0),
        Case(randn(5, 2, 2), 2),
        Case(randint(0, 9, 3, 4), -1, label="negative_index"),
        Case(randn(6, 3), -2, label="negative_index"),
        Case(randn(1, 5), 0),
        Case(randn(4), 3),                                    # a batch of scalars: (1,)
    ], devices=DEVICES),
    Function("relative_to_first_column", [
        Case(tensor([[1.0, 2.0, 4.0], [10.0, 20.0, 40.0]])),   # N != D: the dropped axis raises
        Case(randn(3, 3)),                                     # N == D: it runs, wrongly
        Case(randn(4, 2)),
        Case(randn(5, 1)),                                     # D == 1: (N, 1) - (N,) gives (N, N)
        Case(randn(1, 4)),
        Case(randn(2, 3, dtype=torch.float64)),
    ], devices=DEVICES),
])
