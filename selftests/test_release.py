"""grade.py release: a student template without reference solutions, checked, with integrity."""

import ast
import re
import shutil
import subprocess
import sys

import pytest

from kata_harness.layout import Layout
from selftests.gradekit import ROOT, graded_in, student_template
from selftests.warm import grade_here

WHITESPACE = re.compile(r"\s+")


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """The student template, released once for the whole run (test_classroom.py reads the same one),
    in this process and without the release's own check, which grades in fresh processes
    (``gradekit.student_template``): the tests that only read it or grade it here are in the fast
    tier. A real ``grade.py release``, checked, runs in test_cli.py and test_instructor_kata.py."""
    return student_template(tmp_path_factory)


def _grade(root, *args):
    """``root``'s own ``grade.py --format json ARGS``'s document, graded in this process (``graded_in``)."""
    return graded_in(root, "--format", "json", *args).doc


def _reference_bodies():
    """Each reference function's body (docstring left out), whitespace removed."""
    for path in sorted((ROOT / "reference").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef):
                body = node.body[1:] if ast.get_docstring(node) else node.body
                text = "".join(ast.get_source_segment(source, statement) for statement in body)
                yield f"{path.stem}.{node.name}", WHITESPACE.sub("", text)


def test_template_has_everything_a_student_needs_and_no_reference(template):
    for name in ("grade.py", "conftest.py", "pyproject.toml", "README.md", Layout.MANIFEST,
                 "tests/answer_key.dat", "kata_harness/judging/judge.py", "curriculum/k01_creation.toml",
                 "katas/k01_creation.py", "tests/test_k01_creation.py"):
        assert (template / name).is_file(), name
    assert not (template / "reference").exists()
    assert not (template / "selftests").exists()


def test_no_reference_function_body_anywhere_in_the_template(template):
    files = {path: WHITESPACE.sub("", path.read_text(encoding="utf-8", errors="replace"))
             for path in template.rglob("*") if path.is_file()}
    leaks = [(name, str(path.relative_to(template))) for name, body in _reference_bodies()
             for path, text in files.items() if body and body in text]
    assert not leaks


def test_template_grades_against_its_answer_key(template):
    fresh = _grade(template)
    assert fresh["graded_against"] == "answer-key"
    assert fresh["integrity"] == {"ok": True, "modified": []}
    assert fresh["score"] == 0


@pytest.mark.e2e
def test_students_pytest_works_without_reference(template, tmp_path):
    copy = tmp_path / "student"
    shutil.copytree(template, copy)
    for path in (ROOT / "reference").glob("*.py"):
        shutil.copy(path, copy / "katas" / path.name)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], capture_output=True,
                          text=True, cwd=copy, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:]


@pytest.mark.e2e
def test_changed_added_and_removed_grading_files_are_named(template, tmp_path):
    copy = tmp_path / "student"
    shutil.copytree(template, copy)
    with (copy / "tests" / "test_k15_bmi.py").open("a") as handle:
        handle.write("\n# made easier\n")
    (copy / "tests" / "conftest.py").write_text("")
    (copy / "curriculum" / "k12_joining.toml").unlink()
    result = graded_in(copy, "k01", "--lang", "en")
    assert result.doc["integrity"]["ok"] is False
    assert sorted(result.doc["integrity"]["modified"]) == ["curriculum/k12_joining.toml", "tests/conftest.py",
                                                           "tests/test_k15_bmi.py"]
    text = result.render()
    assert "tests/test_k15_bmi.py (changed)" in text and "tests/conftest.py (added)" in text
    assert "curriculum/k12_joining.toml (removed)" in text and "git checkout -- curriculum tests" in text


# A non-empty folder is replaced only with --force: test_cli.py checks that with the release that
# caps the hints (both need a real release, which grades twice to check itself).


@pytest.mark.parametrize("target", [".", "tests/out", "reference", ".."])
def test_release_never_writes_into_the_instructors_own_files(target):
    """Refused before anything is written, by the release command run in this process
    (``grade_here``): the refusal needs no grade.py of its own."""
    before = sorted(p.name for p in ROOT.iterdir())
    refused = grade_here("release", str(ROOT / target), "--force")
    assert refused.returncode == 2
    assert "Traceback" not in refused.stderr
    assert sorted(p.name for p in ROOT.iterdir()) == before
