"""Checks for k10_reshape: which cases, on which devices, and which aspects matter.

Every function meets both a contiguous input (where reshape returns a view) and a transposed
one (where it returns a copy), so that code relying on either behaviour fails somewhere.
flat_copy is judged by `independent` (no memory shared), zero_flat_ by `inputs`.
"""

import torch

from kata_harness.spec import BASIC, Case, Function, Kata, randint, randn, tensor, transposed

INF, NAN = float("inf"), float("nan")

KATA = Kata("k10_reshape", [
    Function("flat_copy", [
        Case(randn(3, 4)),                         # contiguous: reshape(-1) would be a view
        Case(transposed(randn(4, 3))),             # transposed: reshape(-1) copies
        Case(randint(0, 9, 2, 3, 2)),
        Case(randn(5)),                            # 1-D: flatten() returns x itself
        Case(randn(2, 2, dtype=torch.float64)),
    ], aspects=BASIC + ("independent",)),
    Function("zero_flat_", [
        Case(randn(3, 4), [0, 5, 11]),
        Case(transposed(randn(4, 3)), [1, 4, 6], label="non_contiguous"),
        Case(randint(1, 9, 2, 5), [9]),
        Case(transposed(randn(2, 2, dtype=torch.float64)), [0, 3], label="non_contiguous"),
        Case(randn(4, 2), []),
        Case(tensor([[INF, 1.0, NAN], [2.0, -INF, 3.0]]), [0, 2, 4], label="non_finite"),   # 0 * inf is nan
    ]),
])
