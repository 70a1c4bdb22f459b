"""Load kata modules and observe functions in one process.

Used by the grading child (which observes here and leaves the judging to grade.py's parent), by
the pytest plugin (which judges in the same process) and by the self-tests.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path

import torch

from ..aspects.compare import Tolerance
from ..records import Reason
from .observe import call_catching, observe_function
from .spec import Function, Kata

# Kata tensors are tiny: extra threads only add wake-up latency (tens of ms per op on 2 cores).
torch.set_num_threads(1)
_counter = itertools.count()


def warm_up() -> None:
    """Make torch load now what it loads on first use (a second or more, several on a busy
    machine), so that no function's time limit pays for it: meta-device kernels, the Python
    decompositions some meta ops run (they import sympy), and the optimizer machinery."""
    meta = torch.empty(2, 3, device="meta")
    torch.nn.functional.linear(meta, torch.empty(4, 3, device="meta"))
    torch.zeros_like(meta, dtype=torch.bool)
    torch.zeros(3, device="meta").index_add_(0, torch.zeros(2, dtype=torch.int64, device="meta"),
                                              torch.ones(2, device="meta"))
    weight = torch.nn.Parameter(torch.zeros(1))
    weight.grad = torch.ones(1)
    torch.optim.SGD([weight], lr=0.1).step()


def load_module(path: Path, name: str | None = None):
    """Import the file at ``path`` as a fresh module (never a cached one), whatever its folder."""
    name = name or f"_kata_module_{next(_counter)}_{Path(path).stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None   # a .py file (every caller's) has a source loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def import_learner(path: Path):
    """Import a learner's kata file as grading does everywhere: returns (module, None), or
    (None, the ``Reason`` it could not be imported: a syntax error with its line, or what raised)."""
    module, error, _ = call_catching(load_module, (path,), {}, str(path))
    if error is None:
        return module, None
    if error["type"] == "SyntaxError":
        return None, Reason("error.syntax", {"line": error.get("line", "?"), "error": error["message"]})
    return None, Reason("error.import", {"error": f"{error['type']}: {error['message']}"})


def load_kata_spec(kata: str, tests_dir: Path) -> Kata:
    """The ``Kata`` declared by ``test_<kata>.py`` in ``tests_dir`` (a project's ``tests/``, ``Layout.tests``)."""
    module = load_module(Path(tests_dir) / f"test_{kata}.py", f"_kata_tests_{kata}")
    return module.KATA


def cuda_available() -> bool:
    """Whether a CUDA device can be used here."""
    try:
        return torch.cuda.is_available()
    except Exception:
        return False


def devices_for(spec: Function) -> tuple[list[str], list[str]]:
    """(devices to check here, devices skipped because this machine lacks them)."""
    usable = [d for d in spec.devices if d != "cuda" or cuda_available()]
    return usable, [d for d in spec.devices if d not in usable]


def tolerance_of(spec: Function) -> Tolerance:
    """The tolerance a function's spec asks for."""
    return Tolerance(spec.rtol, spec.atol)


def observe_devices(fn, spec: Function, kata: str, devices, learner_file=None, extras=()) -> dict:
    """Observations of ``fn`` on every public case and then the ``extras`` (official grading's
    [case index, seed] pairs), for each device in ``devices``."""
    observed = {}
    for device in devices:
        observed[device] = observe_function(fn, spec, kata, device, learner_file, extras)
        if any(o.get("raised", {}).get("todo") for o in observed[device]):
            break
    return observed
