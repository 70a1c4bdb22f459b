"""The learner's daily loop: watch mode, reset with backups, language choice, colour, pytest selection."""

import io
import shutil
import signal
import subprocess
import sys

import pytest

from kata_harness.content.curriculum import load_curriculum
from kata_harness.layout import LAYOUT
from kata_harness.outputs.text import use_colour
from selftests.gradekit import ROOT, read_until, rest_of_output, run
from selftests.warm import grade_here

K01 = {f.name: f.points for kata in load_curriculum() if kata.name == "k01_creation" for f in kata.functions}
K01_POINTS = sum(K01.values())


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
        broken = (ROOT / "reference" / "k01_creation.py").read_text().replace(
            "torch.full(shape, value, dtype=torch.float32)", "torch.full(shape, value)")
        (solutions / "k01_creation.py").write_text(broken)
        again = read_until(process, f"score {K01_POINTS - K01['filled']}/{K01_POINTS}", timeout=30)
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
        read_until(process, f"score {K01_POINTS}/{K01_POINTS}", timeout=60)
        kata.write_text(reference + "\ndef filled(shape, value):\n    import os\n    os.write(1, b'THIS-RUN-OUTPUT')\n"
                                    "    os._exit(7)\n")
        crashed = read_until(process, f"score {K01_POINTS - K01['filled']}/{K01_POINTS}", timeout=60)
        assert "THIS-RUN-OUTPUT" in crashed and "EARLIER-RUN-OUTPUT" not in crashed, crashed
        kata.write_text(reference + "\ndef filled(shape, value):\n    while True:\n        pass\n")
        hung = read_until(process, f"score {K01_POINTS - K01['filled']}/{K01_POINTS}", timeout=60)
        assert "filled" in hung and "took longer" in hung, hung
        kata.write_text(reference)
        read_until(process, f"score {K01_POINTS}/{K01_POINTS}", timeout=60)
        # The folder replaced as a whole (a checkout, a restore): the new files are graded.
        solutions.rename(solutions.with_name("old-katas"))
        shutil.copytree(ROOT / "katas", solutions)
        read_until(process, f"score 0/{K01_POINTS}", timeout=60)
        process.send_signal(signal.SIGINT)
        rest_of_output(process)
        assert process.returncode == 0
    finally:
        if process.poll() is None:
            process.kill()


@pytest.mark.e2e
def test_reset_one_function_keeps_the_rest_and_backs_up_the_file(solutions):
    kata = solutions / "k01_creation.py"
    shutil.copy(ROOT / "reference" / "k01_creation.py", kata)
    before = kata.read_text()
    done = run("reset", "k01_creation.filled", "--solutions", str(solutions), "--lang", "en")
    assert done.returncode == 0, done.stderr
    backup = ROOT / done.stdout.split("saved to ")[1].split()[0]
    try:
        assert backup.parent == LAYOUT.backups and backup.read_text() == before
        after = grade_here("k01", "--solutions", str(solutions), "--format", "json")
        assert '"status": "todo"' in after.stdout and "score" in after.stdout
        statuses = [line for line in after.stdout.splitlines() if '"status"' in line]
        assert sum('"passed"' in line for line in statuses) == len(K01) - 1
        assert sum('"todo"' in line for line in statuses) == 1
    finally:
        backup.unlink()


@pytest.mark.e2e
def test_reset_a_kata_restores_the_stub_and_refuses_what_it_cannot_do_safely(solutions):
    kata = solutions / "k01_creation.py"
    kata.write_text("def filled(:\n    pass\n")   # a syntax error: one function cannot be cut out
    refused = run("reset", "k01_creation.filled", "--solutions", str(solutions), "--lang", "en")
    assert refused.returncode == 2 and "nothing was changed" in refused.stderr
    assert kata.read_text() == "def filled(:\n    pass\n"
    done = run("reset", "k01", "--solutions", str(solutions), "--lang", "zh")
    assert done.returncode == 0 and "已备份到" in done.stdout
    backup = ROOT / done.stdout.split("已备份到 ")[1].split()[0]
    try:
        assert backup.read_text() == "def filled(:\n    pass\n"
        assert kata.read_text() == (ROOT / "katas" / "k01_creation.py").read_text()
    finally:
        backup.unlink()


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
