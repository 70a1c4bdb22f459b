"""Checks for k34_module_calls: which cases, on which devices, and which aspects matter.

layer_outputs gets models on which the caller registered hooks of its own (a forward pre-hook that
rescales the model's input, a forward hook that rescales a child's output): calling forward
directly, or each child by hand, skips them and changes every output. The outputs must hold no
graph, and probe `hooks_left` counts the hooks on the model afterwards (the caller's own included):
one left behind by the code under test keeps capturing on every later call. The caller's model
is left as it came (`caller`: its mode, its parameters and their flags), and autograd records again
after the call (probe `grad_mode`).

scaler_module is judged by the module it returns: how many parameters and buffers it registers
(compared before any value: nn.Parameter statistics are parameters, plain tensor attributes are
neither), their values, dtype and device on cpu, meta and a GPU; probe `scaled` is its output on a
fixed input, probe `saved` the number of entries its state_dict() holds.

deployed_copy gets a model in training mode, with dropout and batch norm (so that the mode
matters) on the CPU, and is checked on cpu, meta and a GPU: the copy's parameters, buffers, device
and mode, and (the `inputs` and `caller` aspects) the caller's model after the call, which must not have
moved, changed mode, changed values or had its parameters frozen.
"""

import torch
from torch import nn

from kata_harness.spec import BASIC, DEVICE, GRAD_MODE, Case, Function, Kata, Probe, module, rand, randn

DEVICES = ("cpu", "meta", "cuda")


def _double_input(_module, args):
    return (args[0] * 2,)


def _halve_output(_module, _args, output):
    return output * 0.5


def hooked_net():
    """The caller's model: its input doubled by a forward pre-hook of the caller's."""
    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    net.register_forward_pre_hook(_double_input)
    return net


def child_hooked_net():
    """The caller's model: its first layer's output halved by a forward hook of the caller's."""
    net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 3), nn.Sigmoid())
    net[0].register_forward_hook(_halve_output)
    return net


def plain_net():
    return nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 1))


def hooks_left(call):
    """How many forward hooks and pre-hooks the model's modules hold after the call."""
    return sum(len(m._forward_hooks) + len(m._forward_pre_hooks) for m in call.args[0].modules())


def scaled(call):
    """The returned module's output on a fixed input of the statistics' shape, device and dtype."""
    mean = call.args[0]
    x = torch.linspace(-3.0, 3.0, 2 * mean.numel(), dtype=torch.float64).reshape(2, -1).to(mean)
    with torch.no_grad():
        return call.result(x)


def saved(call):
    """How many entries the returned module's state_dict() holds."""
    return len(call.result.state_dict())


def train_net():
    return nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Dropout(0.5), nn.Linear(4, 2))


def small_train_net():
    return nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.2))


KATA = Kata("k34_module_calls", [
    Function("layer_outputs", [
        Case(module(hooked_net), randn(4, 3)),
        Case(module(plain_net), randn(2, 3)),
        Case(module(child_hooked_net), randn(3, 2)),
        Case(module(hooked_net), randn(1, 3), calls=2),
    ], aspects=BASIC + ("requires_grad", "history", "caller"), devices=("cpu", "cuda"),
        probes=(Probe("hooks_left", hooks_left), GRAD_MODE)),
    Function("scaler_module", [
        Case(randn(3), rand(3, low=0.5, high=2.0)),
        Case(randn(1, 2, dtype=torch.float64), rand(1, 2, low=0.5, high=2.0, dtype=torch.float64)),
        Case(randn(4, scale=5.0), rand(4, low=1.0, high=3.0)),
    ], devices=DEVICES, probes=(Probe("scaled", scaled), Probe("saved", saved))),
    Function("deployed_copy", [
        Case(module(train_net, device="cpu", train=True), DEVICE),
        Case(module(small_train_net, device="cpu", train=True), DEVICE),
        Case(module(train_net, device="cpu", train=True), DEVICE, hidden=True),
    ], aspects=BASIC + ("caller",), devices=DEVICES),
])
