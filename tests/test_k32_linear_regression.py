"""Checks for k32_linear_regression: which cases, on which devices, and which aspects matter.

The data are a noisy straight line: x (N, D) drawn at random, y = x @ w_true + b_true + noise, the
targets y of shape (N,) (the features recipe keeps the x it built for the targets recipe after it).
least_squares gets features off centre (a fit without its column of ones then misses). The
training functions get features rescaled to mean 0 and uncorrelated columns of variance 1, so that
gradient descent with the cases' learning rates converges at the same pace on every draw (hidden
draws too): within their few steps it reaches the least-squares fit to far better than the 0.001
the probes ask for, in milliseconds.

least_squares is compared with the reference (values within a float32 solver's tolerance). All three
also choose `device_mix`: a tensor made on the default device (a column of ones, w and b without
device=) and combined with x fails on a GPU, and this aspect sees it on a CPU-only grader too (meta
cannot run lstsq).

The two training functions are judged as the procedure their contract describes (aspect
`procedure`): their losses and final parameters are compared, step by step, with the reference's
own run of the same gradient descent on the same case, so that a closed-form fit with invented
losses, a loss recorded after its step or a step too many fails, each named. Besides: their
results' shapes, dtypes and devices and that they hold no graph (no `requires_grad`, no history),
and the probes `least_squares_fit` (the largest distance of a parameter from the least-squares fit
of the case's data, computed here in float64: at most 0.001; a run of fewer than 10 steps, which
does not get there, is judged by its trajectory alone), `loss_falls` (whether the losses returned
fall at every step, as plain gradient descent with these learning rates does) and, by hand,
`first_loss` (whether the first loss is that of the start the contract gives, w = 0 and b = 0: the
mean of y ** 2). The probes name the classic wrong updates better than a step number does, so a
trajectory's difference gives way to theirs. fit_with_sgd's model is `tracked`, so that the graphs
its loop keeps alive are counted (`GRAPHS_KEPT`).

Both are also graded with the states a caller hands in: data that requires grad (what they return
must still hold no graph), and for fit_with_sgd a model holding an earlier backward's .grad and one whose
bias is frozen (the `caller` aspect checks the model's parameters and flags afterwards).

The training functions allow 20 s: the first use of torch.optim in a process imports
torch._dynamo (about 1.5 s here, several seconds on a slow machine).
"""

import torch
from torch import nn

from kata_harness.spec import BASIC, GRAPHS_KEPT, Case, Function, Kata, Probe, custom, frozen, module, stale_grads, tracked

_FEATURES = [None]   # the features the case built last, for the targets recipe after it
TOLERANCE = 1e-3
SHORT_RUN = 10   # fewer steps than this do not reach the fit: such a run is judged by its trajectory alone


def features(n, d, dtype=torch.float32, whitened=True, requires_grad=False):
    """x (n, d), remembered for the targets that follow: standard normal plus 1 (``whitened=False``),
    or rescaled to mean 0 and x.T @ x / n == I (the columns uncorrelated, of variance 1);
    ``requires_grad``: as data that comes out of an earlier computation a caller differentiates (not a
    leaf: a copy of one, recorded by autograd, so that backward() passes through it to the caller's
    leaf and whatever is computed from it carries a graph)."""
    def build(gen, device):
        x = torch.randn(n, d, generator=gen, dtype=torch.float64)
        x = (torch.linalg.qr(x - x.mean(dim=0)).Q * n ** 0.5).contiguous() if whitened else x + 1
        x = x.to(device, dtype)
        _FEATURES[0] = x.requires_grad_().clone() if requires_grad else x
        return _FEATURES[0]
    return custom(build)


def targets(noise=0.1):
    """y (n,) = x @ w_true + b_true + noise for the features built just before, w_true and b_true drawn."""
    def build(gen, device):
        x = _FEATURES[0].detach()
        w_true = torch.randn(x.shape[1], generator=gen, dtype=torch.float64) * 2
        b_true = torch.randn((), generator=gen, dtype=torch.float64)
        y = x.cpu().double() @ w_true + b_true + noise * torch.randn(x.shape[0], generator=gen, dtype=torch.float64)
        return y.to(device, x.dtype)
    return custom(build)


def _fit(x, y):
    """The least-squares (w, b) of the training cases' data, in float64 on the CPU. Their features are
    whitened (mean 0, x.T @ x / n == I), which makes the fit each column's mean product with y, and
    y's mean: true of these data only, not a way to fit others (selftests/test_lesson2_probes.py holds it to
    a solver's fit on every case)."""
    x, y = x.detach().cpu().double(), y.detach().cpu().double()
    return x.T @ y / x.shape[0], y.mean()


