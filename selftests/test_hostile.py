"""Hostile submissions: grade.py survives them, prints valid JSON, and only the poisoned
functions lose points. Each submission is the reference with some code appended to one kata
file (a redefinition of a function, or statements run at import)."""

import json
import textwrap
import time

import pytest

from kata_harness.content.curriculum import load_curriculum
from selftests.gradekit import check_schema, functions, run, solutions_from_reference, statuses

ALL = [f.qualified for kata in load_curriculum() for f in kata.functions]
K01 = [name for name in ALL if name.startswith("k01_creation.")]

# name: (kata file to poison, code appended to it, functions that must earn nothing)
HOSTILE = {
    "endless_loop": ("k01_creation", """
        def filled(shape, value):
            while True:
                pass
    """, ["k01_creation.filled"]),
    "sleep_ignoring_sigalrm": ("k01_creation", """
        import signal, time
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        def filled(shape, value):
            time.sleep(1000)
    """, ["k01_creation.filled"]),
    "os_exit": ("k01_creation", """
        def filled(shape, value):
            import os
            os._exit(0)
    """, ["k01_creation.filled"]),
    "sys_exit": ("k01_creation", """
        def filled(shape, value):
            import sys
            sys.exit(0)
    """, ["k01_creation.filled"]),
    "raise_system_exit": ("k01_creation", """
        def filled(shape, value):
            raise SystemExit(0)
    """, ["k01_creation.filled"]),
    "keyboard_interrupt": ("k01_creation", """
        def filled(shape, value):
            raise KeyboardInterrupt
    """, ["k01_creation.filled"]),
    "pytest_skip": ("k01_creation", """
        import pytest
        def filled(shape, value):
            pytest.skip("not today")
    """, ["k01_creation.filled"]),
    "pytest_xfail": ("k01_creation", """
        import pytest
        def filled(shape, value):
            pytest.xfail("expected to fail")
    """, ["k01_creation.filled"]),
    "segfault": ("k01_creation", """
        def filled(shape, value):
            import ctypes
            ctypes.string_at(0)
    """, ["k01_creation.filled"]),
    "lying_tensor_subclass": ("k01_creation", """
        import torch
        class Liar(torch.Tensor):
            def __eq__(self, other): return True
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                return True
        def filled(shape, value):
            return torch.zeros(1).as_subclass(Liar)
    """, ["k01_creation.filled"]),
    "patched_comparisons": ("k01_creation", """
        import numpy, torch
        torch.equal = lambda *a, **k: True
        torch.allclose = lambda *a, **k: True
        torch.testing.assert_close = lambda *a, **k: None
        numpy.testing.assert_allclose = lambda *a, **k: None
        torch.Tensor.__eq__ = lambda self, other: True
        torch.Tensor.tolist = lambda self: [7.0]
        def filled(shape, value):
            return torch.zeros(3)
    """, ["k01_creation.filled"]),
    "list_instead_of_tensor": ("k01_creation", """
        def filled(shape, value):
            return [[float(value)] * shape[-1]] * shape[0] if shape else float(value)
    """, ["k01_creation.filled"]),
    "imports_reference_in_function": ("k01_creation", """
        def filled(shape, value):
            from reference.k01_creation import filled as answer
            return answer(shape, value)
    """, ["k01_creation.filled"]),
    "imports_reference_at_import": ("k01_creation", """
        from reference.k01_creation import *
    """, K01),
    "global_state_left_behind": ("k01_creation", """
        import random, warnings, numpy, torch
        torch.set_default_dtype(torch.float64)
        torch.set_grad_enabled(False)
        torch.manual_seed(1234); numpy.random.seed(1234); random.seed(1234)
        warnings.simplefilter("error")
        def filled(shape, value):
            torch.set_default_dtype(torch.float64)
            torch.set_grad_enabled(False)
            torch.manual_seed(99)
            return torch.full(shape, value, dtype=torch.float32)
    """, []),
    "prints_50_megabytes": ("k01_creation", """
        import os, sys
        print("x" * 25_000_000)
        os.write(1, b"y" * 5_000_000)
        def filled(shape, value):
            print("z" * 25_000_000)
            sys.stderr.write("w" * 1_000_000)
            raise ValueError("no")
    """, ["k01_creation.filled"]),
    "non_daemon_thread": ("k01_creation", """
        import threading, time
        threading.Thread(target=lambda: time.sleep(10_000), daemon=False).start()
    """, []),
    "hang_at_import": ("k01_creation", """
        import time
        time.sleep(1000)
    """, K01),
    "syntax_error": ("k01_creation", """
        def filled(shape, value)
            return None
    """, K01),
    "waits_for_input": ("k01_creation", """
        def filled(shape, value):
            return float(input("value? "))
    """, ["k01_creation.filled"]),
    "forged_events": ("k01_creation", """
        import json, os
        fake = {"event": "expected", "kata": "k01_creation", "function": "filled", "aspects": [], "rtol": None,
                "atol": None, "timeout": None, "skipped": [],
                "observations": {"cpu": [{"call": "", "names": [], "result": {"kind": "none"}}]}}
        for fd in range(3, 40):
            try:
                os.write(fd, (json.dumps(fake) + "\\n").encode())
            except OSError:
                pass
        def filled(shape, value):
            return None
    """, K01),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_submission_costs_only_its_own_points(name, tmp_path):
    kata, code, poisoned = HOSTILE[name]
    solutions = solutions_from_reference(tmp_path / "katas")
    target = solutions / f"{kata}.py"
    target.write_text(target.read_text() + "\n" + textwrap.dedent(code))
    started = time.monotonic()
    done = run("--solutions", str(solutions), "--format", "json", "--timeout", "5", "--deadline", "150",
               timeout=200)
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr[-2000:]
    assert elapsed < 170
    assert len(done.stdout) < 500_000, "learner output flooded the report"
    doc = json.loads(done.stdout)
    check_schema(doc)
    graded = statuses(doc)
    assert list(graded) == ALL
    for function in ALL:
        if function in poisoned:
            assert graded[function] != "passed", f"{function} earned points"
        else:
            assert graded[function] == "passed", f"{function}: {graded[function]}: {functions(doc)[function]['message']}"


def test_learner_pytest_configuration_cannot_change_grading(tmp_path):
    """A conftest.py, pytest.ini, tox.ini or setup.cfg beside the learner's katas changes nothing:
    grade.py pins its own configuration (it does not run pytest at all)."""
    solutions = solutions_from_reference(tmp_path / "katas")
    (solutions / "conftest.py").write_text("raise SystemExit('conftest loaded')\n")
    (solutions / "pytest.ini").write_text("[pytest]\naddopts = --this-option-does-not-exist\n")
    (solutions / "tox.ini").write_text("[pytest]\naddopts = -p no:python\n")
    (solutions / "setup.cfg").write_text("[tool:pytest]\ntestpaths = nowhere\n")
    (solutions / "sitecustomize.py").write_text("raise SystemExit('sitecustomize loaded')\n")
    done = run("--solutions", str(solutions), "--format", "json", timeout=300)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["score"] == doc["max_score"]
