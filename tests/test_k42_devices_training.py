"""Checks for k42_devices_training: which cases, on which devices, and which aspects matter.

The data come as a real dataset's do: a Dataset over NumPy rows whose __getitem__ makes each sample
with torch.tensor, on the CPU (the default device), batched by a DataLoader (num_workers=0: graded
jobs have no shared memory). On a GPU, a batch that was not moved to the model's device makes the
model's first layer raise; the meta device, where the model of predict_classes also goes, raises as
well ("is not on the expected device"); on the CPU the aspect `device_mix` sees the sample made on
the default device meet the model's parameters. The labels are int64, the argmax of a random linear
teacher's scores with some noise.

predict_classes gets models on the test device (cpu, meta, a GPU), in training mode (one the harness's
`DropoutNet`, its dropout's mask keyed by the input batch as in k41), in evaluation mode, and (label
`mixed_modes`) in training mode with its batch norm frozen in evaluation mode, as in k19: the
predictions (their values on the CPU, their dtype, shape and device everywhere), the caller's model
afterwards (`caller`: its mode) and probes `graph_during_evaluation` and `grad_mode` (autograd still
recording after the call: torch.set_grad_enabled(False) left behind switches it off for the caller).

train_on_device gets a model on the CPU and the test device: judged as a procedure (aspect
`procedure`: per-epoch losses and the model's final parameters against the reference's own run), the
losses as Python floats, probe `graphs_kept`, the caller's model afterwards, and `device_mix` for a
batch or labels left on the default device. The first case has three equal batches (a running
total of loss tensors shows there, before the short last batch of the second); a model with a
stale .grad, one handed in in evaluation mode and (label `frozen_layer`) one whose first layer is
frozen are among the cases. It is not run on meta: a loss on meta has no value to take.

confusion_matrix gets the same models and loaders as predict_classes and a number of classes (in
the cases labelled `absent_class`, more than the model predicts and the labels hold): the counts
(values, int64, shape, and on a GPU that they are on the CPU), the caller's model afterwards and
probes `graph_during_evaluation` and `grad_mode`; `device_mix` for a count made on the default device that meets
the model's predictions, or labels left there. It is not run on meta: the counts, read on the CPU,
have no values there.

move_training gets a model on the CPU trained two steps by its optimizer (SGD with momentum, Adam),
so that the optimizer holds state, a device (the test device) and a dtype, float64 in most cases: a
dtype change shows on the CPU what a device change shows on a GPU, since model.to leaves the
optimizer's state as it was in both. Judged by the model afterwards (`inputs`: dtype, device,
values; `caller`: the same parameter objects) and by probes: `optimizer_holds_model` (the
optimizer's parameters are still the model's), `optimizer_state` (each parameter's state tensors,
"step" aside, with their dtype and device) and `training_goes_on` (two more steps of the caller's
optimizer on the moved model: Adam raises on state of another dtype or device). It is not run on
meta: moving a CPU module to meta makes new parameter objects, which a GPU never does.
"""

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset

from kata_harness.spec import (
    BASIC,
    DEVICE,
    GRAD_MODE,
    GRAPH_DURING_EVALUATION,
    GRAPHS_KEPT,
    SGD,
    Adam,
    Case,
    DropoutNet,
    Function,
    Kata,
    Probe,
    custom,
    frozen,
    module,
    stale_grads,
    tracked,
)

CLASSES = 3
FEATURES = 4
CPU = "cpu"


class Rows(Dataset):
    """Samples made on access from NumPy rows, as a dataset reading files makes them: on the CPU."""

    def __init__(self, x: np.ndarray, labels: np.ndarray):
        self.x, self.labels = x, labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        return torch.tensor(self.x[index], dtype=torch.float32), torch.tensor(int(self.labels[index]))


class Loader(DataLoader):
    """A DataLoader with a short repr, for the "Called ..." line."""

    def __repr__(self):
        order = "shuffle=True" if self.generator is not None else "shuffle=False"
        return f"DataLoader(<{len(self.dataset)} samples on the CPU>, batch_size={self.batch_size}, {order})"


