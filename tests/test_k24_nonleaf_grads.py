"""Checks for k24_nonleaf_grads: which cases, on which devices, and which aspects matter.

hidden_grad is judged by the gradient it returns (the `.grad` of a non-leaf is None unless it was
asked to keep it). input_saliency is judged by the gradient it returns, by the caller's `x` after
the call (the `inputs` aspect: it must not start requiring grad), and by the model's parameters,
whose `.grad` must stay None (probe `parameter_grads`): a backward() fills them as a side effect.

Both are also handed the models a real caller holds: one in eval mode whose parameters hold a
`.grad` from an earlier backward (label `stale_grads`), one whose first layer the caller froze
(label `frozen_first_layer`: there h = model[0](x) is computed from nothing autograd tracks, and
hidden_grad still has a gradient to give), and for input_saliency an x that already requires grad
and holds a `.grad` (label `x_requires_grad`). The caller's model keeps its mode, parameters and
requires_grad flags (`caller`); input_saliency also leaves every parameter's `.grad` as it found it,
a stale one included (`caller_grads`). The gradients returned are data (`requires_grad`).
"""

from torch import nn

from kata_harness.spec import BASIC, Case, Function, Kata, Probe, frozen, module, randn, stale_grads


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
        Case(stale_grads(module(tanh_net, train=False)), randn(4, 2), label="stale_grads"),
        Case(frozen(module(relu_net), "0"), randn(3, 3), label="frozen_first_layer"),
    ], aspects=BASIC + ("caller", "requires_grad"), devices=DEVICES),
    Function("input_saliency", [
        Case(module(relu_net), randn(4, 3)),
        Case(module(tanh_net), randn(2, 2)),
        Case(module(two_layers), randn(3, 4)),
        Case(stale_grads(module(relu_net, train=False)), randn(4, 3), label="stale_grads"),
        Case(frozen(module(tanh_net), "0"), stale_grads(randn(3, 2, requires_grad=True)), label="x_requires_grad"),
    ], aspects=BASIC + ("caller_grads", "requires_grad"), devices=DEVICES, probes=(Probe("parameter_grads", parameter_grads),)),
])
