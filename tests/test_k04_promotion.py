"""Checks for k04_promotion: which cases, on which devices, and which aspects matter.

Shapes are chosen so that `*` in place of `@` both raises and runs silently (N == D == K for
project, N == D for weighted_sum, where `weights @ values` runs too). The float tolerances allow
sums taken in another order (einsum, a sum of products) and a detour through float64. standardize is
also checked on meta and a GPU, and on the CPU by its aspect `device_mix`: statistics made tensors
on the CPU (torch.from_numpy(mean), torch.as_tensor(mean) without device=) meet an x that may be on
a GPU, where the subtraction raises (the watch does not follow torch.from_numpy; meta catches it).
"""

import torch

from kata_harness.spec import BASIC, Case, Function, Kata, array, rand, randint, randn, tensor

KATA = Kata("k04_promotion", [
    Function("project", [
        Case(tensor([[1, 2]]), tensor([[0.5], [0.25]])),
        Case(randint(0, 10, 4, 3), randn(3, 2)),
        Case(randint(0, 10, 3, 3), randn(3, 3)),          # N == D == K: x.float() * w runs silently
        Case(randint(-5, 5, 5, 2), randn(2, 4)),
        Case(randint(0, 3, 1, 6), randn(6, 1)),
    ], devices=("cpu", "meta", "cuda"), rtol=1e-5, atol=1e-5),
    Function("weighted_sum", [
        Case(tensor([[1.0, 2.0], [3.0, 4.0]]), tensor([1.0, 0.5])),   # N == D: weights @ values runs
        Case(randn(4, 3), randn(3)),
        Case(randn(3, 3), randn(3)),
        Case(randn(5, 1), randn(1)),
        Case(randn(2, 4, dtype=torch.float64), randn(4, dtype=torch.float64)),
        Case(randn(1, 4), randn(4), label="one_row"),   # (1,), where .squeeze() leaves a 0-dim tensor
    ], devices=("cpu", "meta", "cuda"), rtol=1e-5, atol=1e-5),
    Function("standardize", [
        Case(tensor([[2.0, 10.0]]), array([1.0, 5.0]), array([1.0, 5.0])),
        Case(randn(4, 3), array(randn(3, dtype=torch.float64)), array(rand(3, low=0.5, high=2.0, dtype=torch.float64))),
        Case(randn(6, 2, scale=10.0), array([3.0, -1.5]), array([10.0, 0.25])),
        Case(randn(1, 5), array(randn(5, dtype=torch.float64)), array(rand(5, low=0.5, high=2.0, dtype=torch.float64))),
    ], aspects=BASIC + ("device_mix",), devices=("cpu", "meta", "cuda"), rtol=1e-5, atol=1e-6),
])
