"""Checks for k19_inference: which cases, on which devices, and which aspects matter.

The models have dropout and batch-norm with non-trivial running statistics, so forgetting
eval() changes the output; each function is checked on models that start in training mode, in
eval mode, and in mixed modes (training, with a frozen batch-norm in eval mode, as when
fine-tuning): the `inputs` aspect compares every submodule's train/eval flag afterwards, so each
one must be put back as it was.

What the model is fed is recorded, for every forward call, by one process-wide forward pre-hook
into a record kept in this module (keyed by the model), never on the model or its hook lists:
the function under test cannot clear or fake it through the objects it is given. Every module
call between building a case and its probes counts, so running a copy of the model counts too.
The probes read how many rows were fed at once (predict_in_batches must never exceed
batch_size) and whether autograd was recording (a graph built during inference wastes memory
even when the result is detached afterwards). Each also says when it saw no forward call at all,
which the reference never does: code that hides its forward calls from the record fails.
"""

import weakref

import torch
from torch import nn

from kata_harness.spec import BASIC, GRAD_MODE, Case, Function, Kata, Probe, custom, module, randn


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


class _Record:
    """What modules were fed since a case was built: rows per call, autograd on or off."""

    def __init__(self):
        self.rows, self.grad_modes = [], []


_RECORDS = weakref.WeakKeyDictionary()   # model -> its _Record
_OPEN = [None]                           # the record of the case being graded now
_HOOK = []                               # the process-wide hook, registered once


def _record_forward(_module, args):
    record = _OPEN[0]
    if record is None:
        return
    record.grad_modes.append(torch.is_grad_enabled())
    if args and isinstance(args[0], torch.Tensor) and args[0].dim() > 0:
        record.rows.append(int(args[0].shape[0]))


def recording(factory, train):
    """``module(factory)`` in training mode (True), eval mode (False) or "mixed" (training, with
    every batch-norm frozen in eval mode), with what it is fed from now on recorded here."""
    fresh = module(factory, train=train is not False)

    def build(gen, device):
        model = fresh.build(gen, device)
        if train == "mixed":
            for sub in model.modules():
                if isinstance(sub, nn.BatchNorm1d):
                    sub.eval()
        if not _HOOK:
            _HOOK.append(nn.modules.module.register_module_forward_pre_hook(_record_forward))
        _RECORDS[model] = _OPEN[0] = _Record()
        return model
    return custom(build)


NOTHING_SEEN = "no forward call seen"   # what a probe says when the record is empty (a blinded record fails)


def largest_batch(call):
    """"<= batch_size" when the model never saw more rows at once, else the largest count it saw."""
    model, _x, batch_size = call.args
    rows = _RECORDS[model].rows
    if not rows:
        return NOTHING_SEEN
    return f"<= {batch_size}" if max(rows) <= batch_size else str(max(rows))


def graph_during_forward(call):
    """Whether any forward call ran with autograd recording (a graph built, even if detached later):
    True or False, which read the same in every language."""
    modes = _RECORDS[call.args[0]].grad_modes
    if not modes:
        return NOTHING_SEEN
    return any(modes)


INFERENCE = BASIC + ("requires_grad", "history")

KATA = Kata("k19_inference", [
    Function("predict", [
        Case(recording(net, train=True), randn(6, 4)),
        Case(recording(net, train=False), randn(5, 4)),
        Case(recording(nested_net, train=True), randn(4, 4)),
        Case(recording(nested_net, train=False), randn(3, 4)),
        Case(recording(net, train=True), randn(1, 4)),
        Case(recording(net, train="mixed"), randn(5, 4), label="mixed_modes"),
        Case(recording(nested_net, train="mixed"), randn(4, 4), label="mixed_modes"),
    ], aspects=INFERENCE, probes=(Probe("graph_during_forward", graph_during_forward), GRAD_MODE)),
    Function("predict_in_batches", [
        Case(recording(net, train=True), randn(10, 4), 4),
        Case(recording(net, train=False), randn(12, 4), 3),
        Case(recording(nested_net, train=True), randn(10, 4), 2),
        Case(recording(net, train=True), randn(7, 4), 3),
        Case(recording(nested_net, train=False), randn(3, 4), 8),
        Case(recording(nested_net, train="mixed"), randn(9, 4), 4, label="mixed_modes"),
    ], aspects=INFERENCE, probes=(Probe("batch_limit", largest_batch),
                                 Probe("graph_during_forward", graph_during_forward), GRAD_MODE)),
])
