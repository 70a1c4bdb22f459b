"""Checks for k18_grad_accumulation: which cases, on which devices, and which aspects matter.

The training functions are judged by what they leave behind: the `inputs` aspect describes
the model's parameters after the call, compared with the reference run on an identical
fresh copy of the same seeded model.

accumulated_step is also judged by the length of its step along the mean micro-batch gradient
(probes `summed_micro_batches` and `step_size`), so that a missing `/ n` is named as such. The
parameters each model was built with are remembered here, in this module, not on the model the
function receives.

The training functions allow 20 s: the first use of torch.optim in a process imports
torch._dynamo (about 1.5 s here, several seconds on a slow machine), which would otherwise
eat most of the default per-function time.
"""

import copy
import weakref

import torch
import torch.nn.functional as F
from torch import nn

from kata_harness.spec import Case, Function, Kata, Probe, custom, module, randn, transposed


def linear():
    return nn.Linear(3, 2)


def mlp():
    return nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1))


def batches(count, rows, d_in, d_out):
    """``count`` fresh (x, y) batches of ``rows`` rows each."""
    return [(randn(rows, d_in), randn(rows, d_out)) for _ in range(count)]


def with_stale_grads(factory):
    """The same seeded model as ``module(factory)``, with garbage already stored in every ``.grad``."""
    fresh = module(factory)

    def build(gen, device):
        model = fresh.build(gen, device)
        for p in model.parameters():
            p.grad = (torch.randn(p.shape, generator=gen) * 10).to(device)
        return model
    return custom(build)


_START = weakref.WeakKeyDictionary()   # model -> copies of its parameters as built


def remembered(recipe):
    """``recipe``, with each model's parameters as built remembered in ``_START``."""
    def build(gen, device):
        model = recipe.build(gen, device)
        _START[model] = [p.detach().clone() for p in model.parameters()]
        return model
    return custom(build)


def _step_ratio(call) -> float:
    """How far the parameters moved along the mean micro-batch gradient (taken at the start),
    in units of lr times that gradient: 1.0 is exactly one SGD step on the mean gradient."""
    model, micro_batches, lr = call.args
    twin = copy.deepcopy(model)
    with torch.no_grad():
        for p, start in zip(twin.parameters(), _START[model]):
            p.copy_(start)
            p.grad = None
    for x, y in micro_batches:
        (F.mse_loss(twin(x), y) / len(micro_batches)).backward()
    grads = [p.grad for p in twin.parameters()]
    moved = [start - p.detach() for p, start in zip(model.parameters(), _START[model])]
    along = sum(float((m * g).sum()) for m, g in zip(moved, grads)) / lr
    return along / sum(float((g * g).sum()) for g in grads)


def summed_micro_batches(call):
    """The step's length in mean-gradient steps where it is exactly n of them (n > 1 micro-batches,
    each loss left undivided: a missing / n); 1.0, the contract's length, in every other case, so
    that only that mistake differs here (``step_size`` measures the others)."""
    n = len(call.args[1])
    return float(n) if n > 1 and abs(_step_ratio(call) - n) < 1e-3 else 1.0


def step_size(call):
    """The step's length in mean-gradient steps, to two decimals (1.0 for the contract's step)."""
    return round(_step_ratio(call), 2)


# Functions for grad_at, named so that the "Called ..." line reads well.
def square(t):
    return t ** 2


def sine(t):
    return torch.sin(t)


def row_norms(t):
    return (t * t).sum(dim=-1).sqrt()


def cube_sum(t):
    return (t ** 3).sum()


def exp_times(t):
    return torch.exp(t) * t


def second_call(call):
    """Call the function again with the same f and x: the answer must not change."""
    return call.fn(*call.args, **call.kwargs)


KATA = Kata("k18_grad_accumulation", [
    Function("train", [
        Case(module(linear), batches(3, 4, 3, 2), 0.1),
        Case(module(mlp), batches(4, 5, 3, 1), 0.05),
        Case(module(linear), batches(2, 6, 3, 2), 0.5),
        Case(module(mlp), batches(1, 3, 3, 1), 0.1),
        Case(module(linear), [], 0.1),
    ], rtol=1e-5, atol=1e-6, timeout=20),
    Function("accumulated_step", [
        Case(remembered(module(linear)), batches(2, 4, 3, 2), 0.1),
        Case(remembered(module(mlp)), batches(3, 2, 3, 1), 0.2),
        Case(remembered(module(linear)), batches(1, 5, 3, 2), 0.1),
        Case(remembered(module(mlp)), [(randn(2, 3), randn(2, 1)), (randn(5, 3), randn(5, 1))], 0.2,
             label="unequal_sizes"),
        Case(remembered(with_stale_grads(linear)), batches(2, 3, 3, 2), 0.1, label="stale_grads"),
        Case(remembered(with_stale_grads(mlp)), batches(3, 2, 3, 1), 0.1, label="stale_grads"),
    ], rtol=1e-5, atol=1e-6, timeout=20,
        probes=(Probe("summed_micro_batches", summed_micro_batches), Probe("step_size", step_size))),
    Function("grad_at", [
        Case(square, randn(5)),
        Case(sine, randn(2, 3)),
        Case(row_norms, randn(3, 4)),
        Case(cube_sum, randn(4, dtype=torch.float64)),
        Case(exp_times, randn()),
        Case(square, transposed(randn(3, 2))),
    ], probes=(Probe("second_call", second_call),)),
])
