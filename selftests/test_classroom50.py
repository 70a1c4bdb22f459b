"""Classroom 50: ``grade.py release --classroom50 DIR`` and its autograder, run as Classroom 50's runner
runs it, offline.

Classroom 50's runner (``cli/gh-teacher/skeleton/dotgithub/scripts/runner.py`` in foundation50/classroom50)
extracts the assignment's bundle (``CLASSROOM/autograders/ASSIGNMENT/``, published as one .tar.gz of at
most 10 MB) into ``RUNNER_TEMP/classroom50-runtime/ASSIGNMENT/``, then runs ``python autograder.py``
with the student's checkout as the working folder and its identity in the environment (CLASSROOM,
ASSIGNMENT, SUBMISSION_TAG, USERNAME/OWNER, ASSIGNMENT_TYPE, COMMIT_URL, RELEASE_URL, REVIEW_URL,
CLASSROOM50_BUNDLE_DIR). A non-zero exit is recorded as an error of 0 out of 0; otherwise it reads
``./result.json`` and checks it (``validate_result``), and publishes ``./release-body.md`` as the
submission's release. ``_check_result`` below checks what its ``validate_result`` checks.
"""

import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from kata_harness.content.curriculum import load_curriculum
from kata_harness.isolation.sandbox import available
from kata_harness.layout import LAYOUT
from kata_harness.platforms.classroom50 import PACKED_LIMIT, runner_environment
from selftests.gradekit import ROOT, run
from selftests.once import built_once

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="Classroom 50 grades on Linux runners")

POINTS = {f.qualified: f.points for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions}
TOTAL_POINTS = sum(POINTS.values())
WRONG_FILLED = "\ndef filled(shape, value):\n    return torch.full(shape, value)\n"
FORGERY = '''
import json as _json, os as _os
_FORGED = {{"schema": "classroom50/result/v1", "score": 999, "max-score": 999,
           "tests": [{{"test-name": "forged", "passed": True, "score": 999, "max-score": 999}}]}}


def _forge():
    for folder in ({checkout!r}, _os.getcwd()):
        for name, text in (("result.json", _json.dumps(_FORGED)), ("release-body.md", "forged: 999/999")):
            try:
                with open(_os.path.join(folder, name), "w") as handle:
                    handle.write(text)
            except OSError:
                pass
    try:
        with open({output!r}, "a") as handle:
            handle.write("status=success\\nsummary=forged\\n")
    except OSError:
        pass


_forge()   # on import, and again in every call


def arange_inclusive(start, end):
    _forge()
    import torch
    return torch.arange(start, end + 1)
'''


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    """One Classroom 50 release (template and autograder) for all these tests."""
    def release(folder):
        done = run("release", "--classroom50", str(folder / "out"), timeout=900)
        assert done.returncode == 0, done.stderr
        assert "checked" in done.stdout

    return built_once(tmp_path_factory, "classroom50-release", release) / "out"


def _check_result(result: dict) -> None:
    """What Classroom 50's runner and score collector accept (runner.py validate_result,
    schemas/result-v1.schema.json), plus our promise: one test per function, integer points
    summing to the suite's."""
    assert result["schema"] == "classroom50/result/v1"
    environment = runner_environment(ROOT, ROOT)
    assert result["classroom"] == environment["CLASSROOM"] and result["assignment"] == environment["ASSIGNMENT"]
    assert result["owner"] == environment["OWNER"] and result["assignment_type"] == "individual"
    assert result["submission"] == environment["SUBMISSION_TAG"] and result["submission"].startswith("submit/")
    for field in ("commit", "release", "review", "datetime"):
        assert isinstance(result[field], str) and result[field]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", result["datetime"])
    for field in ("score", "max-score"):
        assert type(result[field]) is int and result[field] >= 0
    assert result["score"] <= result["max-score"] == TOTAL_POINTS
    assert [test["test-name"] for test in result["tests"]] == list(POINTS)
    for test in result["tests"]:
        assert type(test["passed"]) is bool and type(test["score"]) is int and type(test["max-score"]) is int
        assert 0 <= test["score"] <= test["max-score"] == POINTS[test["test-name"]]
        assert test["score"] == (test["max-score"] if test["passed"] else 0)
    assert sum(test["score"] for test in result["tests"]) == result["score"]


def _checkout(released, tmp_path, solutions=()):
    """A student's checkout of the template, with the reference's modules in ``solutions``."""
    checkout = tmp_path / "checkout"
    shutil.copytree(released / "template", checkout)
    for name in solutions:
        shutil.copy(ROOT / "reference" / f"{name}.py", checkout / "katas" / f"{name}.py")
    return checkout


