"""Checks for k38_classification: which cases, on which devices, and which aspects matter.

classifier_step is judged by the loss it returns and by the model's parameters after the step
(`inputs`: compared with the reference's step on an identical seeded copy), on models that come
in with a stale .grad, and by the caller's model afterwards (`caller`); a softmax applied before
the cross-entropy, or nll_loss on raw logits, changes both.

accuracy gets models with dropout (this module's own, drawn with torch.rand as in k31) that come
in in training mode, in evaluation mode and (label `mixed_modes`) in training mode with a batch norm
frozen in evaluation mode, as in k19 and k42, and labels such that about 70% of the samples
are classified right; more samples than classes (so that argmax over the wrong dimension gives another
answer). The accuracy is compared with the reference's, the caller's model afterwards (every submodule's mode),
and probe `graph_during_evaluation` says whether a forward pass recorded a graph (probe `grad_mode`:
whether autograd records again after the call); `device_mix` sees a tensor made on the default device
(a table of hits, say) meet the model's outputs, which on a GPU raises. The results are Python floats
(`.item()`), which the meta device cannot give, so there is no meta case.
"""

import torch
from torch import nn

from kata_harness.spec import (
    BASIC,
    GRAD_MODE,
    GRAPH_DURING_EVALUATION,
    Case,
    Dropout,
    Function,
    Kata,
    custom,
    module,
    randint,
    randn,
    stale_grads,
    tracked,
)

_MODEL = [None]   # the model the case built last, for the labels recipe after it


def model_of(source):
    def build(gen, device):
        _MODEL[0] = source.build(gen, device)
        return _MODEL[0]
    return custom(build)


def linear3():
    return nn.Linear(4, 3)


def mlp5():
    return nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 5))


def dropout_net():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), Dropout(0.5), nn.Linear(8, 3))


def frozen_bn_net():
    """A model being fine-tuned: in training mode, its batch norm frozen in evaluation mode."""
    net = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), Dropout(0.5), nn.Linear(8, 3))
    net.train()
    net[1].eval()
    return net


_X = [None]


def inputs(n, d):
    def build(gen, device):
        _X[0] = (torch.randn(n, d, generator=gen) * 3).to(device)
        return _X[0]
    return custom(build)


def mostly_right():
    """Labels: the model's own evaluation-mode prediction for about 70% of the samples, another class elsewhere."""
    def build(gen, device):
        model, x = _MODEL[0], _X[0]
        modes = {sub: sub.training for sub in model.modules()}   # the case's modes, frozen layers too
        model.eval()
        with torch.no_grad():
            logits = model(x)
        for sub, mode in modes.items():
            sub.training = mode
        predicted = logits.argmax(dim=1)
        shift = torch.randint(1, logits.shape[1], predicted.shape, generator=gen).to(predicted.device)
        keep = torch.rand(predicted.shape, generator=gen).to(predicted.device) < 0.7
        return torch.where(keep, predicted, (predicted + shift) % logits.shape[1])
    return custom(build)


KATA = Kata("k38_classification", [
    Function("classifier_step", [
        Case(module(linear3), randn(6, 4, scale=2.0), randint(0, 3, 6), 0.5),
        Case(stale_grads(module(mlp5)), randn(8, 3, scale=2.0), randint(0, 5, 8), 0.3, label="stale_grads"),
        Case(module(linear3), randn(5, 4, scale=3.0), randint(0, 3, 5), 1.0),
        Case(stale_grads(module(linear3)), randn(4, 4), randint(0, 3, 4), 0.2, label="stale_grads", calls=2),
    ], aspects=BASIC + ("caller",), rtol=1e-5, atol=1e-6, timeout=20),
    Function("accuracy", [
        Case(model_of(tracked(module(linear3))), inputs(12, 4), mostly_right()),
        Case(model_of(tracked(module(dropout_net, train=True))), inputs(16, 4), mostly_right(), label="dropout"),
        Case(model_of(tracked(module(dropout_net, train=False))), inputs(11, 4), mostly_right(), label="came_in_eval_mode"),
        Case(model_of(tracked(module(mlp5))), inputs(14, 3), mostly_right()),
        Case(model_of(tracked(module(frozen_bn_net))), inputs(13, 4), mostly_right(), label="mixed_modes"),
    ], aspects=("shape", "dtype", "values", "caller", "device_mix"),
        probes=(GRAPH_DURING_EVALUATION, GRAD_MODE)),
])
