"""Checks for k40_checkpoints: which cases, on which devices, and which aspects matter.

Everything stays in memory: a checkpoint is an io.BytesIO (a subclass with a short repr, so that
the "Called ..." line reads well). The checkpoints handed in are written by this module from a
model of the same architecture, trained a few steps with its optimizer (SGD with momentum, Adam),
so that the optimizer has state to lose. `checkpoint(..., on_gpu=True)` writes one whose tensors
are tagged as saved on cuda:7 (a serialization tag registered only while it writes): torch.load
without map_location then fails on a machine without that GPU, as a real GPU checkpoint does.

save_checkpoint is judged by what its buffer holds, loaded as a careful caller loads it
(weights_only=True, map_location="cpu"): probe `weights_only` whether it loads at all (a pickled
module does not), probe `checkpoint` the model's tensors and the optimizer's state and learning
rate in it. load_for_inference is judged by the model it returns: its weights, their device and
its mode; one checkpoint comes from a model wrapped in nn.DataParallel (label `wrapped_model`),
where load_state_dict(..., strict=False) loads nothing and says so only in what it returns, and one
from a model with a child named `gate_module` (label `module_inside_a_name`), whose keys hold
"module." in the middle: only a prefix is DataParallel's. save_checkpoint's caller keeps its
parameters' .grad (`caller_grads`), and a model with batch norm has buffers to save.
resume_training is judged as a procedure (aspect `procedure`) against the reference's own run,
which equals the uninterrupted one; a model with batch norm also comes in in evaluation mode
(label `came_in_eval_mode`: its losses differ, and aspect `caller` sees the mode).
"""

import io

import torch
import torch.nn.functional as F
from torch import nn
from torch.serialization import _package_registry, register_package

from kata_harness.spec import BASIC, DEVICE, SGD, Adam, Case, Function, Kata, Probe, custom, module, randn


class Buffer(io.BytesIO):
    def __repr__(self):
        return f"io.BytesIO(<{len(self.getvalue())} bytes>)"


def linear():
    return nn.Linear(3, 1)


def mlp():
    return nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))


def bn_mlp():
    # No bias before the batch norm, which takes the mean out: that bias's gradient would be zero but
    # for rounding, and Adam's first steps move a parameter by about lr whatever its gradient's size,
    # so its value after training would follow the CPU's rounding (another kernel family, another value).
    return nn.Sequential(nn.Linear(3, 4, bias=False), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))


class GatedNet(nn.Module):
    """A child whose name ends in "module": its keys hold "module." in the middle, not as a prefix."""

    def __init__(self):
        super().__init__()
        self.gate_module = nn.Linear(3, 4)
        self.out = nn.Linear(4, 1)

    def forward(self, x):
        return self.out(torch.sigmoid(self.gate_module(x)))


def gated():
    return GatedNet()


def _train(model, optimizer, gen, steps=2):
    x = torch.randn(6, 3, generator=gen).to(next(model.parameters()).device)
    y = torch.randn(6, 1, generator=gen).to(x.device)
    for _ in range(steps):
        optimizer.zero_grad()
        F.mse_loss(model(x), y).backward()
        optimizer.step()


_BUILT = [None]   # (model, optimizer) the case built last, for the optimizer recipe after it


def trained(factory, kind, **options):
    """A model of ``factory`` trained two steps by an optimizer ``kind`` (handed in by `its_optimizer`)."""
    source = module(factory, train=True)

    def build(gen, device):
        model = source.build(gen, device)
        optimizer = kind(model.parameters(), **options)
        _train(model, optimizer, gen)
        _BUILT[0] = (model, optimizer)
        return model
    return custom(build)


def fresh(factory, train=True, device=None):
    """A caller's freshly built model, remembered for `its_optimizer`."""
    source = module(factory, train=train, device=device)

    def build(gen, test_device):
        model = source.build(gen, test_device)
        _BUILT[0] = (model, None)
        return model
    return custom(build)


def its_optimizer(kind=None, **options):
    """The optimizer of the model built just before: its trained one, or a new ``kind`` over it."""
    def build(gen, device):
        model, optimizer = _BUILT[0]
        return optimizer if kind is None else kind(model.parameters(), **options)
    return custom(build)


def _gpu_tag(storage):
    # The eighth GPU: absent on a machine without GPUs and on one with a single GPU alike, so that a
    # load without map_location fails on the learner's machine as it does on the grader's.
    return "cuda:7" if storage.device.type == "cpu" else None


