"""Checks for k16_leaves: which cases, on which devices, and which aspects matter."""

import torch

from kata_harness.spec import BASIC, Case, Function, Kata, randint, randn, tensor

KATA = Kata("k16_leaves", [
    Function("trainable", [
        Case([[1, 2], [3, 4]]),
        Case([0.5, -1.5, 2.0]),
        Case(randint(-5, 5, 2, 3)),
        Case(randn(4)),
        Case(randn(2, 2, dtype=torch.float64)),
        Case(randn(3, requires_grad=True)),
        Case(tensor([[1.0, 2.0], [3.0, 4.0]]), label="float32_input"),
    ], aspects=BASIC + ("requires_grad", "leaf", "history", "independent"), devices=("cpu", "meta", "cuda")),
    Function("init_weight", [
        Case((3, 4), 0.1, 0), Case((5,), 2.0, 42), Case((2, 3, 4), 0.02, 7),
        Case((4, 2), 0.5, 3, hidden=True),
    ], aspects=BASIC + ("requires_grad", "leaf", "history", "rng")),   # rng: the global generator is left alone
])
