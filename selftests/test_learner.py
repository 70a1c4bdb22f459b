"""The learner's daily loop: watch mode, reset with backups, language choice, colour, pytest selection."""

import io
import queue
import shutil
import signal
import subprocess
import sys
import time

import pytest

from kata_harness.content.curriculum import load_curriculum
from kata_harness.layout import LAYOUT
from kata_harness.outputs.text import use_colour
from selftests.gradekit import ROOT, read_until, rest_of_output
from selftests.warm import grade_here, reset_here

K01 = {f.name: f.points for kata in load_curriculum(LAYOUT.curriculum) if kata.name == "k01_creation" for f in kata.functions}
K01_POINTS = sum(K01.values())
# Once k01 passes, watch moves on to k02 and watches both: the score is then out of both.
BOTH_POINTS = K01_POINTS + sum(f.points for kata in load_curriculum(LAYOUT.curriculum) if kata.name == "k02_creation_traps"
                               for f in kata.functions)


@pytest.fixture
def solutions(tmp_path):
    folder = tmp_path / "katas"
    shutil.copytree(ROOT / "katas", folder)
    return folder


@pytest.mark.e2e
@pytest.mark.parametrize("mode", ["file events", "polling"])
def test_watch_regrades_on_save_and_stops_cleanly_on_ctrl_c(solutions, mode):
    command = [sys.executable, "grade.py", "watch", "k01", "--solutions", str(solutions), "--lang", "en",
               "--interval", "0.2"] + (["--poll"] if mode == "polling" else [])
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = read_until(process, "watching")
        assert f"score 0/{K01_POINTS}" in first and f"({mode})" in first
        shutil.copy(ROOT / "reference" / "k01_creation.py", solutions / "k01_creation.py")
        solved = read_until(process, f"score {K01_POINTS}/{K01_POINTS}", timeout=30)
        assert "✓ mask_like" in solved
        moved = read_until(process, f"score {K01_POINTS}/{BOTH_POINTS}", timeout=60)
        assert "Watching k02_creation_traps too now" in moved
        broken = (ROOT / "reference" / "k01_creation.py").read_text().replace(
            "torch.full(shape, value, dtype=torch.float32)", "torch.full(shape, value)")
        (solutions / "k01_creation.py").write_text(broken)
        again = read_until(process, f"score {K01_POINTS - K01['filled']}/{BOTH_POINTS}", timeout=30)
        assert "Next: k01_creation.filled" in again and "int64" in again and "Hint:" in again
        process.send_signal(signal.SIGINT)
        rest = rest_of_output(process)
        assert process.returncode == 0 and "stopped watching" in rest and "Traceback" not in rest
        assert (solutions / "k01_creation.py").read_text() == broken
    finally:
        if process.poll() is None:
            process.kill()