def checkpoint(factory, kind, on_gpu=False, wrapped=False, **options):
    """A Buffer holding save_checkpoint's dict for a trained ``factory`` model and its optimizer
    (``wrapped``: saved from the model inside nn.DataParallel, every key prefixed "module.")."""
    source = module(factory, device="cpu", train=True)

    def build(gen, device):
        model = source.build(gen, device)
        optimizer = kind(model.parameters(), **options)
        _train(model, optimizer, gen)
        state = model.state_dict()
        if wrapped:
            state = {"module." + key: value for key, value in state.items()}
        buffer = Buffer()
        if on_gpu:
            register_package(1, _gpu_tag, lambda obj, location: None)
            entry = next(e for e in _package_registry if e[1] is _gpu_tag)
            try:
                torch.save({"model": state, "optimizer": optimizer.state_dict()}, buffer)
            finally:
                _package_registry.remove(entry)
        else:
            torch.save({"model": state, "optimizer": optimizer.state_dict()}, buffer)
        buffer.seek(0)
        return buffer
    return custom(build)


def _loaded(call):
    return torch.load(io.BytesIO(call.args[2].getvalue()), map_location="cpu", weights_only=True)


def loads_with_weights_only(call) -> bool:
    try:
        _loaded(call)
    except Exception:
        return False
    return True


def saved_contents(call):
    """The model's tensors and the optimizer's per-parameter state and learning rate, as saved."""
    saved = _loaded(call)
    optimizer = saved["optimizer"]
    state = {index: {name: value for name, value in sorted(entry.items()) if name != "step"}
             for index, entry in sorted(optimizer["state"].items())}
    return {"model": dict(saved["model"]), "optimizer_state": state, "lr": optimizer["param_groups"][0]["lr"]}


WEIGHTS_ONLY = Probe("weights_only", loads_with_weights_only)
CHECKPOINT = Probe("checkpoint", saved_contents)

KATA = Kata("k40_checkpoints", [
    Function("save_checkpoint", [
        Case(trained(linear, SGD, lr=0.1, momentum=0.9), its_optimizer(), custom(lambda gen, device: Buffer())),
        Case(trained(mlp, Adam, lr=0.05), its_optimizer(), custom(lambda gen, device: Buffer())),
        Case(trained(bn_mlp, Adam, lr=0.05), its_optimizer(), custom(lambda gen, device: Buffer())),
        Case(trained(bn_mlp, SGD, lr=0.1, momentum=0.5), its_optimizer(), custom(lambda gen, device: Buffer()),
             hidden=True),
    ], aspects=BASIC + ("caller", "caller_grads"), devices=("cpu", "cuda"), probes=(WEIGHTS_ONLY, CHECKPOINT),
        rtol=1e-5, atol=1e-6, timeout=20),
    Function("load_for_inference", [
        Case(checkpoint(mlp, SGD, lr=0.1, momentum=0.9), module(mlp, device="cpu", train=True), DEVICE),
        Case(checkpoint(bn_mlp, Adam, on_gpu=True, lr=0.05), module(bn_mlp, device="cpu", train=True), DEVICE),
        Case(checkpoint(linear, SGD, on_gpu=True, lr=0.1), module(linear, device="cpu", train=True), DEVICE),
        Case(checkpoint(mlp, SGD, wrapped=True, lr=0.1), module(mlp, device="cpu", train=True), DEVICE,
             label="wrapped_model"),
        Case(checkpoint(gated, SGD, lr=0.1), module(gated, device="cpu", train=True), DEVICE,
             label="module_inside_a_name"),
        Case(checkpoint(gated, SGD, wrapped=True, lr=0.1), module(gated, device="cpu", train=True), DEVICE,
             label="module_inside_a_name"),
        Case(checkpoint(bn_mlp, SGD, on_gpu=True, lr=0.1, momentum=0.9), module(bn_mlp, device="cpu"), DEVICE,
             hidden=True),
    ], aspects=BASIC, devices=("cpu", "cuda"), rtol=1e-5, atol=1e-6, timeout=20),
    Function("resume_training", [
        Case(checkpoint(linear, SGD, lr=0.1, momentum=0.9), fresh(linear), its_optimizer(SGD, lr=0.1, momentum=0.9),
             randn(6, 3), randn(6, 1), 3),
        Case(checkpoint(mlp, Adam, lr=0.05), fresh(mlp), its_optimizer(Adam, lr=0.05), randn(6, 3), randn(6, 1), 4),
        # A model the caller built and put in evaluation mode: training resumes in training mode.
        Case(checkpoint(bn_mlp, SGD, lr=0.1, momentum=0.9), fresh(bn_mlp, train=False),
             its_optimizer(SGD, lr=0.1, momentum=0.9), randn(6, 3), randn(6, 1), 2, label="came_in_eval_mode"),
        Case(checkpoint(mlp, SGD, lr=0.05, momentum=0.8), fresh(mlp), its_optimizer(SGD, lr=0.05, momentum=0.8),
             randn(5, 3), randn(5, 1), 3, hidden=True),
    ], aspects=BASIC + ("caller", "procedure"), devices=("cpu", "cuda"), rtol=1e-5, atol=1e-6, timeout=20),
])
