"""The declarative vocabulary of kata tests: cases, input recipes, aspects and probes.

A kata test module builds one ``Kata`` listing a ``Function`` per kata function: its seeded
cases, the devices it is checked on, and the aspects of behaviour its contract cares about.
Everything else (running learner and reference on identical fresh inputs, observing,
comparing and explaining) is the harness's job.
"""

from __future__ import annotations

import copy
import weakref
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from ..aspects import BASIC, NAMES
from . import containers, seeding

# What ``kata_harness.spec``, the vocabulary's public name, offers.
__all__ = ["ALL_ASPECTS", "Adam", "BASIC", "Call", "Case", "DEVICE", "DEVICES", "Dropout", "DropoutNet", "Function", "GRAD_MODE",
           "GRAPH_DURING_EVALUATION", "GRAPHS_KEPT", "GraphRecord", "Kata", "Probe", "Recipe", "SGD", "array", "build_value", "custom",
           "draws_randomly", "frozen", "graph_record", "input_key", "module", "rand", "randint", "randn", "short_batches",
           "stale_grads", "tensor", "tracked", "transposed"]

# Aspects a Function may check: the table is ``aspects.ASPECTS`` (and the facts of a tensor,
# ``records.TENSOR_FACTS``); "container" also requires the same sequence type as the reference's
# (a tuple where a list is expected fails). Structure (a tensor, a list of 3, ...) is always checked.
ALL_ASPECTS = NAMES

DEVICES = ("cpu", "meta", "cuda")


class Recipe:
    """A lazily built input: a fresh object for every call, from the case's seeded generator.

    ``random``: whether it draws from the generator, so that another seed gives another input
    (official grading draws such cases again from the instructor's secret)."""

    def __init__(self, build: Callable[[torch.Generator, torch.device], Any], random: bool = False):
        self._build = build
        self.random = random

    def build(self, generator: torch.Generator, device: torch.device):
        return self._build(generator, device)


def _placed(tensor: torch.Tensor, device, test_device) -> torch.Tensor:
    return tensor.to(test_device if device is None else torch.device(device))


def randn(*shape, dtype=torch.float32, device=None, scale: float = 1.0, requires_grad=False) -> Recipe:
    """Standard normal values (times ``scale``); on the test device unless ``device`` is given."""
    def build(gen, test_device):
        t = _placed(torch.randn(shape, generator=gen, dtype=torch.float64) * scale, device, test_device)
        return t.to(dtype).requires_grad_(requires_grad)
    return Recipe(build, random=True)


def rand(*shape, low: float = 0.0, high: float = 1.0, dtype=torch.float32, device=None) -> Recipe:
    """Uniform values in [low, high)."""
    def build(gen, test_device):
        t = torch.rand(shape, generator=gen, dtype=torch.float64) * (high - low) + low
        return _placed(t, device, test_device).to(dtype)
    return Recipe(build, random=True)


def randint(low: int, high: int, *shape, dtype=torch.int64, device=None) -> Recipe:
    """Whole numbers in [low, high), stored as ``dtype`` (which may be a float dtype)."""
    def build(gen, test_device):
        t = torch.randint(low, high, shape, generator=gen, dtype=torch.int64)
        return _placed(t, device, test_device).to(dtype)
    return Recipe(build, random=True)


def tensor(data, dtype=None, device=None, requires_grad=False) -> Recipe:
    """A tensor with the given values (a fresh copy each call)."""
    def build(gen, test_device):
        t = _placed(torch.tensor(data, dtype=dtype), device, test_device)
        return t.requires_grad_(requires_grad)
    return Recipe(build)


def array(source, dtype=None) -> Recipe:
    """A NumPy array built from plain data or from a tensor recipe (always on the CPU)."""
    def build(gen, test_device):
        data = source.build(gen, torch.device("cpu")) if isinstance(source, Recipe) else source
        if isinstance(data, torch.Tensor):
            data = data.numpy()
        return np.array(data, dtype=dtype)
    return Recipe(build, random=isinstance(source, Recipe) and source.random)


