"""Runs where learners are: every command with the POSIX-only APIs removed (as on Windows), with
or without an installed copy of the harness, and with an interpreter that has no torch.

The Windows stand-in is ``selftests/winlike/sitecustomize.py`` (a startup hook that deletes
``os.fork``, ``os.killpg``, ``os.setsid``, ``signal.SIGKILL``, ``signal.SIGALRM`` and makes ``Popen``
refuse ``pass_fds`` as CPython does on Windows), given by the ``winlike`` fixture of conftest.py.
Windows has no bubblewrap, so these runs are unsandboxed.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kata_harness.content.curriculum import load_curriculum
from kata_harness.layout import LAYOUT
from selftests.gradekit import ROOT, read_until, rest_of_output, solutions_from_reference

K01_POINTS = sum(f.points for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions if kata.name == "k01_creation")


def _grade(root: Path, env: dict, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(root / "grade.py"), *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=root)


def _project_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    copy.mkdir()
    for name in ("grade.py", "pyproject.toml", "conftest.py"):
        shutil.copy2(ROOT / name, copy / name)
    for name in ("kata_harness", "tests", "curriculum", "katas", "reference", "docs", "templates", ".github"):
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return copy


def test_the_hook_really_removes_the_posix_apis(winlike):
    probe = ("import os, signal, subprocess, sys\n"
             "print(hasattr(os, 'fork'), hasattr(os, 'killpg'), hasattr(os, 'setsid'), hasattr(signal, 'SIGKILL'),"
             " hasattr(signal, 'SIGALRM'))\n"
             "try:\n    subprocess.run([sys.executable, '-c', ''], pass_fds=(0,))\n"
             "except AssertionError as refused:\n    print(refused)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=winlike)
    assert done.stdout.splitlines() == ["False False False False False", "pass_fds not supported on Windows."]


@pytest.mark.e2e
def test_grading_with_a_hang_and_a_crash_without_posix_apis(winlike, tmp_path):
    solutions = solutions_from_reference(tmp_path / "katas")
    target = solutions / "k01_creation.py"
    target.write_text(target.read_text() + textwrap.dedent("""
        def filled(shape, value):
            while True:
                pass
        def mask_like(x):
            import os
            os._exit(1)
    """))
    # Every kata: two serial children side by side where two cores are free (``api.SIDE_BY_SIDE_KATAS``).
    done = _grade(ROOT, winlike, "--solutions", str(solutions), "--format", "json", "--timeout", "5")
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads(done.stdout)
    statuses = {f"{k['kata']}.{f['name']}": f["status"] for k in doc["katas"] for f in k["functions"]}
    assert statuses.pop("k01_creation.filled") == "error" and statuses.pop("k01_creation.mask_like") == "error"
    assert set(statuses.values()) == {"passed"} and doc["sandbox"] == "none"


@pytest.mark.e2e
def test_freeze_release_and_batch_without_posix_apis(winlike, tmp_path):
    copy = _project_copy(tmp_path)
    done = _grade(copy, winlike, "freeze")
    assert done.returncode == 0, done.stderr[-2000:]
    template = tmp_path / "template"
    done = _grade(copy, winlike, "release", str(template))
    assert done.returncode == 0, done.stderr[-2000:]
    subs = tmp_path / "submissions"
    shutil.copytree(ROOT / "reference", subs / "solved")
    shutil.copytree(ROOT / "katas", subs / "stub")
    out = tmp_path / "book.json"
    done = _grade(copy, winlike, "batch", str(subs), "--out", str(out), "--no-sandbox", "-j", "2")
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {row["submission"]: row for row in json.loads(out.read_text())}
    assert rows["solved"]["score"] == rows["solved"]["max_score"] and rows["stub"]["score"] == 0


@pytest.mark.e2e
def test_watch_without_posix_apis(winlike, tmp_path):
    solutions = tmp_path / "katas"
    shutil.copytree(ROOT / "katas", solutions)
    process = subprocess.Popen([sys.executable, str(ROOT / "grade.py"), "watch", "k01", "--solutions", str(solutions),
                                "--lang", "en", "--interval", "0.2"], cwd=ROOT, env=winlike, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        read_until(process, "watching")
        shutil.copy(ROOT / "reference" / "k01_creation.py", solutions / "k01_creation.py")
        read_until(process, f"score {K01_POINTS}/{K01_POINTS}")
        process.send_signal(signal.SIGINT)
        rest = rest_of_output(process)
        assert "Traceback" not in rest and process.returncode == 0
    finally:
        if process.poll() is None:
            process.kill()


@pytest.mark.e2e
def test_an_installed_or_shadowing_harness_is_never_used(tmp_path):
    """A different `kata_harness` earlier on the import path (an old `pip install .`, a stray copy)
    changes nothing: grade.py and its children use the one beside grade.py."""
    fake = tmp_path / "site" / "kata_harness"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('the wrong kata_harness was imported')\n")
    env = {**os.environ, "PYTHONPATH": str(fake.parent)}
    done = _grade(ROOT, env, "k15", "--solutions", "reference", "--format", "json")
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads(done.stdout)
    assert doc["score"] == doc["max_score"] > 0


@pytest.mark.e2e
def test_without_torch_one_clear_line_and_a_failure_status():
    """An interpreter without torch (here: site-packages switched off): one line naming the
    interpreter and how to activate the environment, and a non-zero exit; nobody blames the reference."""
    done = subprocess.run([sys.executable, "-S", str(ROOT / "grade.py"), "k01"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and sys.executable in lines[0] and "PyTorch is not installed" in lines[0]
    assert "reference" not in done.stdout + done.stderr


@pytest.mark.e2e
@pytest.mark.skipif(sys.platform == "win32", reason="the bash/zsh activation is the one shown here")
def test_without_torch_the_line_names_the_activation_by_its_absolute_path(tmp_path):
    """Beside grade.py a `.venv`: the line says the exact command that activates it, wherever the
    learner stands; without one, it says that there is none yet and where to read how to make it."""
    project = tmp_path / "my katas"   # a space: the path must come quoted
    shutil.copytree(ROOT / "kata_harness", project / "kata_harness", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "grade.py", project)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def line():
        done = subprocess.run([sys.executable, "-S", str(project / "grade.py"), "k01"], capture_output=True,
                              text=True, cwd=elsewhere, timeout=60, env={**os.environ, "KATA_LANG": "en"})
        assert done.returncode == 3, done.stderr
        return done.stderr.strip()

    assert "has no virtual environment (.venv) yet" in line() and str(project) in line()
    (project / ".venv" / "bin").mkdir(parents=True)
    (project / ".venv" / "bin" / "activate").write_text("")
    assert f". '{project / '.venv' / 'bin' / 'activate'}'" in line(), line()
