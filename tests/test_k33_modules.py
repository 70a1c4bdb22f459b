"""Checks for k33_modules: which cases, on which devices, and which aspects matter.

stacked_layers is judged by the module it returns: how many parameters it registers (a plain
Python list registers none; the count is compared before any value), then their shapes, values,
dtype and device, on cpu, meta and, where there is one, a GPU. count_parameters gets models of more
than one parameter tensor (where the number of tensors and of elements differ) and, label
`frozen`, models with a frozen layer.
"""

from torch import nn

from kata_harness.spec import DEVICE, Case, Function, Kata, module

DEVICES = ("cpu", "meta", "cuda")


def small_net():
    return nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))


def frozen_first_layer():
    """A pretrained-style net whose first layer is frozen (requires_grad=False)."""
    net = nn.Sequential(nn.Linear(4, 5), nn.Tanh(), nn.Linear(5, 3))
    net[0].requires_grad_(False)
    return net


def frozen_bias():
    layer = nn.Linear(6, 2)
    layer.bias.requires_grad_(False)
    return layer


KATA = Kata("k33_modules", [
    Function("stacked_layers", [
        Case([3, 4, 2], DEVICE),
        Case([2, 5, 5, 1], DEVICE),
        Case([4, 3], DEVICE),
        Case([3, 2, 2, 2, 1], DEVICE, hidden=True),
    ], devices=DEVICES),
    Function("count_parameters", [
        Case(module(small_net)),
        Case(module(small_net), True),
        Case(module(frozen_first_layer), True, label="frozen"),
        Case(module(frozen_bias), trainable_only=True, label="frozen"),
        Case(module(frozen_first_layer), False),
        Case(module(frozen_bias), True, hidden=True, label="frozen"),
    ], devices=("cpu", "meta")),
])
