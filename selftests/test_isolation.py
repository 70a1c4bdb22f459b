"""A kata's damage stays in that kata, and the judge counts silence against: a hostile kata file
that patches torch and the harness, leaves a thread writing garbage, or sends an event nested
thousands of levels deep costs only its own functions, in grade.py and in watch, sandboxed or
not, with the fork-free path of macOS and Windows too; a hang is killed with what it started by
its zygote, which grades on; an observer patched to drop what it sees,
and a probe blinded by clearing torch's hooks, pass nothing (also in official grading).

Each attack is checked by what it must not change: the functions of the other katas, graded in
the same run, pass exactly as the reference does.
"""

import io
import json
import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from kata_harness.content.curriculum import load_curriculum
from kata_harness.isolation import child
from kata_harness.isolation.protocol import LINE_LIMIT
from kata_harness.layout import LAYOUT
from selftests import warm
from selftests.attacks import MODES, graded_here, marked_processes, marker
from selftests.gradekit import ROOT, functions, read_until, rest_of_output, solutions_from_reference, statuses

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux process tests")

POINTS = {f.qualified: f.points for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions}
OTHERS = ("k03", "k11", "k20")   # katas graded beside the damaged k01 (k20 checks global RNG state)

# Prepended to k01's reference: at import it breaks what every later kata would rely on.
DAMAGE = """
import gc, os, threading, time
import torch
import numpy
import kata_harness.observation.observe as _observe
import kata_harness.observation.describe as _describe
torch.Tensor.__eq__ = lambda self, other: True
torch.allclose = lambda *args, **kwargs: True
torch.manual_seed = lambda *args, **kwargs: None
numpy.random.seed = lambda *args, **kwargs: None
_describe.describe = lambda *args, **kwargs: {"kind": "none"}
_observe.describe = _describe.describe

def _garbage():
    while True:
        for fd in range(3, 64):
            try:
                os.write(fd, b'{"event": "observed", "kata": "k03_dtypes"' + b'\\n' + b'[' * 5000 + b'\\n')
            except OSError:
                pass
        time.sleep(0.02)

threading.Thread(target=_garbage, daemon=True).start()
"""


def _damaged(tmp_path):
    solutions = solutions_from_reference(tmp_path / "katas")
    target = solutions / "k01_creation.py"
    target.write_text(textwrap.dedent(DAMAGE) + "\n" + target.read_text(encoding="utf-8"), encoding="utf-8")
    return solutions


def _others_pass(doc: dict) -> None:
    graded = statuses(doc)
    others = {name: status for name, status in graded.items() if not name.startswith("k01_")}
    assert others and all(status == "passed" for status in others.values()), \
        {name: functions(doc)[name]["message"][:300] for name, status in others.items() if status != "passed"}
    assert doc["score"] >= sum(POINTS[name] for name in others)


@pytest.mark.parametrize("mode", MODES)
def test_a_kata_that_damages_its_process_costs_only_its_own_points(mode, tmp_path):
    solutions = _damaged(tmp_path)
    started = time.monotonic()
    done = graded_here(solutions, "k01", *OTHERS, mode=mode)
    assert done.returncode == 0, done.stderr[-2000:]
    assert time.monotonic() - started < 120
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    _others_pass(json.loads(done.stdout))


