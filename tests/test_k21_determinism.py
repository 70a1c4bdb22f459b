"""Checks for k21_determinism: which cases, on which devices, and which aspects matter.

make_reproducible returns None; probes read the state it leaves behind. Each of its cases
starts with cuDNN's benchmark mode switched on (as a script tuned for speed has it), so that
leaving it on shows. put_values_ is called with deterministic algorithms switched on by its case
recipe, and must keep them on throughout: torch's setter is wrapped once, process-wide, so that
switching the mode off during the call is recorded (in a record kept here, opened when the case
is built and read by the probe `deterministic_throughout`), even when the mode is switched on
again before the call returns. The harness switches both settings back before the next call.
"""

import torch

from kata_harness.spec import Case, Function, Kata, Probe, custom, randint, randn, tensor


def benchmark_on_then(seed):
    """``seed``, with cuDNN's benchmark mode switched on just before the call."""
    def build(gen, device):
        torch.backends.cudnn.benchmark = True
        return seed
    return custom(build)


class _Switches:
    """Whether deterministic algorithms were switched off since the case was built."""

    def __init__(self):
        self.switched_off = False


_OPEN = [None]     # the record of the case being graded now
_SETTER = []       # torch's own setter, once it is wrapped


def _watch_the_mode() -> None:
    """Wrap torch's setter of the deterministic mode (once per process), so that every switch
    off while a case is open is recorded; torch.use_deterministic_algorithms goes through it."""
    if _SETTER:
        return
    original = torch._C._set_deterministic_algorithms
    _SETTER.append(original)

    def set_deterministic(mode, *args, **kwargs):
        if not mode and _OPEN[0] is not None:
            _OPEN[0].switched_off = True
        return original(mode, *args, **kwargs)
    torch._C._set_deterministic_algorithms = set_deterministic


def in_deterministic_mode(recipe):
    """``recipe``, built with deterministic algorithms switched on for the call that follows,
    and a fresh record of whether the call switches them off."""
    def build(gen, device):
        value = recipe.build(gen, device)
        _watch_the_mode()
        # torch's own switch (the public setter imports torch._inductor inside the time limit)
        torch._C._set_deterministic_algorithms(True)
        _OPEN[0] = _Switches()
        return value
    return custom(build)


def positions(*flat):
    return tensor(list(flat), dtype=torch.int64)


def _torch_draws(call):
    return torch.rand(3)


def _deterministic(call):
    return torch.are_deterministic_algorithms_enabled()


def _stayed_on(call):
    """Whether deterministic algorithms stayed on during the whole call (the record is closed here)."""
    record, _OPEN[0] = _OPEN[0], None
    return record is not None and not record.switched_off


def _warn_only(call):
    return torch.is_deterministic_algorithms_warn_only_enabled()


def _cudnn_benchmark(call):
    return bool(torch.backends.cudnn.benchmark)


KATA = Kata("k21_determinism", [
    Function("make_reproducible", [
        Case(benchmark_on_then(42)), Case(benchmark_on_then(7)), Case(benchmark_on_then(2024)),
    ], probes=(Probe("torch_random", _torch_draws), Probe("deterministic", _deterministic),
               Probe("warn_only", _warn_only), Probe("cudnn_benchmark", _cudnn_benchmark))),
    Function("put_values_", [
        Case(in_deterministic_mode(randn(2, 3)), positions(0, 4), tensor([1.0, 2.0])),
        Case(in_deterministic_mode(randint(0, 9, 4, 4)), positions(15, 3, 8), tensor([-1, -2, -3])),
        Case(in_deterministic_mode(randn(5)), positions(2), tensor([9.5])),
        Case(in_deterministic_mode(randn(2, 2, 2, dtype=torch.float64)), positions(7, 0),
             tensor([0.5, -0.5], dtype=torch.float64)),
        Case(in_deterministic_mode(randn(3, 3)), positions(), tensor([], dtype=torch.float32)),
    ], probes=(Probe("deterministic", _deterministic), Probe("deterministic_throughout", _stayed_on))),
])