def transposed(source: Recipe) -> Recipe:
    """The transpose of a 2-D recipe: a non-contiguous view, as real code often passes."""
    return Recipe(lambda gen, device: source.build(gen, device).t(), random=source.random)


def module(factory: Callable[[], torch.nn.Module], device=None, dtype=None, train: bool | None = None) -> Recipe:
    """A freshly initialised module: same seed, same weights, for learner and reference alike."""
    def build(gen, test_device):
        # One raw 64-bit draw, reduced here: torch.randint(0, 2**31 - 1) draws 32 bits in older
        # torch and 64 in newer (the same seed as this one), so every version builds the same model.
        seed = int(torch.empty((), dtype=torch.int64).random_(-2**63, None, generator=gen)) % 2**64 % (2**31 - 1)
        with torch.random.fork_rng(devices=[]):
            seeding.manual_seed(seed)
            model = factory()
        model = model.to(test_device if device is None else torch.device(device))
        if dtype is not None:
            model = model.to(dtype)
        if train is not None:
            model.train(train)
        return model
    return Recipe(build, random=True)


def custom(build: Callable[[torch.Generator, torch.device], Any]) -> Recipe:
    """Any other input: ``build(generator, device)`` returns a fresh object (taken to draw from
    the generator)."""
    return Recipe(build, random=True)


def stale_grads(source: Recipe, scale: float = 1.0) -> Recipe:
    """A module (or tensor) recipe whose parameters that require grad already hold a ``.grad`` from
    an earlier backward: seeded values, times ``scale``. A function that must start from clean
    gradients and does not zero them adds to these."""
    def build(gen, device):
        value = source.build(gen, device)
        params = list(value.parameters()) if isinstance(value, torch.nn.Module) else [value]
        for p in params:
            if p.requires_grad:
                grad = torch.randn(p.shape, generator=gen, dtype=torch.float64) * scale
                p.grad = grad.to(device=p.device, dtype=p.dtype)
        return value
    return Recipe(build, random=True)


def frozen(source: Recipe, *names: str) -> Recipe:
    """A module recipe with the named parameters (``"0.weight"``; a prefix such as ``"0"`` freezes
    a whole submodule) set to ``requires_grad=False``, as a caller freezes part of a model."""
    def build(gen, device):
        model = source.build(gen, device)
        for name, p in model.named_parameters():
            if any(name == n or name.startswith(n + ".") for n in names):
                p.requires_grad_(False)
        return model
    return Recipe(build, random=source.random)


def short_batches(*sizes: int, features: int = 3, targets: int = 1) -> list:
    """(x, y) batch recipes of the given sizes (e.g. ``4, 4, 1``: a short last batch, as a
    DataLoader without drop_last gives), so that the mean of the batches' losses differs from the
    mean over samples."""
    return [(randn(n, features), randn(n, targets)) for n in sizes]


DEVICE = Recipe(lambda gen, device: device)
"""Stands for the test device itself (a ``torch.device``)."""


def build_value(value, generator, device):
    """Build a case argument: recipes are built, containers rebuilt, anything else deep-copied."""
    return containers.rebuild(value, lambda leaf: leaf.build(generator, device) if isinstance(leaf, Recipe)
                              else copy.deepcopy(leaf))


def draws_randomly(value) -> bool:
    """Whether building ``value`` draws from the generator (a random recipe, also inside a container)."""
    return any(isinstance(leaf, Recipe) and leaf.random for _, leaf in containers.leaves(value))