@pytest.mark.e2e
def test_without_fork_a_damaged_child_retires_before_the_next_kata(winlike, tmp_path):
    """macOS and Windows run the katas in one warm child while it stays clean: after the damaged
    kata it finds torch and the harness patched and a thread left running, and retires."""
    solutions = _damaged(tmp_path)
    done = subprocess.run([sys.executable, str(ROOT / "grade.py"), "k01", *OTHERS, "--solutions", str(solutions),
                           "--format", "json", "--timeout", "5", "--deadline", "150"],
                          capture_output=True, text=True, timeout=240, env=winlike, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    _others_pass(json.loads(done.stdout))


@pytest.mark.e2e
def test_watch_grades_the_other_katas_as_if_alone(tmp_path):
    """In watch mode too: the first run, and a save of the damaged kata that is graded again."""
    solutions = _damaged(tmp_path)
    environment = {**os.environ, "NO_COLOR": "1", "KATA_LANG": "en"}
    process = subprocess.Popen([sys.executable, str(ROOT / "grade.py"), "watch", "k01", "k03", "--solutions",
                                str(solutions), "--poll", "--interval", "0.2"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, env=environment, cwd=ROOT)
    try:
        first = read_until(process, "watching", timeout=180)
        k03 = sum(POINTS[name] for name in POINTS if name.startswith("k03_"))
        assert f"{k03}/{k03}" in first, first
        target = solutions / "k01_creation.py"
        target.write_text(target.read_text(encoding="utf-8") + "\n# saved again\n", encoding="utf-8")
        again = read_until(process, "score", timeout=120)
        assert "k01_creation" in again, again
        process.terminate()
        rest_of_output(process)
    finally:
        process.kill()


@pytest.mark.e2e
@pytest.mark.parametrize("mode", MODES)
def test_a_hang_is_killed_and_its_zygote_grades_on(mode, tmp_path):
    """A function that hangs after starting a process of its own that holds its event pipe open:
    at its time limit the zygote kills both and grades the rest (the kata's other functions, the
    next kata) itself, without importing torch again."""
    solutions = solutions_from_reference(tmp_path / "katas")
    target = solutions / "k01_creation.py"
    target.write_text(target.read_text(encoding="utf-8") + textwrap.dedent(f"""
        import subprocess, sys, time
        def filled(shape, value):
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)  # {marker(tmp_path)}"],
                             start_new_session=True, close_fds=False)
            time.sleep(1000)
    """), encoding="utf-8")
    kept = warm.learner_lane(solutions, sandboxed=mode == "bubblewrap").lane
    kept.start()
    zygote = kept.process
    done = graded_here(solutions, "k01", "k03", mode=mode)
    assert done.returncode == 0, done.stderr[-2000:]
    graded = statuses(json.loads(done.stdout))
    assert graded.pop("k01_creation.filled") == "error"
    assert set(graded.values()) == {"passed"}, graded
    assert kept.process is zygote and zygote.alive(), "the hang cost its zygote"
    assert marked_processes(marker(tmp_path)) == []


def test_a_zygote_reads_its_orders_whole_and_relays_lines_cut_at_the_limit():
    """The zygote's side of cancelling, without a zygote: orders split across reads are taken in
    whole (jobs queued, cancels noted), and a job's stream is relayed line by line, a line longer
    than the limit cut into pieces (each then judged malformed), the last unfinished one too."""
    orders_read, orders_write = os.pipe()
    orders = child._Orders(orders_read)
    os.write(orders_write, b'{"job": "a1", "mode": "learner"}\n{"canc')
    assert orders.next_job() == {"job": "a1", "mode": "learner"} and not orders.cancelled("a1")
    os.write(orders_write, b'el": "a1"}\nnot json\n{"job": "b2"}\n')
    os.close(orders_write)
    orders.read()
    assert orders.cancelled("a1") and not orders.cancelled("b2")
    assert orders.next_job() == {"job": "b2"} and orders.next_job() is None
    os.close(orders_read)

    idle_read, idle_write = os.pipe()   # orders that never come: the relay ends with the stream
    stream_read, stream_write = os.pipe()
    events = io.BytesIO()

    def send() -> None:   # more than a pipe holds: written beside the relay that reads it
        os.write(stream_write, b'{"event": "start"}\n' + b"x" * LINE_LIMIT + b"\nunfinished")
        os.close(stream_write)

    sender = threading.Thread(target=send)
    sender.start()
    child._relay(os.getpid(), stream_read, events, child._Orders(idle_read), "c3")
    sender.join()
    relayed = events.getvalue().split(b"\n")
    assert relayed[0] == b'J {"event": "start"}'
    assert relayed[1] == b"J " + b"x" * LINE_LIMIT and relayed[2] == b"J "
    assert relayed[3:] == [b"J unfinished", b""]
    for fd in (idle_read, idle_write):
        os.close(fd)


@pytest.mark.parametrize("mode", MODES)
def test_a_deeply_nested_event_costs_one_function(mode, tmp_path):
    """A line nested past what a JSON decoder (or the judge) recurses into: that function errors,
    the reader survives, the rest of its kata and the next kata pass, and nothing is printed."""
    solutions = solutions_from_reference(tmp_path / "katas")
    target = solutions / "k01_creation.py"
    target.write_text(target.read_text(encoding="utf-8") + textwrap.dedent("""
        def filled(shape, value):
            import gc
            from kata_harness.isolation.child import _Channel
            send = next(o for o in gc.get_objects() if isinstance(o, _Channel))
            deep = []
            for _ in range(5000):
                deep = [deep]
            send.stream.write(b'{"event": "observed", "x": ' + b'[' * 20000 + b']' * 20000 + b'}\\n')
            return torch.full(shape, float(value))
    """), encoding="utf-8")
    done = graded_here(solutions, "k01", "k03", mode=mode)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    graded = statuses(json.loads(done.stdout))
    assert graded.pop("k01_creation.filled") == "error"
    assert set(graded.values()) == {"passed"}, graded


SILENT_SCALAR = """
import torch
import kata_harness.observation.describe as _describe
_values = _describe._tensor_values

def _quiet(t):   # the observer told to say nothing about 0-dim results
    return None if t.dim() == 0 else _values(t)

_describe._tensor_values = _quiet


def mse(pred, target):
    return torch.tensor(0.0, dtype=pred.dtype)
"""

BLINDED_PROBE = """
import torch
from torch import nn


def predict(model, x):   # both pitfalls: training mode kept, and a graph built then detached
    hooks = nn.modules.module._global_forward_pre_hooks
    saved = dict(hooks)
    hooks.clear()
    try:
        return model(x).detach()
    finally:
        hooks.update(saved)


def predict_in_batches(model, x, batch_size):   # everything at once, hidden from the record
    return predict(model, x)
"""


@pytest.mark.parametrize("official", [False, True], ids=["practice", "official"])
def test_an_observer_told_to_say_nothing_passes_nothing(official, tmp_path):
    """Silence counts against: a 0-dim result whose value the patched describer drops, and probes
    blinded by clearing torch's global forward hooks, fail, in practice and in official grading."""
    solutions = solutions_from_reference(tmp_path / "katas")
    for kata, attack in (("k11_broadcasting", SILENT_SCALAR), ("k19_inference", BLINDED_PROBE)):
        target = solutions / f"{kata}.py"
        target.write_text(target.read_text(encoding="utf-8") + textwrap.dedent(attack), encoding="utf-8")
    secret = {"KATA_SECRET": "isolation-selftest-secret"} if official else {}
    done = graded_here(solutions, "k11", "k19", mode=MODES[0], env=secret)
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads(done.stdout)
    assert doc["official"] is official
    graded = statuses(doc)
    for name in ("k11_broadcasting.mse", "k19_inference.predict", "k19_inference.predict_in_batches"):
        assert graded[name] != "passed", (name, functions(doc)[name]["message"])
    assert graded["k11_broadcasting.normalize_rows"] == "passed"
