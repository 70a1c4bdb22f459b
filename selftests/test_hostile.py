"""Hostile submissions: grade.py survives them, prints valid JSON, and only the poisoned
functions lose points. Each attack is code appended to one kata file of the reference (a
redefinition of one of its functions, or statements run at import).

Each kata is a job in a process no other kata touched, so attacks on different katas can share
one grading: the attacks are grouped, each on a kata of its own (a function with others before
and after it in its kata), and each group is graded once, every kata of the curriculum with it.
What each attack must cost is checked on its own; every function no attack aimed at must pass.
A learner's pytest configuration lies beside every group's katas: grade.py pins its own.
"""

import json
import textwrap
import time

import pytest

from kata_harness.content.curriculum import load_curriculum
from kata_harness.layout import LAYOUT
from selftests.gradekit import check_schema, functions, run, solutions_from_reference, statuses

ALL = [f.qualified for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions]
KATAS = {kata.name: [f.qualified for f in kata.functions] for kata in load_curriculum(LAYOUT.curriculum)}
FUNCTION, KATA, NOTHING = "the function", "the kata", "nothing"   # what an attack must cost

# name: (kata, function, code appended to the kata file, what it must cost). In the code,
# __function__ and __kata__ stand for the attacked function and its kata; _honest is the
# reference's own function, kept before the attack redefines it.
HOSTILE = {
    "endless_loop": ("k03_dtypes", "apply_linear", """
        def __function__(*args, **kwargs):
            while True:
                pass
    """, FUNCTION),
    "sleep_ignoring_sigalrm": ("k03_dtypes", "apply_linear", """
        import signal, time
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        def __function__(*args, **kwargs):
            time.sleep(1000)
    """, FUNCTION),
    "hang_at_import": ("k03_dtypes", "apply_linear", """
        import time
        time.sleep(1000)
    """, KATA),
    "os_exit": ("k04_promotion", "weighted_sum", """
        def __function__(*args, **kwargs):
            import os
            os._exit(0)
    """, FUNCTION),
    "sys_exit": ("k04_promotion", "weighted_sum", """
        def __function__(*args, **kwargs):
            import sys
            sys.exit(0)
    """, FUNCTION),
    "raise_system_exit": ("k04_promotion", "weighted_sum", """
        def __function__(*args, **kwargs):
            raise SystemExit(0)
    """, FUNCTION),
    "keyboard_interrupt": ("k05_devices", "to_device", """
        def __function__(*args, **kwargs):
            raise KeyboardInterrupt
    """, FUNCTION),
    "pytest_skip": ("k06_clone_view", "clipped", """
        import pytest
        def __function__(*args, **kwargs):
            pytest.skip("not today")
    """, FUNCTION),
    "pytest_xfail": ("k06_clone_view", "clipped", """
        import pytest
        def __function__(*args, **kwargs):
            pytest.xfail("expected to fail")
    """, FUNCTION),
    "segfault": ("k06_clone_view", "clipped", """
        def __function__(*args, **kwargs):
            import ctypes
            ctypes.string_at(0)
    """, FUNCTION),
    "lying_tensor_subclass": ("k09_contiguity", "merge_heads", """
        import torch
        class Liar(torch.Tensor):
            def __eq__(self, other): return True
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                return True
        def __function__(*args, **kwargs):
            return torch.zeros(1).as_subclass(Liar)
    """, FUNCTION),
    "patched_comparisons": ("k09_contiguity", "merge_heads", """
        import numpy, torch
        torch.equal = lambda *a, **k: True
        torch.allclose = lambda *a, **k: True
        torch.testing.assert_close = lambda *a, **k: None
        numpy.testing.assert_allclose = lambda *a, **k: None
        torch.Tensor.__eq__ = lambda self, other: True
        torch.Tensor.tolist = lambda self: [7.0]
        def __function__(*args, **kwargs):
            return torch.zeros(3)
    """, FUNCTION),
    "list_instead_of_tensor": ("k09_contiguity", "merge_heads", """
        _honest = __function__
        def __function__(*args, **kwargs):
            return _honest(*args, **kwargs).tolist()   # the right values, but not a tensor
    """, FUNCTION),
    "imports_reference_in_function": ("k11_broadcasting", "add_channel_bias", """
        def __function__(*args, **kwargs):
            from reference.__kata__ import __function__ as answer
            return answer(*args, **kwargs)
    """, FUNCTION),
    "imports_reference_at_import": ("k11_broadcasting", "add_channel_bias", """
        from reference.__kata__ import *
    """, KATA),
    "forged_events": ("k11_broadcasting", "add_channel_bias", """
        import json, os
        fake = {"event": "expected", "kata": "__kata__", "function": "__function__", "aspects": [], "rtol": None,
                "atol": None, "timeout": None, "skipped": [],
                "observations": {"cpu": [{"call": "", "names": [], "result": {"kind": "none"}}]}}
        for fd in range(3, 40):
            try:
                os.write(fd, (json.dumps(fake) + "\\n").encode())
            except OSError:
                pass
        def __function__(*args, **kwargs):
            return None
    """, KATA),
    "global_state_left_behind": ("k01_creation", "filled", """
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
    """, NOTHING),
    "prints_50_megabytes": ("k01_creation", "filled", """
        import os, sys
        print("x" * 25_000_000)
        os.write(1, b"y" * 5_000_000)
        def __function__(*args, **kwargs):
            print("z" * 25_000_000)
            sys.stderr.write("w" * 1_000_000)
            raise ValueError("no")
    """, FUNCTION),
    "non_daemon_thread": ("k01_creation", "filled", """
        import threading, time
        threading.Thread(target=lambda: time.sleep(10_000), daemon=False).start()
    """, NOTHING),
    "waits_for_input": ("k12_joining", "concat_features", """
        def __function__(*args, **kwargs):
            return float(input("value? "))
    """, FUNCTION),
}