class Case:
    """One call: positional and keyword arguments, possibly holding recipes.

    ``label`` names the situation the case creates (e.g. ``"stale_grads"``); the curriculum
    may give that label its own pitfall text. ``hidden=True``: the case runs only in official
    grading (its expected result is in no file a student has). ``calls=2``: the function is called
    that many times in a row on the same arguments (the same model, the same optimizer), and the
    last call is the one observed: state a first call leaves behind (a gradient not zeroed, a
    changed mode) shows in the second.
    """

    def __init__(self, *args, label: str | None = None, hidden: bool = False, calls: int = 1, **kwargs):
        if calls < 1:
            raise ValueError("a case makes at least one call")
        self.args = args
        self.kwargs = kwargs
        self.label = label
        self.hidden = hidden
        self.calls = calls

    @property
    def randomised(self) -> bool:
        """Whether another seed gives other inputs (official grading then draws it again)."""
        return draws_randomly(self.args) or draws_randomly(self.kwargs)

    def build(self, seed: int, device: torch.device):
        """Fresh arguments for one call, identical for every call with the same seed and device."""
        generator = torch.Generator().manual_seed(seed)
        args = [build_value(a, generator, device) for a in self.args]
        kwargs = {k: build_value(v, generator, device) for k, v in self.kwargs.items()}
        return args, kwargs


@dataclass
class Call:
    """What a probe sees: the function that was called, its arguments (after the call) and result."""

    fn: Callable
    args: list
    kwargs: dict
    result: Any


@dataclass
class Probe:
    """An extra observation after the call: ``observe(call)`` returns what to compare between
    learner and reference (tensors, arrays, numbers, containers). ``name`` is also the key of
    the pitfall text in the curriculum for a difference it finds."""

    name: str
    observe: Callable[[Call], Any]



# --- Graphs a module's forward passes build: how many stay alive, and how often it ran ---------------
# A model built by ``tracked(...)`` is recorded here, keyed by the model (never on it, where the code
# under test could reset it). One process-wide forward hook counts its forward passes and, where
# autograd records, passes the output through an identity whose autograd node holds a token: the
# token lives exactly as long as that forward pass's graph, so counting the tokens alive counts the
# graphs that something (a running total of losses, a list of them) still holds.


class _Token:
    """Lives as long as the graph of one forward pass."""


class GraphRecord:
    """What a tracked model did since its case was built."""

    def __init__(self):
        self.alive: weakref.WeakSet = weakref.WeakSet()   # a token per graph still held
        self.most_alive = 0      # the most earlier graphs alive at the start of a forward pass
        self.passes: list = []   # (training mode, autograd recording) of each forward pass

    @property
    def forwards(self) -> int:
        """How many forward passes the model made, recording or not."""
        return len(self.passes)

    def __deepcopy__(self, memo):
        # A deep copy of the tracked model (an evaluation on a copy) reports to the same record.
        return self

    def __reduce__(self):
        # A model saved whole (torch.save) loads with a record of its own, which nothing reads.
        return (GraphRecord, ())

    def mark(self, ctx) -> None:
        self.most_alive = max(self.most_alive, len(self.alive))
        ctx.token = _Token()
        self.alive.add(ctx.token)


class _GraphMark(torch.autograd.Function):
    """The identity, whose autograd node keeps a token of the record it is given."""

    @staticmethod
    def forward(ctx, output, record):
        record.mark(ctx)
        return output.view_as(output)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


_RECORDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # tracked model -> its GraphRecord
_HOOKED: list = []


_RECORD_ATTRIBUTE = "_kata_graph_record"   # the record, on the model itself: deep copies keep it


def _after_forward(module, _args, output):
    record = module.__dict__.get(_RECORD_ATTRIBUTE)
    if record is None:
        return None
    record.passes.append((module.training, torch.is_grad_enabled()))
    if isinstance(output, torch.Tensor) and torch.is_grad_enabled() and output.requires_grad:
        return _GraphMark.apply(output, record)
    return None


def tracked(source: Recipe) -> Recipe:
    """A module recipe whose model counts its forward passes and the graphs they leave alive
    (``graph_record``, the probe ``GRAPHS_KEPT``)."""
    def build(gen, device):
        model = source.build(gen, device)
        if not _HOOKED:
            _HOOKED.append(torch.nn.modules.module.register_module_forward_hook(_after_forward))
        _RECORDS[model] = model.__dict__[_RECORD_ATTRIBUTE] = GraphRecord()
        return model
    return Recipe(build, random=source.random)


