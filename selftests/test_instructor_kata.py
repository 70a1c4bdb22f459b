"""An instructor drops in a kata of their own (stub, reference, test module, curriculum entry):
the suite picks it up without further wiring, and freeze and release include it."""

import shutil
import subprocess
import sys

import pytest

from selftests.gradekit import ROOT
from selftests.once import built_once

pytestmark = pytest.mark.e2e   # every test here runs grade.py or a platform's script

FIXTURE = ROOT / "selftests" / "fixtures" / "instructor_kata"
KATA = "k90_masking"


def _run(project, *args, timeout=900):
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=project, timeout=timeout)
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-3000:])
    return done.stdout


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """A copy of this project with the instructor's kata dropped in and the answer key refrozen,
    made once for both tests also when they run on different workers (a freeze observes every
    reference function)."""
    def build(folder):
        copy = folder / "project"
        shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info"))
        for kind in ("katas", "reference", "tests", "curriculum"):
            for path in (FIXTURE / kind).iterdir():
                shutil.copy(path, copy / kind / path.name)
        _run(copy, "grade.py", "freeze")

    return built_once(tmp_path_factory, "instructor-kata", build) / "project"


def test_self_tests_pick_up_the_new_kata(project):
    out = _run(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "selftests/test_catalog.py",
               "selftests/test_answer_key.py", "selftests/test_variants.py",
               "selftests/test_grade.py::test_reference_scores_full_marks",
               "selftests/test_grade.py::test_fresh_stubs_score_zero_with_every_function_todo")
    assert KATA in _run(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only",
                        "selftests/test_catalog.py")
    assert " passed" in out


def test_grade_release_and_pytest_include_it(project, tmp_path):
    assert "score 1/1" in _run(project, "grade.py", KATA, "--solutions", "reference")
    assert "score 0/1" in _run(project, "grade.py", KATA)
    out = tmp_path / "template"
    _run(project, "grade.py", "release", str(out))
    assert (out / "katas" / f"{KATA}.py").exists() and (out / "tests" / f"test_{KATA}.py").exists()
    shutil.copy(FIXTURE / "reference" / f"{KATA}.py", out / "katas" / f"{KATA}.py")
    assert "score 1/1" in _run(out, "grade.py", KATA)
    assert "1 passed" in _run(out, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"tests/test_{KATA}.py")