def _run_like_the_runner(released, checkout, tmp_path, python=sys.executable, env=None):
    """Run the autograder as Classroom 50's runner does; returns (result.json, release-body.md, the
    step's outputs, the log)."""
    bundle = tmp_path / "runtime" / "classroom50-runtime" / "practice"
    shutil.copytree(released / "autograder", bundle)
    output = tmp_path / "github_output"
    output.write_text("")
    for name in ("result.json", "release-body.md"):   # the runner deletes those of an earlier run
        (checkout / name).unlink(missing_ok=True)
    environment = {**runner_environment(checkout, bundle), "GITHUB_OUTPUT": str(output),
                   "RUNNER_TEMP": str(tmp_path / "runtime"), **(env or {})}
    done = subprocess.run([str(python), str(bundle / "autograder.py")], cwd=checkout, capture_output=True,
                          text=True, timeout=900, env=environment)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]   # else recorded as an error 0/0
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
    return (json.loads((checkout / "result.json").read_text(encoding="utf-8")),
            (checkout / "release-body.md").read_text(encoding="utf-8"), outputs, done.stdout + done.stderr)


@pytest.mark.e2e
def test_the_template_is_the_student_template_without_the_practice_workflow(released):
    template = released / "template"
    for name in ("grade.py", "README.md", "katas/k01_creation.py", "tests/answer_key.dat",
                 ".devcontainer/devcontainer.json"):
        assert (template / name).is_file(), name
    assert not (template / ".github").exists()             # Classroom 50 adds its own workflow at accept
    assert not (template / "reference").exists()
    assert not (template / "grading-manifest.json").exists()   # its accept adds files a manifest would flag


@pytest.mark.e2e
def test_the_autograder_holds_what_grading_needs_and_nothing_secret(released, tmp_path):
    bundle = released / "autograder"
    assert (bundle / "autograder.py").is_file() and (bundle / "grade.py").is_file()
    assert (bundle / "pins.txt").read_bytes() == (ROOT / "templates" / "pins.txt").read_bytes()   # what it installs
    assert not (bundle / "reference").exists() and not (bundle / "tests" / "hidden_key.dat").exists()
    reference_sources = {path.read_bytes() for path in (ROOT / "reference").glob("k*.py")}
    assert not [path for path in bundle.rglob("*.py") if path.read_bytes() in reference_sources]
    packed = tmp_path / "practice.tar.gz"   # as Classroom 50's publish-pages workflow packs it
    with tarfile.open(packed, "w:gz") as archive:
        archive.add(bundle, arcname="practice")
    print(f"autograder packed: {packed.stat().st_size} bytes")
    assert packed.stat().st_size <= PACKED_LIMIT


@pytest.mark.e2e
def test_run_as_the_runner_runs_it_it_writes_the_result_and_the_report(released, tmp_path):
    checkout = _checkout(released, tmp_path, [path.stem for path in (ROOT / "reference").glob("k*.py")])
    with (checkout / "katas" / "k01_creation.py").open("a") as handle:
        handle.write(WRONG_FILLED)
    result, body, outputs, _ = _run_like_the_runner(released, checkout, tmp_path)
    _check_result(result)
    assert result["score"] == TOTAL_POINTS - POINTS["k01_creation.filled"]
    assert [test["test-name"] for test in result["tests"] if not test["passed"]] == ["k01_creation.filled"]
    assert outputs == {"status": "failure", "summary": f"katas: {result['score']}/{TOTAL_POINTS}"}
    filled = next(f for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions if f.qualified == "k01_creation.filled")
    assert body.count("| ✅ |") == len(POINTS) - 1 and "| ❌ | `filled` | 0/1 |" in body   # a table per kata
    assert len(re.findall(r"(?m)^### k\d\d_", body)) == len(load_curriculum(LAYOUT.curriculum))
    assert filled.pitfall("dtype")["en"] in body and body.count("<details") == 1   # the first failure in full


@pytest.mark.e2e
@pytest.mark.parametrize("sandbox", ["bubblewrap", "none"])
def test_a_submission_that_writes_result_json_itself_earns_nothing(released, tmp_path, sandbox):
    """Learner code runs only in grade.py's children: sandboxed, it cannot reach the checkout at all;
    unsandboxed, what it writes there is replaced once grading is over."""
    if sandbox == "bubblewrap" and not available():
        pytest.skip("bubblewrap does not work here")
    checkout = _checkout(released, tmp_path, ["k03_dtypes"])
    stub = (checkout / "katas" / "k01_creation.py").read_text(encoding="utf-8")
    (checkout / "katas" / "k01_creation.py").write_text(
        stub + FORGERY.format(checkout=str(checkout), output=str(tmp_path / "github_output")), encoding="utf-8")
    env = {"KATA_SANDBOX": "none"} if sandbox == "none" else {}
    result, body, outputs, log = _run_like_the_runner(released, checkout, tmp_path, env=env)
    _check_result(result)
    k03 = sum(points for name, points in POINTS.items() if name.startswith("k03_dtypes."))
    assert result["score"] == k03, log   # honest work counts, the forgery nothing
    assert "forged" not in body and outputs["summary"] == f"katas: {k03}/{TOTAL_POINTS}"
    assert outputs["status"] == "failure"   # the last status line is ours


