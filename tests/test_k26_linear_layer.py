"""Checks for k26_linear_layer: which cases, on which devices, and which aspects matter.

Square weights (in_features == out_features) are among the cases because there `x @ weight` runs
without an error and gives wrong values (label `square`). linear_from is judged by the layer it
returns: the shapes, values, dtype and device of its weight and bias (an nn.Linear(D, 1) holds a
(1, D) weight), on cpu, meta and, where there is one, a GPU.

linear_from is also handed the w and b a real caller holds after fitting them by gradient descent:
leaves that require grad and hold a `.grad` (label `w_requires_grad`), which must come back as
they were (the `inputs` aspect). The layer owns its parameters: they share no memory with w or b
(`independent`: a view, a detach() or a `.data` of w is w's memory under another name), and they
are ordinary trainable parameters, leaves that require grad (probe `trainable_parameters`).
"""

import torch

from kata_harness.spec import BASIC, Case, Function, Kata, Probe, randn, stale_grads

DEVICES = ("cpu", "meta", "cuda")


def trainable_parameters(call):
    """For each parameter of the layer returned: whether it requires grad and is a leaf (no history)."""
    layer = call.result
    return [bool(p.requires_grad and p.is_leaf) for p in layer.parameters()] if hasattr(layer, "parameters") else None

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
        Case(stale_grads(randn(3, requires_grad=True)), stale_grads(randn(requires_grad=True)), label="w_requires_grad"),
    ], aspects=BASIC + ("independent",), devices=DEVICES, probes=(Probe("trainable_parameters", trainable_parameters),)),
])
