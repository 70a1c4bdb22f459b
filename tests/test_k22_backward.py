"""Checks for k22_backward: which cases, on which devices, and which aspects matter.

Both functions are judged by the gradient they return, compared with the reference's on fresh
seeded inputs: `.mean()` instead of a gradient of ones divides every value by the number of
elements, and ignoring `upstream` gives the gradient of a plain sum. The functions handed in
are named, so that the "Called ..." line reads well; backprop_upstream's include functions that
are not elementwise (a running sum, a product with a fixed matrix, a softmax), whose output may
have another shape than the input.

Each is also handed the x a real caller may hold: one that already requires grad and holds a
`.grad` from an earlier backward (label `x_requires_grad`). The result must not change, and the
caller's x must come back as it was, flag and `.grad` included (the `inputs` aspect): a copy made
with clone() alone stays in x's graph, so backward() runs on into x. The result is plain values
(`requires_grad`): it holds no graph of its own.
"""

import torch

from kata_harness.spec import BASIC, Case, Function, Kata, custom, randn, stale_grads


def sine(t):
    return torch.sin(t)


def square(t):
    return t ** 2


def tanh(t):
    return torch.tanh(t)


def exp_times(t):
    return torch.exp(t) * t


def running_sum(t):
    return torch.cumsum(t, dim=-1)


def times_matrix(t):
    """``t @ M`` for a fixed (3, 2) matrix M: the output has another shape than the input."""
    matrix = torch.tensor([[1.0, -2.0], [0.5, 3.0], [-1.0, 0.25]], dtype=t.dtype, device=t.device)
    return t @ matrix


def softmax(t):
    return torch.softmax(t, dim=-1)


def upstream_for(fn, *shape):
    """Seeded values shaped like ``fn``'s output on an input of ``shape``: the dL/dy handed in."""
    def build(gen, device):
        out_shape = fn(torch.zeros(shape)).shape
        return torch.randn(out_shape, generator=gen, dtype=torch.float64).to(torch.float32).to(device)
    return custom(build)


KATA = Kata("k22_backward", [
    Function("derivative", [
        Case(sine, randn(5)),
        Case(square, randn(2, 3)),
        Case(tanh, randn(4, scale=2.0)),
        Case(exp_times, randn(3, dtype=torch.float64)),
        Case(square, randn()),
        Case(sine, stale_grads(randn(5, requires_grad=True)), label="x_requires_grad"),
        Case(exp_times, stale_grads(randn(2, 3, dtype=torch.float64, requires_grad=True)), label="x_requires_grad"),
    ], aspects=BASIC + ("requires_grad",)),
    Function("backprop_upstream", [
        Case(running_sum, randn(4), upstream_for(running_sum, 4)),
        Case(times_matrix, randn(4, 3), upstream_for(times_matrix, 4, 3)),
        Case(softmax, randn(2, 3), upstream_for(softmax, 2, 3)),
        Case(square, randn(5), upstream_for(square, 5)),
        Case(times_matrix, stale_grads(randn(4, 3, requires_grad=True)), upstream_for(times_matrix, 4, 3),
             label="x_requires_grad"),
    ], aspects=BASIC + ("requires_grad",)),
])
