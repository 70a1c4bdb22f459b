"""Checks for k06_clone_view: which cases, on which devices, and which aspects matter.

`independent` writes in place to the input after the call (the result must not follow) and
to the result (the input must not follow); `inputs` compares the inputs after the call, so it
catches a function that changes its input (zero_first_row, clipped) as well as an in-place
function that fails to change it (zero_column_, which returns None, so nothing to poke).
"""

import torch

from kata_harness.spec import BASIC, Case, Function, Kata, randint, randn, tensor, transposed

INF, NAN = float("inf"), float("nan")

KATA = Kata("k06_clone_view", [
    Function("zero_first_row", [
        Case(randint(1, 9, 2, 3)),
        Case(randn(3, 4)),
        Case(randn(4, 4, dtype=torch.float64)),
        Case(randn(1, 5)),
        Case(transposed(randn(3, 2))),
        Case(tensor([[0.0, 0.0], [1.5, -2.0]])),    # nothing to change, and still a new tensor
        # x * mask is no zeroing: 0 * inf and 0 * nan are nan.
        Case(tensor([[INF, NAN, 2.0], [1.0, -INF, NAN]]), label="non_finite"),
    ], aspects=BASIC + ("independent",)),
    Function("zero_column_", [
        Case(randint(1, 9, 2, 3), 1),
        Case(randn(3, 4), 0),
        Case(randn(4, 4, dtype=torch.float64), 3),
        Case(randn(2, 5), -1),
        Case(transposed(randn(4, 3)), 1, label="non_contiguous"),
        Case(tensor([[1.0, INF, 2.0], [NAN, -INF, 3.0]]), 1, label="non_finite"),
    ]),
    Function("clipped", [
        Case(randn(2, 3, scale=3.0), 1.0),
        Case(randn(3, 4, scale=2.0), 0.5),
        Case(tensor([-0.25, 0.1, 0.3]), 1.0),            # nothing to clip, and still a new tensor
        Case(randn(2, 2, dtype=torch.float64, scale=3.0), 2.0),
        Case(transposed(randn(3, 2, scale=3.0)), 1.5),
    ], aspects=BASIC + ("independent",)),
    Function("snapshot", [
        Case(randn(3, requires_grad=True)),
        Case(randn(2, 3)),
        Case(randn(2, 2, dtype=torch.float64, requires_grad=True)),
        Case(randint(0, 9, 4)),
        Case(transposed(randn(3, 2))),
    ], aspects=BASIC + ("requires_grad", "leaf", "history", "independent")),
])
