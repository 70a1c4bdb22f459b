"""Checks for k24_nonleaf_grads: which cases, on which devices, and which aspects matter.

hidden_grad is judged by the gradient it returns (the `.grad` of a non-leaf is None unless it was
asked to keep it). input_saliency is judged by the gradient it returns, by the caller's `x` after
the call (the `inputs` aspect: it must not start requiring grad), and by the model's parameters,
whose `.grad` must stay None (probe `parameter_grads`): a backward() fills them as a side effect.
"""

from torch import nn

from kata_harness.spec import Case, Function, Kata, Probe, module, randn


def relu_net():
    return nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))


def tanh_net():
    return nn.Sequential(nn.Linear(2, 5), nn.Tanh(), nn.Linear(5, 3), nn.Sigmoid())


def two_layers():
    return nn.Sequential(nn.Linear(4, 3), nn.Linear(3, 1))


def parameter_grads(call):
    """Which of the model's parameters hold a gradient after the call (the contract: none)."""
    return [name for name, p in call.args[0].named_parameters() if p.grad is not None]


DEVICES = ("cpu", "meta", "cuda")

KATA = Kata("k24_nonleaf_grads", [
    Function("hidden_grad", [
        Case(module(relu_net), randn(5, 3)),
        Case(module(tanh_net), randn(3, 2)),
        Case(module(two_layers), randn(2, 4)),
    ], devices=DEVICES),
    Function("input_saliency", [
        Case(module(relu_net), randn(4, 3)),
        Case(module(tanh_net), randn(2, 2)),
        Case(module(two_layers), randn(3, 4)),
    ], devices=DEVICES, probes=(Probe("parameter_grads", parameter_grads),)),
])