@pytest.mark.e2e
def test_when_grading_fails_it_still_exits_0_with_0_of_the_real_maximum(released, tmp_path):
    """A Python without PyTorch and without pip (as when installing fails): the autograder exits 0, so
    that the runner publishes its result, 0 out of the real maximum, with the reason in the report."""
    bare = tmp_path / "bare-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True, timeout=120)
    checkout = _checkout(released, tmp_path, ["k01_creation"])
    result, body, outputs, _ = _run_like_the_runner(released, checkout, tmp_path, python=bare / "bin" / "python")
    _check_result(result)
    assert result["score"] == 0 and outputs["status"] == "failure"   # published and collected, not an error
    assert "could not grade" in body and "torch==2.13.0" in body


# --- the budget, and whatever the checkout puts where the outputs go ----------------------------------

FAKE_PIP = '''"""A stand-in for pip: it records its pid, plants what FAKE_PIP says where the autograder's
outputs go (as learner code left running, or a checkout, could), sleeps, and fails."""
import json, os, sys, time

orders = json.loads(os.environ.get("FAKE_PIP", "{}"))
with open(orders["pids"], "a") as handle:
    handle.write(f"{os.getpid()}\\n")
for name, (kind, target) in orders.get("plant", {}).items():
    path = os.environ[name] if name == "GITHUB_OUTPUT" else os.path.join(os.environ["GITHUB_WORKSPACE"], name)
    if os.path.lexists(path):
        os.unlink(path)
    if kind == "folder":
        os.makedirs(os.path.join(path, "inner", "deeper"))
        with open(os.path.join(path, "inner", "kept.txt"), "w") as handle:
            handle.write("a file inside")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "link":
        os.symlink(target, path)
    elif kind == "unreadable":
        with open(path, "w") as handle:
            handle.write("def f():\\n    pass\\n")
        os.chmod(path, 0)
time.sleep(orders.get("sleep", 0))
sys.exit(1)
'''


@pytest.fixture(scope="module")
def fake_python(tmp_path_factory):
    """A Python without torch, whose ``python -m pip`` is FAKE_PIP (created once for the module)."""
    venv = tmp_path_factory.mktemp("fake-pip") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "pip").mkdir()
    (site / "pip" / "__init__.py").write_text("")
    (site / "pip" / "__main__.py").write_text(FAKE_PIP)
    return venv / "bin" / "python"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return not Path(f"/proc/{pid}/stat").exists() or Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


def _run_with_fake_pip(released, checkout, tmp_path, fake_python, orders, budget, timeout):
    """Run the autograder as the runner does, with FAKE_PIP's ``orders`` and a budget of ``budget``
    seconds; returns (elapsed seconds, result.json, release-body.md, the log, the pids pip had)."""
    bundle = tmp_path / "runtime" / "classroom50-runtime" / "practice"
    shutil.copytree(released / "autograder", bundle)
    output = tmp_path / "github_output"
    output.write_text("")
    pids = tmp_path / "pids.txt"
    environment = {**runner_environment(checkout, bundle), "GITHUB_OUTPUT": str(output),
                   "RUNNER_TEMP": str(tmp_path / "runtime"), "KATA_CLASSROOM50_BUDGET": str(budget),
                   "FAKE_PIP": json.dumps({**orders, "pids": str(pids)})}
    started = time.monotonic()
    done = subprocess.run([str(fake_python), str(bundle / "autograder.py")], cwd=checkout, capture_output=True,
                          text=True, timeout=timeout, env=environment)
    elapsed = time.monotonic() - started
    log = done.stdout + done.stderr
    assert done.returncode == 0, log[-3000:]
    for name in ("result.json", "release-body.md"):   # what the runner reads: regular files of our own
        assert stat.S_ISREG((checkout / name).lstat().st_mode), name
    return (elapsed, json.loads((checkout / "result.json").read_text(encoding="utf-8")),
            (checkout / "release-body.md").read_text(encoding="utf-8"), log,
            [int(pid) for pid in pids.read_text().split()])


