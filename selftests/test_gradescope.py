"""Gradescope: ``grade.py release --gradescope ZIP`` and its run_autograder on a simulated /autograder.

Each test unpacks the zip into a fresh tree (``source/`` as Gradescope unpacks it, ``submission/``
as a student submits), runs ``run_autograder`` with AUTOGRADER_ROOT pointing at that tree, and
reads ``results/results.json``.
"""

import json
import os
import shutil
import stat
import subprocess
import sys
import zipfile

import pytest

from kata_harness.content.curriculum import load_curriculum
from kata_harness.layout import LAYOUT
from selftests.gradekit import ROOT, run
from selftests.once import built_once

# The workflow step and run_autograder are bash scripts, run as Linux runners run them.
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs bash")

POINTS = {f.qualified: f.points for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions}
KATA_POINTS = {kata.name: sum(f.points for f in kata.functions) for kata in load_curriculum(LAYOUT.curriculum)}
TOTAL_POINTS = sum(POINTS.values())
VISIBILITY = "after_published"   # what the module's zip is released with


@pytest.fixture(scope="module")
def autograder_zip(tmp_path_factory):
    """One autograder zip for all these tests (the release grades the reference once to check it)."""
    def release(folder):
        done = run("release", "--gradescope", str(folder / "autograder.zip"), "--visibility", VISIBILITY,
                   timeout=900)
        assert done.returncode == 0, done.stderr
        assert "checked" in done.stdout

    return built_once(tmp_path_factory, "gradescope-release", release) / "autograder.zip"


def _tree(autograder_zip, tmp_path):
    """A simulated /autograder: the zip unpacked into source/, an empty submission/."""
    root = tmp_path / "autograder"
    with zipfile.ZipFile(autograder_zip) as archive:
        archive.extractall(root / "source")
    (root / "submission").mkdir()
    return root


def _run_autograder(root, python=sys.executable, env=None):
    """Run run_autograder as Gradescope would; returns (results.json, its output)."""
    environment = {**os.environ, "AUTOGRADER_ROOT": str(root), "KATA_PYTHON": str(python), **(env or {})}
    done = subprocess.run(["bash", str(root / "source" / "run_autograder")], capture_output=True, text=True,
                          timeout=900, env=environment)
    assert done.returncode == 0, done.stderr
    return json.loads((root / "results" / "results.json").read_text(encoding="utf-8")), done.stdout + done.stderr


def _scores(results):
    return {test["name"]: test["score"] for test in results["tests"]}


@pytest.mark.e2e
def test_zip_has_the_scripts_at_its_root_and_the_reference(autograder_zip, tmp_path):
    with zipfile.ZipFile(autograder_zip) as archive:
        modes = {entry.filename: entry.external_attr >> 16 for entry in archive.infolist()}
        settings = json.loads(archive.read("gradescope.json"))
    for script in ("setup.sh", "run_autograder"):
        assert modes[script] & stat.S_IXUSR, script   # Gradescope runs them
    for name in ("grade_submission.py", "grade.py", "pyproject.toml", "README.md", "katas/k01_creation.py",
                 "reference/k01_creation.py", "tests/test_k01_creation.py", "curriculum/k01_creation.toml",
                 "kata_harness/judging/judge.py"):
        assert name in modes, name
    assert not [name for name in modes if "__pycache__" in name or name.endswith(".pyc")]
    assert settings == {"visibility": VISIBILITY, "lang": "en"}
    root = _tree(autograder_zip, tmp_path)
    setup = (root / "source" / "setup.sh").read_text()
    assert "apt-get install -y bubblewrap" in setup
    assert (root / "source" / "pins.txt").read_bytes() == (ROOT / "templates" / "pins.txt").read_bytes()
    assert "useradd --system" in setup and "kata-student" in setup   # learner code never runs as root
    for script in ("setup.sh", "run_autograder"):
        assert subprocess.run(["bash", "-n", str(root / "source" / script)]).returncode == 0, script


FAKE_TOOL = """#!/bin/sh
echo "$(basename "$0") $*" >> "$KATA_SETUP_LOG"
"""
FAKE_PYTHON = """#!/bin/sh
echo "$(basename "$0") $*" >> "$KATA_SETUP_LOG"
case "$1" in
  -c) exit "$KATA_OLD_PYTHON" ;;   # the version check: 1 answers "older than 3.11"
  -m) if [ "$2" = venv ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; fi ;;
esac
"""