def _distance(w, b, x, y, steps) -> str:
    if steps < SHORT_RUN:
        return "a short run"
    best_w, best_b = _fit(x, y)
    w = torch.as_tensor(w).detach().cpu().double().reshape(-1)
    b = torch.as_tensor(b).detach().cpu().double().reshape(())
    if w.shape != best_w.shape:
        return f"w has shape {tuple(w.shape)}, the fit's has {tuple(best_w.shape)}"
    gap = max(float((w - best_w).abs().max()), float((b - best_b).abs()))
    if gap != gap:
        return "nan"
    return f"<= {TOLERANCE}" if gap <= TOLERANCE else f"{gap:.3g}"


def by_hand_fit(call):
    """How far the returned (w, b) are from the least-squares fit of the case's data."""
    w, b, _ = call.result
    return _distance(w, b, call.args[0], call.args[1], call.args[3])


def sgd_fit(call):
    """How far the trained model's weight and bias are from the least-squares fit of the case's data."""
    model, x, y = call.args[:3]
    return _distance(model.weight, model.bias, x, y, call.args[4])


def _falls(losses) -> bool:
    values = [float(v) for v in torch.as_tensor(losses).detach().cpu().reshape(-1)]
    finite = all(abs(v) < float("inf") for v in values)   # NaN fails this too
    steady = all(after <= before * (1 + 1e-6) + 1e-7 for before, after in zip(values, values[1:]))
    return finite and steady and len(values) > 1 and values[-1] < values[0]


def by_hand_falls(call):
    """Whether the returned losses fall at every step."""
    return _falls(call.result[2])


def sgd_falls(call):
    """Whether the returned losses fall at every step."""
    return _falls(call.result)


def first_loss(call):
    """The first loss, where it is the loss of the contract's start, w = 0 and b = 0 (the mean of y ** 2),
    written as that start's loss, so that learner and reference agree to the digit, and shown as a number
    either way."""
    losses, y = call.result[2], call.args[1]
    first = float(torch.as_tensor(losses).reshape(-1)[0])
    start = float((y.detach().cpu().double() ** 2).mean())
    return f"{start:.6g}" if abs(first - start) <= 1e-4 * (1 + start) else f"{first:.6g}"   # 6 digits: a miss never reads as the start


def linear(d):
    return lambda: nn.Linear(d, 1)


DEVICES = ("cpu", "cuda")
BEHAVIOUR = ("shape", "dtype", "device", "requires_grad", "history", "inputs", "container")

KATA = Kata("k32_linear_regression", [
    Function("least_squares", [
        Case(features(12, 2, whitened=False), targets()),
        Case(features(8, 1, whitened=False), targets(noise=0.5)),
        Case(features(20, 3, whitened=False), targets()),
        Case(features(10, 2, dtype=torch.float64, whitened=False), targets()),
    ], aspects=BASIC + ("device_mix",), devices=DEVICES, rtol=1e-4, atol=1e-4),
    Function("fit_by_hand", [
        Case(features(16, 2), targets(), 0.2, 25),
        Case(features(12, 1), targets(noise=0.3), 0.3, 15),
        Case(features(20, 3), targets(), 0.1, 50),
        Case(features(10, 2, dtype=torch.float64), targets(), 0.2, 25),
        # A short run, far from the fit: where its steps end is the reference run's point, not the fit.
        Case(features(16, 2), targets(), 0.05, 4),
        # Data that requires grad, as a caller's features out of an earlier computation: what the fit
        # returns must still hold no graph.
        Case(features(12, 2, requires_grad=True), targets(), 0.2, 25, label="data_requires_grad"),
    ], aspects=BEHAVIOUR + ("procedure", "device_mix"), losses=2, devices=DEVICES, timeout=20, rtol=1e-5, atol=1e-6,
        probes=(Probe("least_squares_fit", by_hand_fit), Probe("loss_falls", by_hand_falls),
                Probe("first_loss", first_loss))),
    Function("fit_with_sgd", [
        Case(tracked(module(linear(2))), features(16, 2), targets(), 0.2, 25),
        Case(tracked(module(linear(1))), features(12, 1), targets(noise=0.3), 0.3, 15),
        Case(tracked(module(linear(3))), features(20, 3), targets(), 0.1, 50),
        Case(tracked(module(linear(2))), features(16, 2), targets(), 0.05, 4),
        # The caller's states: a model holding an earlier backward's .grad; a frozen bias (a short run:
        # a frozen bias cannot reach the fit); data that requires grad.
        Case(tracked(stale_grads(module(linear(2)))), features(16, 2), targets(), 0.2, 25, label="stale_grads"),
        Case(tracked(frozen(module(linear(2)), "bias")), features(16, 2), targets(), 0.1, 4, label="frozen"),
        Case(tracked(module(linear(1))), features(12, 1, requires_grad=True), targets(), 0.3, 15,
             label="data_requires_grad"),
    ], aspects=BEHAVIOUR + ("caller", "procedure", "device_mix"), devices=DEVICES, timeout=20, rtol=1e-5, atol=1e-6,
        probes=(Probe("least_squares_fit", sgd_fit), Probe("loss_falls", sgd_falls), GRAPHS_KEPT)),
])
