"""Checks for k12_joining: which cases, on which devices, and which aspects matter.

Shapes are chosen so that the classic mistakes run silently, not only where they raise:
N == D for stack (a transposed batch has the right shape), D1 == D2 for concat (cat along
dim 0 runs and piles the rows up), N == D1 + D2 (a transposed result has the right shape),
and row counts where torch.chunk gives the same number of pieces as split, or a different one.
"""

import torch

from kata_harness.spec import BASIC, Case, Function, Kata, randint, randn, transposed

KATA = Kata("k12_joining", [
    Function("stack_samples", [
        Case([randn(4), randn(4), randn(4)]),
        Case([randn(3), randn(3), randn(3)]),
        Case([randint(0, 9, 2) for _ in range(5)]),
        Case([randn(5, dtype=torch.float64)]),
        Case([randn(1), randn(1)]),
    ], devices=("cpu", "meta", "cuda")),
    Function("concat_features", [
        Case(randn(2, 3), randn(2, 3)),
        Case(randn(3, 2), randn(3, 4)),
        Case(randn(3, 1), randn(3, 2)),
        Case(randint(0, 9, 1, 3), randint(0, 9, 1, 2)),
        Case(transposed(randn(3, 2)), randn(2, 2)),
    ], devices=("cpu", "meta", "cuda")),
    Function("split_into_batches", [
        Case(randn(10, 2), 3),
        Case(randn(9, 2), 4),
        Case(randn(8, 3), 4),
        Case(randn(5), 2),
        Case(randn(6, 6), 4),
        Case(randn(3, 2, 2), 5),
        Case(randint(0, 9, 4, 4), 1),
    ], aspects=tuple(a for a in BASIC if a != "container"),   # a tuple is accepted as well as a list
        devices=("cpu", "meta", "cuda")),
])