def loader(n, batch_size, shuffle=True):
    """A DataLoader over n synthetic samples on the CPU, shuffled by a generator of its own."""
    def build(gen, device):
        x = torch.randn(n, FEATURES, generator=gen, dtype=torch.float64)
        teacher = torch.randn(FEATURES, CLASSES, generator=gen, dtype=torch.float64)
        labels = (x @ teacher + 0.5 * torch.randn(n, CLASSES, generator=gen, dtype=torch.float64)).argmax(dim=1)
        seed = int(torch.randint(0, 2 ** 31 - 1, (), generator=gen))
        order = torch.Generator().manual_seed(seed) if shuffle else None
        return Loader(Rows(x.numpy(), labels.numpy()), batch_size=batch_size, shuffle=shuffle, num_workers=0,
                      generator=order)
    return custom(build)


def linear():
    return nn.Linear(FEATURES, CLASSES)


def mlp():
    return nn.Sequential(nn.Linear(FEATURES, 8), nn.ReLU(), nn.Linear(8, CLASSES))


def bn_mlp():
    # No bias before the batch norm in training mode (see k40's bn_mlp): its gradient is rounding
    # noise, which Adam would turn into steps of about lr that differ from one CPU to another.
    return nn.Sequential(nn.Linear(FEATURES, 6, bias=False), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, CLASSES))


def dropout_net():
    return DropoutNet(FEATURES, 8, CLASSES, p=0.5)


def frozen_bn_net():
    """A model being fine-tuned: in training mode, its batch norm frozen in evaluation mode."""
    net = nn.Sequential(nn.Linear(FEATURES, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, CLASSES))
    net.train()
    net[1].eval()
    return net


def model(factory, **options):
    return tracked(module(factory, **options))


# --- move_training: a model trained two steps by its optimizer, handed in with that optimizer ---

_BUILT = [None]   # (model, optimizer) the case built last, for the optimizer recipe after it


def trained(factory, kind, **options):
    """A ``factory`` model on the CPU, trained two steps by an optimizer ``kind`` (`its_optimizer`)."""
    source = module(factory, device=CPU, train=True)

    def build(gen, device):
        net = source.build(gen, device)
        optimizer = kind(net.parameters(), **options)
        x = torch.randn(6, FEATURES, generator=gen)
        labels = torch.randint(0, CLASSES, (6,), generator=gen)
        for _ in range(2):
            optimizer.zero_grad()
            F.cross_entropy(net(x), labels).backward()
            optimizer.step()
        _BUILT[0] = (net, optimizer)
        return net
    return custom(build)


def its_optimizer():
    """The optimizer that trained the model built just before."""
    return custom(lambda gen, device: _BUILT[0][1])


def optimizer_holds_model(call) -> bool:
    """Whether the optimizer's parameters are, one for one, the model's own parameter objects."""
    held = [p for group in call.args[1].param_groups for p in group["params"]]
    own = list(call.args[0].parameters())
    return len(held) == len(own) and all(a is b for a, b in zip(held, own))


def optimizer_state(call):
    """For each of the model's parameters, the optimizer's state tensors ("step" aside: a count that
    may stay on the CPU) as the next step will read them."""
    state = call.args[1].state
    return [{name: value for name, value in sorted(state.get(p, {}).items()) if name != "step"}
            for p in call.args[0].parameters()]


def training_goes_on(call):
    """Two more steps of the caller's optimizer on the moved model, on a batch of the model's dtype and
    device: their losses and the model's parameters after them."""
    net, optimizer = call.args[0], call.args[1]
    where = next(net.parameters())
    gen = torch.Generator().manual_seed(42)
    x = torch.randn(5, FEATURES, generator=gen, dtype=torch.float64).to(where)
    labels = torch.randint(0, CLASSES, (5,), generator=gen).to(where.device)
    losses = []
    for _ in range(2):
        optimizer.zero_grad()
        loss = F.cross_entropy(net(x), labels)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return {"losses": losses, "params": [p.detach().clone() for p in net.parameters()]}