@pytest.mark.e2e
@pytest.mark.parametrize("old_python", [False, True], ids=["python 3.12", "python 3.10"])
def test_setup_installs_every_package_at_its_pinned_version(autograder_zip, tmp_path, old_python):
    """setup.sh run with stand-ins for apt-get, useradd and Python that record what they are asked:
    the CPU build of the pinned torch, then every package of pins.txt, wheels only, into the venv;
    the project itself is not installed. Where python3 is older than 3.11 (Ubuntu 22.04), Python 3.11."""
    root = _tree(autograder_zip, tmp_path)
    tools, log = tmp_path / "tools", tmp_path / "setup.log"
    tools.mkdir()
    for name in ("apt-get", "useradd", "id"):
        (tools / name).write_text(FAKE_TOOL)
    for name in ("python3", "python3.11"):
        (tools / name).write_text(FAKE_PYTHON)
    for tool in tools.iterdir():
        tool.chmod(0o755)
    done = subprocess.run(["bash", str(root / "source" / "setup.sh")], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PATH": f"{tools}{os.pathsep}/usr/bin:/bin", "AUTOGRADER_ROOT": str(root),
                               "KATA_SETUP_LOG": str(log), "KATA_OLD_PYTHON": "1" if old_python else "0"})
    assert done.returncode == 0, done.stderr[-2000:]
    calls = log.read_text().splitlines()
    pip = [call for call in calls if call.startswith("python -m pip")]
    pins = root / "source" / "pins.txt"
    assert pip == ["python -m pip install --only-binary :all: torch==2.13.0 --index-url "
                   "https://download.pytorch.org/whl/cpu", f"python -m pip install --only-binary :all: -r {pins}"]
    venv = "python3.11 -m venv" if old_python else "python3 -m venv"
    assert [call for call in calls if " -m venv " in call] == [f"{venv} {root / 'venv'}"]
    assert ("apt-get install -y python3.11 python3.11-venv" in calls) == old_python


@pytest.mark.e2e
def test_loose_files_are_graded_and_links_are_not_followed(autograder_zip, tmp_path):
    root = _tree(autograder_zip, tmp_path)
    submission = root / "submission"
    for kata in ("k01_creation", "k03_dtypes"):
        shutil.copy(ROOT / "reference" / f"{kata}.py", submission / f"{kata}.py")
    (submission / "notes.txt").write_text("my notes")
    # A link to the autograder's own reference would earn full marks if it were followed.
    (submission / "k05_devices.py").symlink_to(root / "source" / "reference" / "k05_devices.py")
    results, log = _run_autograder(root)
    scores = _scores(results)
    assert results["score"] == KATA_POINTS["k01_creation"] + KATA_POINTS["k03_dtypes"]
    assert all(scores[name] == POINTS[name] for name in POINTS if name.startswith(("k01_", "k03_")))
    assert all(scores[name] == 0 for name in POINTS if name.startswith("k05_"))
    assert "`k01_creation.py`" in results["output"] and "k05_devices.py" in results["output"]   # graded, missing
    assert f"score {results['score']}/{TOTAL_POINTS}" in results["output"] and results["output_format"] == "md"
    assert results["visibility"] == VISIBILITY
    assert all(test["visibility"] == VISIBILITY and test["tags"] == [test["name"].split(".")[0]]
               for test in results["tests"])
    assert results["execution_time"] > 0 and "grading" in log


@pytest.mark.e2e
def test_katas_folder_with_a_hanging_function_costs_only_that_function(autograder_zip, tmp_path):
    root = _tree(autograder_zip, tmp_path)
    shutil.copytree(ROOT / "reference", root / "submission" / "repo" / "katas")
    with (root / "submission" / "repo" / "katas" / "k03_dtypes.py").open("a") as handle:
        handle.write("\ndef mean_value(x):\n    import time\n    time.sleep(1000)\n")
    # A loose copy of a stub beside the repository: the file in katas/ wins.
    shutil.copy(ROOT / "katas" / "k01_creation.py", root / "submission" / "k01_creation.py")
    results, _ = _run_autograder(root)
    scores = _scores(results)
    assert scores["k03_dtypes.mean_value"] == 0 and "stopped" in _outputs(results)["k03_dtypes.mean_value"]
    assert results["score"] == TOTAL_POINTS - POINTS["k03_dtypes.mean_value"]
    assert results["execution_time"] >= 5   # the wall time, with the hang's 5 s limit in it


def _outputs(results):
    return {test["name"]: test["output"] for test in results["tests"]}


@pytest.mark.e2e
def test_empty_submission_gets_zero_and_says_what_was_expected(autograder_zip, tmp_path):
    root = _tree(autograder_zip, tmp_path)
    (root / "submission" / "README.md").write_text("nothing to see")
    results, _ = _run_autograder(root)
    assert results["score"] == 0 and results["tests"] == []
    assert "No kata files were found" in results["output"] and "k15_bmi.py" in results["output"]
    assert "`katas/`" in results["output"] and "没有找到练习文件" in results["output"]