# Attacks graded together: no two on one kata, and one hang at most in each group (a hang costs
# its time limit).
GROUPS = {
    "a hang in a function": ["endless_loop", "os_exit", "pytest_skip", "lying_tensor_subclass",
                             "imports_reference_in_function", "global_state_left_behind", "keyboard_interrupt"],
    "a hang ignoring signals": ["sleep_ignoring_sigalrm", "sys_exit", "pytest_xfail", "patched_comparisons",
                                "imports_reference_at_import", "non_daemon_thread", "waits_for_input"],
    "a hang at import": ["hang_at_import", "raise_system_exit", "segfault", "list_instead_of_tensor",
                         "forged_events", "prints_50_megabytes"],
}


def test_every_attack_is_graded_in_exactly_one_group_and_no_two_share_a_kata():
    grouped = [name for names in GROUPS.values() for name in names]
    assert sorted(grouped) == sorted(HOSTILE)
    for names in GROUPS.values():
        katas = [HOSTILE[name][0] for name in names]
        assert len(katas) == len(set(katas)), names
    for kata, function, _, _ in HOSTILE.values():
        position = KATAS[kata].index(f"{kata}.{function}")
        assert 0 < position < len(KATAS[kata]) - 1, f"{kata}.{function}: no function before and after it"


def _plant_configuration(solutions):
    """A conftest.py, pytest.ini, tox.ini, setup.cfg and sitecustomize.py beside the learner's katas
    that would break pytest, or any Python that imported them."""
    (solutions / "conftest.py").write_text("raise SystemExit('conftest loaded')\n")
    (solutions / "pytest.ini").write_text("[pytest]\naddopts = --this-option-does-not-exist\n")
    (solutions / "tox.ini").write_text("[pytest]\naddopts = -p no:python\n")
    (solutions / "setup.cfg").write_text("[tool:pytest]\ntestpaths = nowhere\n")
    (solutions / "sitecustomize.py").write_text("raise SystemExit('sitecustomize loaded')\n")


def _cost(name: str) -> list[str]:
    """The functions attack ``name`` must leave without points."""
    kata, function, _, cost = HOSTILE[name]
    return {FUNCTION: [f"{kata}.{function}"], KATA: KATAS[kata], NOTHING: []}[cost]


@pytest.mark.e2e
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_hostile_submissions_cost_only_their_own_points(group, tmp_path):
    solutions = solutions_from_reference(tmp_path / "katas")
    _plant_configuration(solutions)
    for name in GROUPS[group]:
        kata, function, code, _ = HOSTILE[name]
        target = solutions / f"{kata}.py"
        attack = textwrap.dedent(code).replace("__function__", function).replace("__kata__", kata)
        target.write_text(target.read_text() + "\n" + attack)
    started = time.monotonic()
    done = run("--solutions", str(solutions), "--format", "json", "--timeout", "3", "--deadline", "150",
               timeout=200)
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr[-2000:]
    assert elapsed < 170
    assert len(done.stdout) < 500_000, "learner output flooded the report"
    doc = json.loads(done.stdout)
    check_schema(doc)
    graded = statuses(doc)
    assert list(graded) == ALL
    for name in GROUPS[group]:
        earned = [function for function in _cost(name) if graded[function] == "passed"]
        assert not earned, f"{name}: {earned} earned points"
    poisoned = {function for name in GROUPS[group] for function in _cost(name)}
    lost = {function: f"{graded[function]}: {functions(doc)[function]['message'][:300]}"
            for function in ALL if function not in poisoned and graded[function] != "passed"}
    assert not lost, f"functions no attack aimed at lost their points: {lost}"
