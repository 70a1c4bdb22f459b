"""Checks for k11_broadcasting: which cases, on which devices, and which aspects matter.

Every function gets a case where the wrong broadcast RUNS and silently gives wrong numbers
(N == D, W == C, N == M == D, a (N, 1) prediction), not only shapes where it raises.
"""

import torch

from kata_harness.spec import Case, Function, Kata, rand, randn, tensor

KATA = Kata("k11_broadcasting", [
    Function("mse", [
        Case(tensor([[1.0], [2.0]]), tensor([1.0, 4.0])),
        Case(randn(4, 1), randn(4)),
        Case(randn(5), randn(5)),
        Case(randn(3, 1, dtype=torch.float64), randn(3, dtype=torch.float64)),
        Case(randn(1, 1), randn(1)),
        Case(randn(6), randn(6)),
    ]),
    Function("normalize_rows", [
        Case(tensor([[1.0, 3.0], [1.0, 1.0]])),
        Case(rand(3, 3, low=0.5, high=2.0)),
        Case(rand(2, 4, low=0.5, high=2.0)),
        Case(rand(4, 4, low=0.5, high=2.0, dtype=torch.float64)),
        Case(rand(4, 1, low=0.5, high=2.0)),
        Case(rand(1, 3, low=0.5, high=2.0)),
        Case(tensor([[2.0, -1.0], [-0.5, 3.0]]), label="negative_entries"),   # sums are not sums of |x|
        Case(rand(3, 4, low=-0.5, high=1.5), label="negative_entries"),
    ]),
    Function("add_channel_bias", [
        Case(tensor([[[[1.0, 1.0]], [[5.0, 5.0]]]]), tensor([10.0, 20.0])),   # (1, 2, 1, 2): W == C
        Case(randn(2, 3, 4, 3), randn(3)),                                        # W == C
        Case(randn(1, 3, 3, 5), randn(3)),                                        # H == C
        Case(randn(3, 3, 2, 4), randn(3)),                                        # B == C
        Case(randn(2, 4, 2, 5, dtype=torch.float64), randn(4, dtype=torch.float64)),
    ]),
    Function("pairwise_sq_dist", [
        Case(tensor([[0.0, 0.0], [1.0, 1.0]]), tensor([[1.0, 0.0]])),
        Case(randn(3, 3), randn(3, 3)),                                           # N == M == D
        Case(randn(4, 2), randn(3, 2)),
        Case(randn(2, 5), randn(5, 5)),                                           # M == D
        Case(tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]]), tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])),
        Case(randn(1, 3, dtype=torch.float64), randn(4, 3, dtype=torch.float64)),
    ], rtol=1e-4, atol=1e-4),   # loose enough for a**2 - 2ab + b**2 and torch.cdist(a, b) ** 2
])
