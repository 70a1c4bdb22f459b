"""Checks for k01_creation: which cases, on which devices, and which aspects matter."""

import torch

from kata_harness.spec import Case, Function, Kata, Probe, randint, randn, tensor


def _one_element_written(call):
    """The result after its first element alone was set to -1. A tensor with memory of its own
    changes in that one place; a broadcast view (``expand``: every position reads one number,
    stride 0) changes everywhere."""
    result = call.result
    if result.numel():
        result[(0,) * result.dim()] = -1.0
    return result

KATA = Kata("k01_creation", [
    Function("arange_inclusive", [
        Case(0, 5), Case(1, 10, 3), Case(0, 10, 3, label="end_not_reached"), Case(-3, 3),
        Case(2, 9, 2, label="end_not_reached"), Case(5, 5), Case(7, 100, 31),
        # Official grading only (nothing random here to draw again from the instructor's secret).
        Case(-7, 8, 5, hidden=True), Case(4, 19, 4, label="end_not_reached", hidden=True),
    ]),
    Function("evenly_spaced", [
        Case(0.0, 1.0, 5), Case(-1.0, 2.0, 7), Case(0.0, 0.3, 4), Case(2.5, -2.5, 11), Case(0.0, 1.0, 2),
        # arange(start, end + step, step) makes one point too many here (rounding in the ceiling of its count).
        Case(1.0, 1.3, 4, label="step_count"), Case(-0.7, 2.6, 2, label="step_count"),
        Case(2.4, 4.0, 10, label="step_count"),
        Case(-3.0, 1.5, 10, hidden=True), Case(1.0, 0.0, 3, hidden=True),
    ]),
    Function("filled", [
        Case((2, 3), 7), Case((4,), 0.5), Case((2, 2, 2), -3), Case((), 1), Case((0, 3), 2.0),
        Case((3, 1), -4, hidden=True), Case((2,), 0.25, hidden=True),
    ], probes=(Probe("one_element", _one_element_written),)),
    Function("mask_like", [
        Case(randn(2, 3)), Case(randint(0, 9, 5)), Case(randn(2, 3, 4, dtype=torch.float64)), Case(randn(0, 4)),
        # NaN is not equal to itself: a mask computed from the values (x != x) is True there.
        Case(tensor([[0.5, float("nan")], [float("inf"), -1.0]]), label="nan"),
    ], devices=("cpu", "meta", "cuda")),
])
