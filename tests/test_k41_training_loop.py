"""Checks for k41_training_loop: which cases, on which devices, and which aspects matter.

The data are synthetic: x (N, 4) standard normal, labels (N,) int64, the argmax of a random linear
teacher's scores with some noise (so that the loss can fall but not vanish). Each case's loader is
built here, a TensorDataset in a DataLoader with num_workers=0 (graded jobs have no shared memory),
shuffled by a generator of its own seeded from the case (learner and reference see the same batches,
and the global generator is left alone); its sizes leave the last batch short, except where a case
says otherwise.

train_classifier is judged as the procedure its contract describes (aspect `procedure`): its
per-epoch losses and the model's final parameters against the reference's own run of the same case,
and the caller's model afterwards (`caller`: its mode, parameter objects and flags). The models are
`tracked`: probe `graphs_kept` counts the graphs the loop keeps alive (a running total of loss
tensors keeps every batch's) and probe `training_mode` whether every forward pass ran in training
mode. The first cases each let one pitfall alone fail first: one full batch for one epoch (only the
loss itself can differ), a stale .grad on one batch (only clearing the gradients), three equal
batches (only the graphs kept), one epoch with a short last batch (only the per-sample mean); then a
model with dropout handed in in evaluation mode and in training mode, a frozen first layer, and the
same model and loader twice in a row (calls=2). The model with dropout is the harness's
`DropoutNet`, its mask drawn from a generator seeded by the model's input batch (as in k31), so that
the masks do not depend on how many random numbers anyone else drew.

evaluate gets loaders with a short last batch and models with dropout that come in in training mode
and in evaluation mode, and (label `mixed_modes`) a model in training mode with its batch norm frozen
in evaluation mode, as in k19 and k42: (loss, accuracy) against the reference's, the caller's model
afterwards (`caller`: every submodule's mode),
probe `graph_during_evaluation` and probe `grad_mode` (autograd recording again after the call).
"""


import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from kata_harness.spec import (
    BASIC,
    GRAD_MODE,
    GRAPH_DURING_EVALUATION,
    GRAPHS_KEPT,
    Case,
    DropoutNet,
    Function,
    Kata,
    Probe,
    custom,
    frozen,
    graph_record,
    module,
    stale_grads,
    tracked,
)

CLASSES = 3
FEATURES = 4


class Loader(DataLoader):
    """A DataLoader with a short repr, for the "Called ..." line."""

    def __repr__(self):
        return f"DataLoader(<{len(self.dataset)} samples>, batch_size={self.batch_size}, shuffle=True)"


def loader(n, batch_size):
    """A shuffled DataLoader over n synthetic samples, its order drawn from its own seeded generator."""
    def build(gen, device):
        x = torch.randn(n, FEATURES, generator=gen)
        teacher = torch.randn(FEATURES, CLASSES, generator=gen)
        labels = (x @ teacher + 0.5 * torch.randn(n, CLASSES, generator=gen)).argmax(dim=1)
        seed = int(torch.randint(0, 2 ** 31 - 1, (), generator=gen))
        return Loader(TensorDataset(x.to(device), labels.to(device)), batch_size=batch_size, shuffle=True,
                      num_workers=0, generator=torch.Generator().manual_seed(seed))
    return custom(build)


def linear():
    return nn.Linear(FEATURES, CLASSES)


def mlp():
    return nn.Sequential(nn.Linear(FEATURES, 8), nn.ReLU(), nn.Linear(8, CLASSES))


def dropout_net():
    return DropoutNet(FEATURES, 8, CLASSES, p=0.5)


def frozen_bn_net():
    """A model being fine-tuned: in training mode, its batch norm frozen in evaluation mode."""
    net = nn.Sequential(nn.Linear(FEATURES, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, CLASSES))
    net.train()
    net[1].eval()
    return net


def training_mode(call):
    """Whether every forward pass of the model ran in training mode."""
    record = graph_record(call.args[0])
    if record is None or not record.forwards:
        return "no forward pass seen"
    return all(training for training, _ in record.passes)


def model(factory, **options):
    return tracked(module(factory, **options))


KATA = Kata("k41_training_loop", [
    Function("train_classifier", [
        Case(model(linear), loader(8, 8), 0.5, 1),
        Case(tracked(stale_grads(module(linear))), loader(6, 6), 0.5, 1, label="stale_grads"),
        Case(model(linear), loader(12, 4), 0.5, 1),
        Case(model(linear), loader(10, 4), 0.5, 1, label="short_last_batch"),
        Case(model(dropout_net, train=False), loader(10, 4), 0.3, 2, label="came_in_eval_mode"),
        Case(model(dropout_net, train=True), loader(11, 4), 0.3, 2),
        Case(tracked(frozen(module(mlp), "0")), loader(9, 4), 0.5, 2, label="frozen"),
        Case(model(mlp), loader(7, 3), 0.2, 1, calls=2),
        Case(tracked(stale_grads(module(dropout_net, train=False))), loader(13, 5), 0.3, 2, hidden=True),
        Case(model(mlp), loader(12, 5), 0.4, 3, hidden=True),
    ], aspects=BASIC + ("caller", "procedure"), rtol=1e-5, atol=1e-6, timeout=20,
        probes=(GRAPHS_KEPT, Probe("training_mode", training_mode))),
    Function("evaluate", [
        Case(model(linear), loader(10, 4)),
        Case(model(dropout_net, train=True), loader(9, 4), label="dropout"),
        Case(model(dropout_net, train=False), loader(11, 3), label="came_in_eval_mode"),
        Case(model(mlp), loader(7, 2)),
        Case(model(frozen_bn_net), loader(9, 4), label="mixed_modes"),
        Case(model(dropout_net, train=True), loader(13, 5), label="dropout", hidden=True),
    ], aspects=("shape", "dtype", "values", "container", "caller"), rtol=1e-5, atol=1e-6,
        probes=(GRAPH_DURING_EVALUATION, GRAD_MODE)),
])
