"""Checks for k26_linear_layer: which cases, on which devices, and which aspects matter.

Square weights (in_features == out_features) are among the cases because there `x @ weight` runs
without an error and gives wrong values (label `square`). linear_from is judged by the layer it
returns: the shapes, values, dtype and device of its weight and bias (an nn.Linear(D, 1) holds a
(1, D) weight), on cpu, meta and, where there is one, a GPU.
"""

import torch

from kata_harness.spec import Case, Function, Kata, randn

DEVICES = ("cpu", "meta", "cuda")

KATA = Kata("k26_linear_layer", [
    Function("linear_forward", [
        Case(randn(4, 3), randn(2, 3), randn(2)),
        Case(randn(5, 2), randn(2, 2), randn(2), label="square"),
        Case(randn(1, 4), randn(3, 4), randn(3)),
        Case(randn(3, 3, dtype=torch.float64), randn(3, 3, dtype=torch.float64), randn(3, dtype=torch.float64),
             label="square"),
    ], devices=DEVICES),
    Function("linear_from", [
        Case(randn(3), randn()),
        Case(randn(1), randn()),
        Case(randn(5, dtype=torch.float64), randn(dtype=torch.float64)),
    ], devices=DEVICES),
])
