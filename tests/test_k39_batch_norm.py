"""Checks for k39_batch_norm: which cases, on which devices, and which aspects matter.

The models have batch norm (and predict_one's dropout, the harness's `Dropout`, drawn with torch.rand
as in k31) and come in in training mode, once in evaluation mode and once (label `mixed_modes`) in
training mode with their batch norm frozen in evaluation mode, as in k19 and k42, with running statistics of
their own (set from a few batches before the call, so that evaluation mode and training mode give
clearly different outputs). The results are compared with the reference's; the `inputs` aspect
compares the caller's model afterwards, its running statistics included (a forward pass in
training mode updates them), and `caller` every submodule's mode; the results must hold no graph, probe
`graph_during_evaluation` says whether a forward pass recorded one (a float result cannot show it),
and probe `grad_mode` whether autograd records again after the call. predict_one also runs on the
meta device and with the `device_mix` aspect: a batch built on the default device (the CPU) for a
model on another device is seen without a GPU.
"""

import torch
from torch import nn

from kata_harness.spec import GRAD_MODE, GRAPH_DURING_EVALUATION, Case, Dropout, Function, Kata, module, randn, tracked


def _warmed(net, d_in):
    """``net`` with running statistics of its own: a few training-mode passes on shifted batches."""
    with torch.no_grad():
        for _ in range(3):
            net(torch.randn(16, d_in) * 2 + 1)
    return net


def bn_net():
    return _warmed(nn.Sequential(nn.Linear(3, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 1)), 3)


def bn_dropout_net():
    return _warmed(nn.Sequential(nn.Linear(3, 5), nn.BatchNorm1d(5), nn.ReLU(), Dropout(0.3), nn.Linear(5, 2)), 3)


def small_bn_net():
    return _warmed(nn.Sequential(nn.Linear(2, 4), nn.BatchNorm1d(4), nn.Tanh(), nn.Linear(4, 1)), 2)


def frozen_bn(factory):
    """``factory``'s model being fine-tuned: in training mode, its batch norm (layer 1) frozen in
    evaluation mode."""
    def build():
        net = factory()
        net.train()
        net[1].eval()
        return net
    build.__name__ = f"frozen_bn_{factory.__name__}"
    return build


def model(factory, **options):
    return tracked(module(factory, **options))


RESULT = ("shape", "dtype", "device", "values", "inputs", "requires_grad", "history", "caller")

KATA = Kata("k39_batch_norm", [
    Function("validation_mse", [
        Case(model(bn_net, train=True), randn(8, 3), randn(8, 1)),
        Case(model(small_bn_net, train=True), randn(5, 2), randn(5, 1)),
        Case(model(bn_net, train=False), randn(6, 3), randn(6, 1), label="came_in_eval_mode"),
        Case(model(frozen_bn(small_bn_net)), randn(7, 2), randn(7, 1), label="mixed_modes"),
    ], aspects=RESULT, rtol=1e-5, atol=1e-6, probes=(GRAPH_DURING_EVALUATION, GRAD_MODE)),
    Function("predict_one", [
        Case(model(bn_dropout_net, train=True), randn(3)),
        Case(model(bn_net, train=True), randn(3)),
        Case(model(bn_dropout_net, train=False), randn(3), label="came_in_eval_mode"),
        Case(model(frozen_bn(bn_dropout_net)), randn(3), label="mixed_modes"),
    ], aspects=RESULT + ("device_mix",), devices=("cpu", "meta", "cuda"), rtol=1e-5, atol=1e-6, probes=(GRAD_MODE,)),
])
