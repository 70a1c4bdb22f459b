"""Checks for k10_inference: which cases, on which devices, and which aspects matter.

The models have dropout and batch-norm with non-trivial running statistics, so forgetting
eval() changes the output; each function is checked on models that start in training mode
and in eval mode (the `inputs` aspect compares every submodule's train/eval flag afterwards).
The models record, for every forward call, how many rows they were fed (predict_in_batches
must never exceed batch_size) and whether autograd was recording (a graph built during
inference wastes memory even when the result is detached afterwards).
"""

import torch
from torch import nn

from kata_harness.spec import BASIC, Case, Function, Kata, Probe, custom, module, randn


def _with_running_stats(model, batch_norm):
    """Give batch-norm running statistics far from its initial 0 and 1, as after real training.
    (Set directly: running training batches through batch-norm is slow on a busy CPU.)"""
    with torch.no_grad():
        batch_norm.running_mean.copy_(torch.randn(batch_norm.num_features) * 1.5)
        batch_norm.running_var.copy_(torch.rand(batch_norm.num_features) * 3 + 0.3)
        batch_norm.num_batches_tracked.fill_(100)
    return model


def net():
    model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 3))
    return _with_running_stats(model, model[1])


def nested_net():
    block = nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.Tanh())
    model = nn.Sequential(block, nn.Dropout(0.3), nn.Linear(6, 2))
    return _with_running_stats(model, block[1])


def recording(factory, train):
    """``module(factory, train=train)`` whose submodules record, for every forward call, the
    number of rows fed in and whether autograd was recording at the time."""
    fresh = module(factory, train=train)

    def build(gen, device):
        model = fresh.build(gen, device)
        rows, grad_modes = [], []

        def record(_module, args):
            grad_modes.append(torch.is_grad_enabled())
            if args and isinstance(args[0], torch.Tensor) and args[0].dim() > 0:
                rows.append(int(args[0].shape[0]))

        for sub in model.modules():
            sub.register_forward_pre_hook(record)
        model.rows_seen, model.grad_modes = rows, grad_modes
        return model
    return custom(build)


def largest_batch(call):
    """"<= batch_size" when the model never saw more rows at once, else the largest count it saw."""
    model, _x, batch_size = call.args
    largest = max(model.rows_seen, default=0)
    return f"<= {batch_size}" if largest <= batch_size else str(largest)


def graph_during_forward(call):
    """Whether any forward call ran with autograd recording (a graph built, even if detached later)."""
    return any(call.args[0].grad_modes)


INFERENCE = BASIC + ("requires_grad", "history")

KATA = Kata("k10_inference", [
    Function("predict", [
        Case(recording(net, train=True), randn(6, 4)),
        Case(recording(net, train=False), randn(5, 4)),
        Case(recording(nested_net, train=True), randn(4, 4)),
        Case(recording(nested_net, train=False), randn(3, 4)),
        Case(recording(net, train=True), randn(1, 4)),
    ], checks=INFERENCE, probes=(Probe("graph_during_forward", graph_during_forward),)),
    Function("predict_in_batches", [
        Case(recording(net, train=True), randn(10, 4), 4),
        Case(recording(net, train=False), randn(12, 4), 3),
        Case(recording(nested_net, train=True), randn(10, 4), 2),
        Case(recording(net, train=True), randn(7, 4), 3),
        Case(recording(nested_net, train=False), randn(3, 4), 8),
    ], checks=INFERENCE, probes=(Probe("batch_limit", largest_batch),
                                 Probe("graph_during_forward", graph_during_forward))),
])