def graph_record(model) -> GraphRecord | None:
    """The record of a model built by ``tracked`` (None for any other object)."""
    try:
        return _RECORDS.get(model)
    except TypeError:   # not weakly referenceable: not a model
        return None


def graphs_kept(call: Call) -> str:
    """The most forward passes' graphs of the tracked models among the arguments held at once by the
    code under test: at the start of each forward pass (the earlier ones still alive) and after the
    call (a result that holds a graph). A loop that keeps only its current step's loss holds at most
    the previous step's graph when the next forward pass starts, and none afterwards: "<= 1"."""
    records = [r for r in (graph_record(a) for a in list(call.args) + list(call.kwargs.values())) if r is not None]
    if not records or not any(r.forwards for r in records):
        return "no forward pass seen"
    most = max(max(r.most_alive for r in records), sum(len(r.alive) for r in records))
    return "<= 1" if most <= 1 else str(most)


GRAPHS_KEPT = Probe("graphs_kept", graphs_kept)
"""The graphs a training loop keeps alive: one at a time (the step being taken) is the contract; a
running total of loss tensors (``total += loss``) or a list of them keeps every step's graph, and
the memory it holds, until the loop ends."""

def graph_during_evaluation(call: Call) -> bool | str:
    """Whether autograd recorded during any forward pass of the tracked model, the call's first argument."""
    record = graph_record(call.args[0])
    if record is None or not record.forwards:
        return "no forward pass seen"
    return any(grad for _, grad in record.passes)


GRAPH_DURING_EVALUATION = Probe("graph_during_evaluation", graph_during_evaluation)
"""Whether an evaluation built a graph: measuring a model outside ``no_grad`` records every forward
pass, and holds its activations, for a backward that never comes."""

GRAD_MODE = Probe("grad_mode", lambda call: torch.is_grad_enabled())
"""Whether autograd records after the call, as it did before it: a function that switches it off
globally (``torch.set_grad_enabled(False)``) and never back leaves every later computation of the
caller without gradients."""


@dataclass
class Function:
    """How one kata function is checked."""

    name: str
    cases: list
    aspects: tuple = BASIC   # what matters about the result (see ALL_ASPECTS)
    devices: tuple = ("cpu",)
    rtol: float | None = None
    atol: float | None = None
    probes: tuple = ()
    timeout: float | None = None   # seconds for all of its cases, when the default is too tight
    losses: int | None = None      # aspect "procedure": the losses are the result's item at this index

    def __post_init__(self):
        unknown = set(self.aspects) - ALL_ASPECTS
        if unknown:
            raise ValueError(f"{self.name}: unknown aspects {sorted(unknown)}")
        if not set(self.devices) <= set(DEVICES):
            raise ValueError(f"{self.name}: devices must be among {DEVICES}")
        public = [c for c in self.cases if not c.hidden]
        if not public:
            raise ValueError(f"{self.name}: needs at least one case that is not hidden")
        if len(self.cases) - len(public) > len(public):
            raise ValueError(f"{self.name}: at most as many hidden cases as public ones")

    def seed(self, kata: str, index: int) -> int:
        """A stable seed for case ``index`` (the same in every process and on every run)."""
        return zlib.crc32(f"{kata}.{self.name}.{index}".encode())

    def hidden_plan(self, kata: str) -> dict:
        """What official grading adds to the public cases: ``{"public": count, "hidden": [[index,
        seed], ...]}``. First the cases declared ``hidden=True`` (with their own seed), then every
        randomised public case again, its seed (None here) to come from the instructor's secret;
        at most as many as there are public cases, so that official grading costs at most twice."""
        public = [i for i, case in enumerate(self.cases) if not case.hidden]
        declared = [[i, self.seed(kata, i)] for i, case in enumerate(self.cases) if case.hidden]
        redrawn = [[i, None] for i in public if self.cases[i].randomised]
        return {"public": len(public), "hidden": (declared + redrawn)[:len(public)]}

    def runs(self, kata: str, extras=()) -> list:
        """(case, seed) for every call to observe: the public cases with their own seeds, then the
        ``extras`` official grading asked for ([case index, seed] pairs), in that order."""
        public = [(case, self.seed(kata, i)) for i, case in enumerate(self.cases) if not case.hidden]
        return public + [(self.cases[int(index)], int(seed)) for index, seed in extras]