@pytest.mark.e2e
def test_watch_survives_a_hang_and_explains_a_crash_with_its_own_output_only(solutions):
    """A save that crashes shows what that run wrote, never an earlier run's output (on Linux the
    runs share a zygote); a save that hangs is cut short, and the next save is graded as usual;
    a folder replaced as a whole is graded anew."""
    reference = (ROOT / "reference" / "k01_creation.py").read_text()
    kata = solutions / "k01_creation.py"
    command = [sys.executable, "grade.py", "watch", "k01", "--solutions", str(solutions), "--lang", "en",
               "--interval", "0.2"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        read_until(process, "watching")
        kata.write_text(reference + "\nimport os\nos.write(1, b'EARLIER-RUN-OUTPUT')\n")
        read_until(process, f"score {K01_POINTS}/{BOTH_POINTS}", timeout=60)   # and on to k02
        kata.write_text(reference + "\ndef filled(shape, value):\n    import os\n    os.write(1, b'THIS-RUN-OUTPUT')\n"
                                    "    os._exit(7)\n")
        crashed = read_until(process, f"score {K01_POINTS - K01['filled']}/{BOTH_POINTS}", timeout=60)
        assert "THIS-RUN-OUTPUT" in crashed and "EARLIER-RUN-OUTPUT" not in crashed, crashed
        kata.write_text(reference + "\ndef filled(shape, value):\n    while True:\n        pass\n")
        hung = read_until(process, f"score {K01_POINTS - K01['filled']}/{BOTH_POINTS}", timeout=60)
        assert "filled" in hung and "took longer" in hung, hung
        kata.write_text(reference)
        read_until(process, f"score {K01_POINTS}/{BOTH_POINTS}", timeout=60)
        # The folder replaced as a whole (a checkout, a restore): the new files are graded.
        solutions.rename(solutions.with_name("old-katas"))
        shutil.copytree(ROOT / "katas", solutions)
        read_until(process, f"score 0/{BOTH_POINTS}", timeout=60)
        process.send_signal(signal.SIGINT)
        rest_of_output(process)
        assert process.returncode == 0
    finally:
        if process.poll() is None:
            process.kill()


@pytest.fixture
def project(tmp_path):
    """A copy of what ``grade.py reset`` reads and writes (harness, curriculum, answer key, katas/,
    and reference/ to show it stays untouched): reset always writes the katas/ beside its grade.py."""
    root = tmp_path / "project"
    for name in ("kata_harness", "curriculum", "katas", "reference"):
        shutil.copytree(ROOT / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "answer_key.dat", root / "tests")
    shutil.copy(ROOT / "grade.py", root)
    return root


def _reset(project, *args):
    """A real ``python grade.py reset ARGS`` of the copy ``project`` (no torch: reset is light): its
    bootstrap, its refusals printed once with exit status 2."""
    return subprocess.run([sys.executable, str(project / "grade.py"), "reset", *args], capture_output=True,
                          text=True, timeout=60, cwd=project)


def test_reset_one_function_keeps_the_rest_backs_up_the_file_and_says_how_to_undo(project):
    kata = project / "katas" / "k01_creation.py"
    shutil.copy(ROOT / "reference" / "k01_creation.py", kata)
    before = kata.read_text()
    done = reset_here(project, "k01_creation.filled", "--lang", "en")
    assert done.returncode == 0, done.stderr
    backup = project / done.stdout.split("saved to ")[1].split()[0]
    assert backup.parent == project / ".kata_backups" and backup.read_text() == before
    after = grade_here("k01", "--solutions", str(kata.parent), "--format", "json")
    statuses = [line for line in after.stdout.splitlines() if '"status"' in line]
    assert sum('"passed"' in line for line in statuses) == len(K01) - 1
    assert sum('"todo"' in line for line in statuses) == 1
    undo = done.stdout.split("to undo the reset, run: ")[1].splitlines()[0]
    assert str(backup.resolve()) in undo and str(kata.resolve()) in undo
    if sys.platform != "win32":   # the printed command itself, run in a shell, puts the file back
        subprocess.run(undo, shell=True, check=True, cwd=ROOT, timeout=30)
        assert kata.read_text() == before


def test_reset_a_kata_restores_the_stub_and_refuses_what_it_cannot_do_safely(project):
    kata = project / "katas" / "k01_creation.py"
    kata.write_text("def filled(:\n    pass\n")   # a syntax error: one function cannot be cut out
    refused = reset_here(project, "k01_creation.filled", "--lang", "en")
    assert refused.returncode == 2 and "nothing was changed" in refused.stderr
    assert kata.read_text() == "def filled(:\n    pass\n"
    done = reset_here(project, "k01", "--lang", "zh")
    assert done.returncode == 0 and "已备份到" in done.stdout and "要撤销这次重置，请运行：" in done.stdout
    backup = project / done.stdout.split("已备份到 ")[1].split()[0]
    assert backup.read_text() == "def filled(:\n    pass\n"
    assert kata.read_text() == (ROOT / "katas" / "k01_creation.py").read_text()


@pytest.mark.e2e
def test_reset_never_writes_outside_katas(project):
    """`reset k01 --solutions reference` once overwrote the reference with the stub: reset takes no
    --solutions, and a kata file that links elsewhere is refused (by a real grade.py: the reset
    that writes only where it may is the promise worth a process)."""
    reference = project / "reference" / "k01_creation.py"
    solved = reference.read_text()
    refused = _reset(project, "k01", "--solutions", "reference", "--lang", "en")
    assert refused.returncode == 2 and "never writes into another folder" in refused.stderr, refused.stderr
    assert reference.read_text() == solved and not (project / ".kata_backups").exists()
    if sys.platform != "win32":
        kata = project / "katas" / "k01_creation.py"
        kata.unlink()
        kata.symlink_to(reference)
        linked = _reset(project, "k01", "--lang", "en")
        assert linked.returncode == 2 and "nothing was changed" in linked.stderr, linked.stderr
        assert reference.read_text() == solved


@pytest.mark.parametrize("env, expected", [
    ({"KATA_LANG": "zh"}, "得分"), ({"KATA_LANG": "en", "LANG": "zh_CN.UTF-8"}, "score"),
    ({"LANG": "zh_CN.UTF-8"}, "得分"), ({"LANG": "C.UTF-8"}, "score"),
])
def test_language_from_kata_lang_then_locale(env, expected):
    unset = dict.fromkeys(("KATA_LANG", "LANG", "LC_ALL", "LC_MESSAGES"))
    done = grade_here("k15", env={**unset, **env})
    assert done.stdout.strip().splitlines()[-1].startswith(expected)


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert use_colour(_Terminal()) and not use_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(_Terminal())
    piped = grade_here("k01")
    assert "\033[" not in piped.stdout


@pytest.mark.e2e
def test_pytest_on_a_kata_file_runs_that_katas_checks():
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "katas/k05_devices.py"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert "k05_devices.add_bias [cpu]" in done.stdout and "k01_creation" not in done.stdout
    assert "not implemented yet" in done.stdout
    solved = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--solutions",
                             "reference", "reference/k05_devices.py"], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert solved.returncode == 0 and " passed" in solved.stdout


