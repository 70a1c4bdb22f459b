"""Checks for k33_modules: which cases, on which devices, and which aspects matter.

stacked_layers is judged by the module it returns: how many parameters it registers (a plain
Python list registers none; the count is compared before any value), then their shapes, values,
dtype and device, on cpu, meta and, where there is one, a GPU; probe `default_device`: the default
device after the call (torch.set_default_device(device) to build the layers changes where every later
tensor of the caller's program is made). count_parameters gets models of more than one parameter
tensor (where the number of tensors and of elements differ); label `frozen`, models with a frozen
layer (`all_counted`: the same, every parameter counted); label `buffers`, a model with batch norm,
whose running statistics are in the state_dict but are no parameters; label `shared`, a model that
uses one layer twice (tied weights), whose parameters .parameters() yields once.
"""

import torch
from torch import nn

from kata_harness.spec import DEVICE, Case, Function, Kata, Probe, module

DEVICES = ("cpu", "meta", "cuda")


def small_net():
    return nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))


def frozen_first_layer():
    """A pretrained-style net whose first layer is frozen (requires_grad=False)."""
    net = nn.Sequential(nn.Linear(4, 5), nn.Tanh(), nn.Linear(5, 3))
    net[0].requires_grad_(False)
    return net


def batch_norm_net():
    """Batch norm keeps running statistics: buffers, in the state_dict, but no parameters."""
    return nn.Sequential(nn.Linear(3, 5), nn.BatchNorm1d(5), nn.ReLU(), nn.Linear(5, 2))


def tied_layers():
    """One layer used twice (tied weights): .parameters() yields its weight and bias once."""
    shared = nn.Linear(4, 4)
    return nn.Sequential(shared, nn.Tanh(), shared, nn.Tanh(), nn.Linear(4, 1))


def default_device(call) -> str:
    """The device torch makes tensors on after the call, by default."""
    return str(torch.get_default_device())


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
    ], devices=DEVICES, probes=(Probe("default_device", default_device),)),
    Function("count_parameters", [
        Case(module(small_net)),
        Case(module(small_net), True),
        Case(module(frozen_first_layer), True, label="frozen"),
        Case(module(frozen_bias), trainable_only=True, label="frozen"),
        Case(module(frozen_first_layer), False, label="all_counted"),
        Case(module(batch_norm_net), label="buffers"),
        Case(module(tied_layers), label="shared"),
        Case(module(tied_layers), True, label="shared"),
        Case(module(frozen_bias), True, hidden=True, label="frozen"),
        Case(module(batch_norm_net), False, hidden=True, label="buffers"),
    ], devices=("cpu", "meta")),
])