@dataclass
class Kata:
    """All checked functions of one kata module (``name`` is the module name, e.g. k01_creation)."""

    name: str
    functions: list = field(default_factory=list)

    def function(self, name: str) -> Function | None:
        """The checks of the function called ``name``."""
        return next((f for f in self.functions if f.name == name), None)


def input_key(x: torch.Tensor) -> int:
    """A seed from the values of a model's input (the data, not a hidden activation that rounding in
    another correct update would change): the same batch gives the same dropout mask. Rounded first:
    data drawn from one seed on other CPU kernels may differ in the last bits, and the key must not."""
    rounded = torch.round(x.detach().cpu().double() * 1000).to(torch.int64)
    return zlib.crc32(rounded.contiguous().numpy().tobytes())


class Dropout(torch.nn.Module):
    """Dropout as nn.Dropout does it (in training mode each unit zeroed with probability p, the others
    scaled by 1 / (1 - p); in evaluation mode nothing), its mask drawn with torch.rand, whose numbers
    are the same in every PyTorch version (nn.Dropout's changed between 2.2 and 2.13). The mask comes
    from the global generator, or, once ``key`` is set (a model's forward sets it to ``input_key`` of
    its input), from a generator seeded with it, so that a correct answer that draws numbers of its
    own, or runs one forward more, still meets the same masks."""

    def __init__(self, p: float):
        super().__init__()
        self.p = p
        self.key: int | None = None

    def forward(self, x):
        if not self.training:
            return x
        if self.key is None:
            keep = torch.rand(x.shape, dtype=x.dtype, device=x.device) >= self.p
        else:
            seeded = torch.Generator().manual_seed(self.key)
            keep = (torch.rand(x.shape, generator=seeded, dtype=torch.float64) >= self.p).to(x.device)
        return x * keep / (1 - self.p)

    def extra_repr(self):
        return f"p={self.p}"


class DropoutNet(torch.nn.Module):
    """Linear, ReLU, ``Dropout(p)``, linear: a small model with dropout whose mask is keyed by the
    input batch (``input_key``), so that learner and reference meet the same masks on the same
    batches however many numbers either draws. The key is read only where the dropout draws a mask
    (in training mode): in evaluation mode the model also runs on meta, whose batches have no values
    to read."""

    def __init__(self, features: int, hidden: int, outputs: int, p: float = 0.5):
        super().__init__()
        self.hidden = torch.nn.Linear(features, hidden)
        self.dropout = Dropout(p)
        self.out = torch.nn.Linear(hidden, outputs)

    def forward(self, x):
        if self.dropout.training:
            self.dropout.key = input_key(x)
        return self.out(self.dropout(torch.relu(self.hidden(x))))


class SGD(torch.optim.SGD):
    """torch.optim.SGD, shown in a case's "Called ..." line as the caller wrote it (the optimizer's
    own repr lists every default of every group)."""

    def __repr__(self):
        group = self.param_groups[0]
        return f"SGD(model.parameters(), lr={group['lr']}, momentum={group['momentum']})"


class Adam(torch.optim.Adam):
    """torch.optim.Adam, shown in a case's "Called ..." line as the caller wrote it."""

    def __repr__(self):
        return f"Adam(model.parameters(), lr={self.param_groups[0]['lr']})"