@pytest.mark.e2e
def test_results_are_written_when_grade_py_crashes_or_python_is_missing(autograder_zip, tmp_path):
    root = _tree(autograder_zip, tmp_path)
    shutil.copy(ROOT / "reference" / "k01_creation.py", root / "submission" / "k01_creation.py")
    (root / "source" / "grade.py").write_text("raise SystemExit('broken on purpose')\n")
    results, log = _run_autograder(root)
    assert results["score"] == 0 and "could not grade this submission" in results["output"]
    assert "broken on purpose" in log   # the instructor's log says why
    results, log = _run_autograder(root, python=tmp_path / "no-such-python")
    assert results["score"] == 0 and "failed before it could grade" in results["output"]


@pytest.mark.e2e
def test_release_refuses_a_zip_inside_the_project_or_over_an_existing_file(tmp_path):
    assert run("release", "--gradescope", str(ROOT / "reference" / "autograder.zip")).returncode == 2
    assert not (ROOT / "reference" / "autograder.zip").exists()
    existing = tmp_path / "autograder.zip"
    existing.write_text("mine")
    refused = run("release", "--gradescope", str(existing))
    assert refused.returncode == 2 and "--force" in refused.stderr and existing.read_text() == "mine"
    nothing = run("release")
    assert nothing.returncode == 2 and "--gradescope" in nothing.stderr


def _can_run_as(user):
    """Whether this is root, ``user`` exists, and it can run this interpreter and import torch
    (as on Gradescope, where the virtual environment is readable by all)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return False
    import pwd
    try:
        entry = pwd.getpwnam(user)
        done = subprocess.run([sys.executable, "-c", "import torch"], user=entry.pw_uid, group=entry.pw_gid,
                              extra_groups=[], cwd="/", capture_output=True, timeout=120)
    except (KeyError, OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


ATTACKS_AS_ROOT = """
REFERENCE = {reference!r}
RESULTS = {results!r}
ANSWER_KEY = {answer_key!r}


def mask_like(x):
    # The answer key holds every public call's result: looked up, it passes without computing.
    open(ANSWER_KEY, "rb").read()
    raise RuntimeError("the answer key was readable")


def filled(shape, value):
    # The autograder's own reference, run from its file (import reference is refused).
    namespace = {{}}
    exec(open(REFERENCE).read(), namespace)
    return namespace["filled"](shape, value)


def evenly_spaced(start, end, count):
    # A forged results.json, then the grader killed before it can write the real one.
    import json, os, signal
    with open(RESULTS, "w") as forged:
        json.dump({{"score": 999, "tests": [{{"name": "forged", "score": 999}}]}}, forged)
    os.kill(os.getppid(), signal.SIGKILL)
"""


@pytest.mark.e2e
def test_without_bubblewrap_learner_code_runs_as_an_unprivileged_user(autograder_zip):
    """Where bubblewrap cannot run (Docker, as on Gradescope), learner code runs as KATA_RUN_AS's
    user: it can neither read the reference or the answer key, nor kill the grader, nor write
    results.json."""
    import tempfile
    from pathlib import Path

    if not _can_run_as("nobody"):
        pytest.skip("needs root, and a user `nobody` that can run this interpreter")
    top = Path(tempfile.mkdtemp(prefix="kata-gradescope-"))   # traversable by others, unlike tmp_path
    try:
        top.chmod(0o755)
        root = _tree(autograder_zip, top)
        (root / "results").mkdir()
        attack = (ROOT / "katas" / "k01_creation.py").read_text(encoding="utf-8") + ATTACKS_AS_ROOT.format(
            reference=str(root / "source" / "reference" / "k01_creation.py"),
            results=str(root / "results" / "results.json"),
            answer_key=str(root / "source" / "tests" / "answer_key.dat"))
        (root / "submission" / "k01_creation.py").write_text(attack, encoding="utf-8")
        shutil.copy(ROOT / "reference" / "k03_dtypes.py", root / "submission" / "k03_dtypes.py")
        results, log = _run_autograder(root, env={"KATA_SANDBOX": "none", "KATA_RUN_AS": "nobody"})
        scores = _scores(results)
        assert set(scores) == set(POINTS), log   # the grader survived and graded everything
        assert scores["k01_creation.filled"] == 0 and scores["k01_creation.evenly_spaced"] == 0
        assert "Permission" in _outputs(results)["k01_creation.filled"]
        assert "Permission" in _outputs(results)["k01_creation.mask_like"]
        assert results["score"] == KATA_POINTS["k03_dtypes"]   # honest work still counts
        assert stat.S_IMODE((root / "source" / "reference").stat().st_mode) == 0o700
    finally:
        shutil.rmtree(top, ignore_errors=True)