# --- watch: a save in progress waits, a newer save cuts the stale run short ------------------------

class _FakeClock:
    """A clock that only moves when watch sleeps, and a hook that runs at each of those sleeps."""

    def __init__(self, at_sleep=lambda now: None):
        self.now, self.at_sleep, self.slept = 0.0, at_sleep, 0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        self.slept += 1
        self.at_sleep(self.now)


def test_watch_waits_for_a_save_in_progress_to_be_complete(tmp_path):
    """An editor truncates the file, then writes it: watch does not grade the empty file (which
    would say "has no function") but the complete one, as soon as it parses with its functions."""
    from kata_harness.commands.watch import STAMP, _stat, settle

    kata = tmp_path / "k01_creation.py"
    kata.write_text("")                                   # truncated: parses, but defines nothing
    names = list(K01)
    full = (ROOT / "reference" / "k01_creation.py").read_text()
    clock = _FakeClock(lambda now: kata.write_text(full) if now > 0.12 and kata.read_text() == "" else None)
    stamp = settle(kata, names, _stat(kata, STAMP), clock=clock, sleep=clock.sleep)
    assert stamp == _stat(kata, STAMP) and kata.read_text() == full
    assert clock.now < 0.5, "graded as soon as the save was complete, not after waiting out the quiet time"
    # Complete at once: no waiting at all.
    ready = _FakeClock()
    settle(kata, names, _stat(kata, STAMP), clock=ready, sleep=ready.sleep)
    assert ready.slept == 0


def test_watch_grades_a_real_mistake_once_the_file_stays_unchanged(tmp_path):
    """A syntax error, or a deleted function, that stays is shown after the quiet time: the wait
    never hides a real mistake."""
    from kata_harness.commands.watch import QUIET, STAMP, _stat, settle

    kata = tmp_path / "k01_creation.py"
    kata.write_text("def filled(:\n")
    clock = _FakeClock()
    settle(kata, list(K01), _stat(kata, STAMP), clock=clock, sleep=clock.sleep)
    assert QUIET <= clock.now < QUIET + 0.2


class _HangingJob:
    """A learner job that never answers (a fake: no process)."""

    output_tail = ""

    def __init__(self):
        self.stopped = None

    def send(self, job):
        pass

    def next_event(self, timeout):
        time.sleep(min(timeout, 0.02))   # the job never answers
        raise queue.Empty

    def stop(self, clean=True):
        self.stopped = clean

    def death_reason(self):
        return "killed"


class _FakeLane:
    """A lane whose every job hangs."""

    def __init__(self):
        self.handles = []

    def start(self):
        pass

    def submit(self, job):
        self.handles.append(_HangingJob())
        return self.handles[-1]

    def serves(self, handle):
        return handle in self.handles

    def stop(self):
        pass



def test_a_newer_save_cuts_a_hanging_run_short_at_once(tmp_path):
    """While a kata is graded, its file is saved again: the run (here a job that would hang for its
    whole time limit) is cancelled at once, nothing of it is shown, and no further job is sent."""
    import threading

    from kata_harness.commands.watch import Display, Watcher
    from kata_harness.judging.expectations import Recorded
    from kata_harness.judging.integrity import Integrity

    katas = [k for k in load_curriculum(LAYOUT.curriculum) if k.name == "k01_creation"]
    functions = katas[0].functions
    out = io.StringIO()
    known = {f.qualified: {"observations": {"cpu": []}, "devices": ["cpu"]} for f in functions}
    lane = _FakeLane()
    watcher = Watcher(katas, functions, tmp_path, Recorded(known), Display("en", "katas", Integrity(True, []), out=out),
                      lane=lane)
    saved_again = threading.Event()
    threading.Timer(0.2, saved_again.set).start()
    started = time.monotonic()
    shown = watcher.regrade("k01_creation", superseded=saved_again.is_set)
    took = time.monotonic() - started
    assert shown is False and out.getvalue() == ""
    assert took < 2.0, f"the stale run took {took:.1f} s: it waited for its time limit"
    assert lane.handles[0].stopped is False            # cut short: its process is killed, not reused
    assert len(lane.handles) == 1                       # and no job was sent after it
    assert watcher.grading.verdicts == {}               # nothing of the stale run is kept