@pytest.mark.e2e
def test_a_slow_install_leaves_the_time_to_write_the_result(released, tmp_path, fake_python):
    """Classroom 50's grade job has 15 minutes. A pip that never ends gets what is left of the
    autograder's budget (13 minutes; 8 s here) and is then killed, and the result, 0 of the real
    maximum with the reason, is written in time. Without the budget it would wait 420 s."""
    budget = 8
    checkout = _checkout(released, tmp_path)
    elapsed, result, body, log, pids = _run_with_fake_pip(released, checkout, tmp_path, fake_python,
                                                          {"sleep": 600}, budget, timeout=budget + 30)
    print(f"autograder with a pip that never ends: {elapsed:.1f} s of a {budget} s budget")
    assert budget * 0.6 < elapsed < budget + 3, log   # it waited for pip, then stopped it in time
    _check_result(result)
    assert result["score"] == 0 and not any(test["passed"] for test in result["tests"])
    assert "pip install torch==2.13.0 did not finish within" in body and f"{budget} s in all" in body
    assert pids and not any(_alive(pid) for pid in pids)   # killed, not left running


HOSTILE_KATAS = {"k01_creation.py": "fifo", "k02_creation_traps.py": "folder", "k03_dtypes.py": "link",
                 "k04_promotion.py": "unreadable"}
# (when, what is at result.json, at release-body.md, and at the step's output file)
OUTPUT_CASES = {"committed: folder and link": ("in the checkout", "folder", "link", None),
                "committed: link and FIFO, katas a link": ("in the checkout", "link", "fifo", None),
                "planted while it runs: FIFOs and a folder": ("during the run", "fifo", "folder", "fifo"),
                "planted while it runs: links": ("during the run", "link", "link", None)}


def _plant(fake_python, tmp_path, workspace, plant):
    """Put ``plant`` ({name: [kind, link target]}) into ``workspace`` as FAKE_PIP does."""
    subprocess.run([str(fake_python), "-m", "pip"], cwd=tmp_path, check=False, timeout=60, env={
        **os.environ, "GITHUB_WORKSPACE": str(workspace),
        "FAKE_PIP": json.dumps({"pids": str(tmp_path / "planting"), "plant": plant})})


@pytest.mark.e2e
@pytest.mark.parametrize("case", OUTPUT_CASES)
def test_whatever_is_where_the_outputs_go_the_result_is_written_and_nothing_else(released, tmp_path, fake_python, case):
    """Folders, FIFOs and links to files outside the checkout named result.json and release-body.md,
    committed or put there by a process while the autograder runs, a FIFO for the step's output file;
    kata files that are FIFOs, folders, links (to /etc/passwd) or unreadable, a ``katas`` that is a link: the autograder exits 0
    with a valid result.json of 0 out of the real maximum, never waits on a FIFO and never writes
    through a link."""
    when, result_kind, body_kind, output_kind = OUTPUT_CASES[case]
    checkout = _checkout(released, tmp_path)
    outside, other = tmp_path / "outside.txt", tmp_path / "other.txt"
    outside.write_text("not yours")
    other.write_text("not yours")
    passwd = hashlib.sha256(Path("/etc/passwd").read_bytes()).hexdigest()   # what a kata file links to
    plant = {"result.json": [result_kind, str(outside)], "release-body.md": [body_kind, str(other)]}
    orders: dict = {}
    linked = case.endswith("katas a link")
    if when == "in the checkout":
        _plant(fake_python, tmp_path, checkout, plant)
        _plant(fake_python, tmp_path, checkout / "katas",
               {name: [hostile, "/etc/passwd"] for name, hostile in HOSTILE_KATAS.items()})
        if linked:   # katas/ itself a link to a folder of solved katas elsewhere
            shutil.move(checkout / "katas", tmp_path / "hostile-katas")
            shutil.copytree(ROOT / "reference", tmp_path / "elsewhere")
            (checkout / "katas").symlink_to(tmp_path / "elsewhere")
    else:
        orders = {"plant": {**plant, **({"GITHUB_OUTPUT": [output_kind, ""]} if output_kind else {})}}
    _, result, body, log, _ = _run_with_fake_pip(released, checkout, tmp_path, fake_python, orders, 60, timeout=60)
    _check_result(result)
    assert result["score"] == 0 and "could not grade" in body
    assert outside.read_text() == other.read_text() == "not yours"
    assert hashlib.sha256(Path("/etc/passwd").read_bytes()).hexdigest() == passwd
    if linked:
        assert "katas: a link, so every kata is graded as not implemented" in body
    elif when == "in the checkout":
        for name, hostile in HOSTILE_KATAS.items():
            if hostile != "unreadable" or os.geteuid() != 0:   # root reads a file of mode 000
                assert f"katas/{name}: left out" in body, (name, body[-2000:])


@pytest.mark.e2e
def test_release_refuses_a_folder_inside_the_project_or_a_non_empty_one(tmp_path):
    inside = run("release", "--classroom50", str(ROOT / "katas" / "out"))
    assert inside.returncode == 2 and "inside this project" in inside.stderr
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "keep.txt").write_text("mine")
    busy = run("release", "--classroom50", str(tmp_path / "busy"))
    assert busy.returncode == 2 and "not empty" in busy.stderr and (tmp_path / "busy" / "keep.txt").exists()
