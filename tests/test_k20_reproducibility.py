"""Checks for k20_reproducibility: which cases, on which devices, and which aspects matter.

set_seed returns None, so what it did is observed afterwards: probes draw from Python's
`random`, NumPy's global RNG and torch's global RNG (and CUDA's where there is a GPU). The
harness puts every global RNG into one fixed state before each call, so a set_seed that skips
one of them leaves that one's draws at the fixed state and they differ from the reference's.
The seeds differ from the harness's own (0) and from each other, so no draw can match by luck.
"""

import random

import numpy as np
import torch

from kata_harness.spec import BASIC, Case, Function, Kata, Probe


def _python_draws(call):
    return [random.random() for _ in range(3)]


def _numpy_draws(call):
    return np.random.rand(3)


def _torch_draws(call):
    return torch.rand(3)


def _cuda_seeded(call):
    """Whether CUDA's RNG (seeded separately from the CPU's) draws what `seed` gives it.

    A yes/no rather than the draws themselves, so that the observation is the same with and
    without a GPU (an answer key recorded on a CPU-only machine still grades a GPU machine);
    vacuously True where there is no GPU.
    """
    if not torch.cuda.is_available():
        return True
    seed = call.args[0] if call.args else call.kwargs["seed"]
    expected = torch.rand(3, device="cuda", generator=torch.Generator("cuda").manual_seed(seed))
    return bool(torch.equal(torch.rand(3, device="cuda"), expected))


KATA = Kata("k20_reproducibility", [
    Function("set_seed", [
        Case(42), Case(7), Case(2024), Case(123456789),
        # Official grading only (nothing random here to draw again from the instructor's secret).
        Case(31337, hidden=True), Case(2718281828, hidden=True),
    ], probes=(Probe("python_random", _python_draws), Probe("numpy_random", _numpy_draws),
               Probe("torch_random", _torch_draws), Probe("cuda_random", _cuda_seeded))),
    Function("noise", [
        Case((3,), 42), Case((2, 3), 7), Case((20,), 2024), Case((2, 1, 4), 1), Case((), 5), Case((4,), 0),
        Case((3, 2), 1234, hidden=True), Case((5,), 99, hidden=True),
    ], aspects=BASIC + ("rng",)),
])
