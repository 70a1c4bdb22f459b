"""Checks for k36_data_loaders: which cases, on which devices, and which aspects matter.

training_loader is judged by behaviour, not by one particular order: the loader it returns is
iterated here (its samples are their own indices) and the probes say whether each epoch's batches
are all full (`full_batches`), whether an epoch visits each sample at most once and as many as fit
in full batches (`covers`), whether the second epoch's order differs from the first's
(`reshuffled`), whether another loader made with the same seed gives the same two epochs
(`reproducible`) and one made with another seed another order (`seeded`), and whether iterating
it drew from the global generator (`global_rng`); the `rng` aspect sees a call that reseeded it.

evaluate_mse gets DataLoaders whose last batch is short, and models with dropout (this module's
own, drawn with torch.rand as in k31, so that a pass in training mode is seen) that come in in
training mode, in evaluation mode and (label `mixed_modes`) in training mode with a batch norm frozen
in evaluation mode, as in k19 and k42: the error is compared with the reference's, the caller's
model afterwards (`caller`: every submodule's mode), and probe `graph_during_evaluation` says whether a forward
pass recorded a graph, probe `grad_mode` whether autograd records again after the call.
"""

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset, TensorDataset

from kata_harness.spec import GRAD_MODE, GRAPH_DURING_EVALUATION, Case, Dropout, Function, Kata, Probe, custom, module, tracked


class Indices(Dataset):
    """Samples 0 to n - 1, each sample its own index."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, index):
        return torch.tensor(index)

    def __repr__(self):
        return f"Indices({self.n})"


def indices(n):
    return custom(lambda gen, device: Indices(n))


def _epoch(loader):
    return [[int(i) for i in torch.as_tensor(batch).reshape(-1)] for batch in loader]


def _two_epochs(loader):
    return [_epoch(loader), _epoch(loader)]


def full_batches(call):
    """Whether every batch of an epoch has batch_size samples."""
    return all(len(batch) == call.args[1] for batch in _epoch(call.result))


def covers(call):
    """Whether an epoch visits distinct samples, as many as fit in full batches."""
    seen = [i for batch in _epoch(call.result) for i in batch]
    return len(seen) == len(set(seen)) == len(call.args[0]) // call.args[1] * call.args[1]


def reshuffled(call):
    """Whether the second epoch's order differs from the first's."""
    first, second = _two_epochs(call.result)
    return first != second


def reproducible(call):
    """Whether two more loaders made with the same seed give the same two epochs."""
    again = call.fn(*call.args, **call.kwargs)
    other = call.fn(*call.args, **call.kwargs)
    return _two_epochs(again) == _two_epochs(other)


def seeded(call):
    """Whether a loader made with another seed gives another first epoch."""
    dataset, batch_size, seed = call.args
    return _epoch(call.fn(dataset, batch_size, seed + 1)) != _epoch(call.fn(dataset, batch_size, seed))


def global_rng(call):
    """Whether iterating the loader left the global generator as it was."""
    before = torch.get_rng_state()
    _epoch(call.result)
    return torch.equal(before, torch.get_rng_state())


class Loader(DataLoader):
    """A DataLoader with a short repr, for the "Called ..." line."""

    def __repr__(self):
        return f"DataLoader(<{len(self.dataset)} samples>, batch_size={self.batch_size})"


def loader(n, d_in, batch_size, scale=1.0):
    def build(gen, device):
        x = torch.randn(n, d_in, generator=gen).to(device)
        y = (torch.randn(n, 1, generator=gen) * scale).to(device)
        return Loader(TensorDataset(x, y), batch_size=batch_size)
    return custom(build)


def linear():
    return nn.Linear(3, 1)


def dropout_net():
    return nn.Sequential(nn.Linear(3, 6), nn.ReLU(), Dropout(0.5), nn.Linear(6, 1))


def frozen_bn_net():
    """A model being fine-tuned: in training mode, its batch norm frozen in evaluation mode."""
    net = nn.Sequential(nn.Linear(3, 6), nn.BatchNorm1d(6), nn.ReLU(), Dropout(0.5), nn.Linear(6, 1))
    net.train()
    net[1].eval()
    return net


KATA = Kata("k36_data_loaders", [
    Function("training_loader", [
        Case(indices(10), 4, 5),
        Case(indices(9), 3, 7),
        Case(indices(13), 5, 123),
        Case(indices(7), 2, 2024, hidden=True),
    ], aspects=("rng",), probes=tuple(Probe(f.__name__, f) for f in (full_batches, covers, reshuffled, reproducible,
                                                                      seeded, global_rng))),
    Function("evaluate_mse", [
        Case(tracked(module(linear)), loader(7, 3, 3)),
        Case(tracked(module(dropout_net, train=True)), loader(6, 3, 3), label="dropout"),
        Case(tracked(module(dropout_net, train=False)), loader(9, 3, 4, scale=2.0), label="came_in_eval_mode"),
        Case(tracked(module(linear)), loader(5, 3, 2, scale=3.0)),
        Case(tracked(module(frozen_bn_net)), loader(8, 3, 3), label="mixed_modes"),
    ], aspects=("shape", "dtype", "values", "caller"), rtol=1e-5, atol=1e-6,
        probes=(GRAPH_DURING_EVALUATION, GRAD_MODE)),
])