KATA = Kata("k42_devices_training", [
    Function("predict_classes", [
        Case(model(linear), loader(10, 4, shuffle=False)),
        Case(model(mlp, train=True), loader(9, 3, shuffle=False)),
        Case(model(dropout_net, train=True), loader(11, 4, shuffle=False), label="dropout"),
        Case(model(dropout_net, train=False), loader(7, 5, shuffle=False), label="came_in_eval_mode"),
        Case(model(frozen_bn_net), loader(8, 4, shuffle=False), label="mixed_modes"),
        Case(model(dropout_net, train=True), loader(13, 5, shuffle=False), label="dropout", hidden=True),
    ], aspects=BASIC + ("caller", "device_mix"), devices=("cpu", "meta", "cuda"),
        probes=(GRAPH_DURING_EVALUATION, GRAD_MODE)),
    Function("train_on_device", [
        Case(model(linear, device=CPU), loader(12, 4), 0.5, 1, DEVICE),   # three equal batches
        Case(model(mlp, device=CPU), loader(10, 4), 0.3, 2, DEVICE, label="short_last_batch"),
        Case(tracked(stale_grads(module(linear, device=CPU))), loader(6, 3), 0.5, 1, DEVICE, label="stale_grads"),
        Case(model(dropout_net, device=CPU, train=False), loader(11, 4), 0.3, 2, DEVICE, label="came_in_eval_mode"),
        Case(model(mlp, device=CPU), loader(7, 3), 0.2, 1, DEVICE, calls=2),
        Case(tracked(frozen(module(mlp, device=CPU), "0")), loader(8, 4), 0.3, 2, DEVICE, label="frozen_layer"),
        Case(model(mlp, device=CPU), loader(12, 5), 0.4, 2, DEVICE, hidden=True),
    ], aspects=BASIC + ("caller", "procedure", "device_mix"), devices=("cpu", "cuda"), rtol=1e-5, atol=1e-6,
        timeout=20, probes=(GRAPHS_KEPT,)),
    Function("move_training", [
        Case(trained(linear, Adam, lr=0.05), its_optimizer(), DEVICE, torch.float64),
        Case(trained(mlp, SGD, lr=0.1, momentum=0.9), its_optimizer(), DEVICE, torch.float64),
        Case(trained(bn_mlp, Adam, lr=0.05), its_optimizer(), DEVICE, torch.float64),
        Case(trained(mlp, Adam, lr=0.02), its_optimizer(), DEVICE, torch.float32),
        Case(trained(bn_mlp, SGD, lr=0.1, momentum=0.5), its_optimizer(), DEVICE, torch.float64, hidden=True),
    ], aspects=BASIC + ("caller",), devices=("cpu", "cuda"), rtol=1e-5, atol=1e-6, timeout=20,
        probes=(Probe("optimizer_holds_model", optimizer_holds_model), Probe("optimizer_state", optimizer_state),
                Probe("training_goes_on", training_goes_on))),
    Function("confusion_matrix", [
        Case(model(linear), loader(10, 4, shuffle=False), CLASSES),
        Case(model(mlp, train=True), loader(9, 3, shuffle=False), CLASSES),
        Case(model(linear), loader(8, 3, shuffle=False), CLASSES + 2, label="absent_class"),
        Case(model(dropout_net, train=True), loader(11, 4, shuffle=False), CLASSES, label="dropout"),
        Case(model(frozen_bn_net), loader(9, 4, shuffle=False), CLASSES, label="mixed_modes"),
        Case(model(mlp), loader(12, 5, shuffle=False), CLASSES + 1, label="absent_class", hidden=True),
    ], aspects=BASIC + ("caller", "device_mix"), devices=("cpu", "cuda"),
        probes=(GRAPH_DURING_EVALUATION, GRAD_MODE)),
])
