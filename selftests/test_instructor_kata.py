"""An instructor drops in a kata of their own (stub, reference, test module, curriculum entry):
the suite picks it up without further wiring, and freeze and release include it."""

import shutil
import subprocess
import sys

import pytest

from selftests.gradekit import ROOT, graded_in
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


PER_FUNCTION = "test_key_holds_exactly_what_the_live_reference_does"   # of test_answer_key.py


def test_self_tests_pick_up_the_new_kata(project):
    """The catalogue's and the answer key's tests are parametrized over the new kata too, and pass
    (only its own cases of the per-function tests: the others are this project's, which the suite
    itself runs). One pytest run: each costs the import of torch."""
    out = _run(project, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-k", f"not {PER_FUNCTION} or {KATA}",
               "selftests/test_catalog.py", "selftests/test_answer_key.py::test_answer_key_is_fresh",
               f"selftests/test_answer_key.py::{PER_FUNCTION}",
               "selftests/test_variants.py::test_every_function_has_a_wrong_answer_and_two_correct_idioms",
               "selftests/test_grade.py::test_reference_scores_full_marks",
               "selftests/test_grade.py::test_fresh_stubs_score_zero_with_every_function_todo_and_a_table_per_kata")
    assert KATA in out and " passed" in out and " failed" not in out
    assert f"{PER_FUNCTION}[{KATA}." in out
    assert not [line for line in out.splitlines() if f"{PER_FUNCTION}[" in line and f"[{KATA}." not in line]


def test_grade_release_and_pytest_include_it(project, tmp_path):
    """The project grades the new kata (in this process, ``graded_in``: the project's command line
    for that tree), its release carries it, and there a real grade.py and pytest grade it."""
    assert "score 1/1" in graded_in(project, KATA, "--solutions", "reference").render()
    assert "score 0/1" in graded_in(project, KATA).render()
    out = tmp_path / "template"
    _run(project, "grade.py", "release", str(out))
    assert (out / "katas" / f"{KATA}.py").exists() and (out / "tests" / f"test_{KATA}.py").exists()
    shutil.copy(FIXTURE / "reference" / f"{KATA}.py", out / "katas" / f"{KATA}.py")
    assert "score 1/1" in _run(out, "grade.py", KATA)
    assert "1 passed" in _run(out, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"tests/test_{KATA}.py")
