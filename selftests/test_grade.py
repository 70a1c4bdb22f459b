"""grade.py end to end, as learners and instructors run it."""

import subprocess
import sys

import pytest

from kata_harness.content.curriculum import lessons_of, load_curriculum, resolve
from kata_harness.layout import LAYOUT
from selftests.gradekit import ROOT, check_schema, functions, grade_json, graded_in, run, solutions_from_reference, statuses
from selftests.warm import grade_here

CURRICULUM = load_curriculum(LAYOUT.curriculum)
ALL_FUNCTIONS = [f.qualified for kata in CURRICULUM for f in kata.functions]
TOTAL_POINTS = sum(f.points for kata in CURRICULUM for f in kata.functions)
K01_FUNCTIONS = [f.name for kata in CURRICULUM if kata.name == "k01_creation" for f in kata.functions]


def test_reference_scores_full_marks():
    doc = grade_json("--solutions", "reference")
    check_schema(doc)
    assert doc["max_score"] == TOTAL_POINTS
    assert doc["score"] == TOTAL_POINTS, {n: f["message"] for n, f in functions(doc).items() if f["message"]}
    assert list(statuses(doc)) == ALL_FUNCTIONS
    assert doc["graded_against"] == "reference"


def test_fresh_stubs_score_zero_with_every_function_todo_and_a_table_per_kata():
    """One grade of every stub: its document and the text it prints."""
    graded = graded_in(ROOT)
    doc = graded.doc
    check_schema(doc)
    assert doc["score"] == 0 and doc["max_score"] == TOTAL_POINTS
    assert set(statuses(doc).values()) == {"todo"}
    for function in functions(doc).values():
        assert "not implemented yet" in function["message"]
        assert function["hint"]
    text = graded.render("text")
    for kata in CURRICULUM:
        assert kata.name in text
    assert f"score 0/{TOTAL_POINTS}" in text
    first = CURRICULUM[0].functions[0]
    assert f"Next: {first.qualified}" in text


def test_chinese_output():
    done = grade_here("k01", "--lang", "zh")
    assert "得分 0/" in done.stdout and "下一步" in done.stdout and "尚未实现" in done.stdout


@pytest.mark.parametrize("selector", ["k01_creation", "k01", "creation"])
def test_kata_selectors(selector):
    doc = grade_json(selector)
    assert [k["kata"] for k in doc["katas"]] == ["k01_creation"]


LESSONS = lessons_of(CURRICULUM)


def test_a_lesson_or_its_pack_selects_that_lessons_katas():
    assert len(LESSONS) >= 2
    for lesson in LESSONS:
        katas = [kata.name for kata in CURRICULUM if kata.lesson.name == lesson.name]
        assert katas
        for selector in (lesson.name, lesson.pack):
            assert sorted({f.kata for f in resolve([selector], CURRICULUM)}) == katas, selector


def test_the_text_output_heads_each_lessons_katas_with_its_lesson():
    """Graded by a kata of the first lesson and the second lesson's pack name: a heading before each
    lesson's katas, naming the lesson, how to grade it alone, and its notes."""
    first = CURRICULUM[0]
    second = next(lesson for lesson in LESSONS if lesson.name != first.lesson.name)
    done = grade_here(first.name, second.pack, "--against", "answer-key", "--lang", "en")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    headings = [i for i, line in enumerate(lines) if line.startswith(tuple(lesson.name for lesson in LESSONS))]
    assert [lines[i].split(" ")[0] for i in headings] == [first.lesson.name, second.name]
    assert first.lesson.notes["en"] in lines[headings[0]]
    assert f"python grade.py {second.name}" in lines[headings[1]] and second.notes["en"] in lines[headings[1]]
    kata_lines = {kata.name: lines.index(next(line for line in lines if line.startswith(kata.name + " ")))
                  for kata in CURRICULUM if kata.name == first.name or kata.lesson.name == second.name}
    assert headings[0] < kata_lines[first.name] < headings[1] < min(v for k, v in kata_lines.items() if k != first.name)
    graded = sum(f.points for kata in CURRICULUM if kata.name == first.name or kata.lesson.name == second.name
                 for f in kata.functions)
    assert f"score 0/{graded}" in done.stdout


def test_function_selector():
    doc = grade_json("k01_creation.filled", "--solutions", "reference")
    assert statuses(doc) == {"k01_creation.filled": "passed"}
    assert doc["score"] == doc["max_score"] == 1


@pytest.mark.e2e
def test_unknown_selector_is_one_clear_line_and_exit_status_2():
    done = run("k99_nothing")
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert "k99_nothing" in lines[0]
    assert CURRICULUM[0].number in lines[0] and CURRICULUM[-1].number in lines[0]
    assert "lesson2 (autograd): k22 to k32" in lines[0]   # each lesson by its range, not every kata by name
    assert sum(kata.name in lines[0] for kata in CURRICULUM) <= 1 and len(lines[0]) < 400


def test_a_lesson_s_range_reads_as_each_language_writes_it():
    """The typo's answer names each lesson with its pack and range: full-width punctuation in Chinese."""
    from kata_harness.api import _lesson_range

    lesson = next(lesson for lesson in lessons_of(CURRICULUM) if lesson.name == "lesson2")
    katas = [kata for kata in CURRICULUM if kata.lesson == lesson]
    assert _lesson_range(lesson, katas, "en") == "lesson2 (autograd): k22 to k32"
    assert _lesson_range(lesson, katas, "zh") == "lesson2（autograd）：k22 到 k32"


def test_syntax_error_costs_only_its_kata(tmp_path):
    """k01 broken, graded with the kata after it and the last one, which still pass: that needs no
    grading of every kata (test_reference_scores_full_marks grades them all)."""
    solutions = solutions_from_reference(tmp_path / "solutions")
    broken = solutions / "k01_creation.py"
    broken.write_text(broken.read_text() + "\ndef oops(:\n    pass\n")
    graded = ["k01_creation", CURRICULUM[1].name, CURRICULUM[-1].name]
    doc = grade_json(*graded, "--solutions", str(solutions))
    check_schema(doc)
    assert [k["kata"] for k in doc["katas"]] == graded
    lines = broken.read_text().count("\n")
    for name, function in functions(doc).items():
        if name.startswith("k01_creation."):
            assert function["status"] == "error"
            assert "k01_creation.py" in function["message"] and f"line {lines - 1}" in function["message"]
            assert "syntax" in function["message"]
        else:
            assert function["status"] == "passed", function["message"]


def test_missing_function_is_reported_not_found_and_the_rest_is_graded(tmp_path):
    solutions = solutions_from_reference(tmp_path / "solutions")
    kata = solutions / "k01_creation.py"
    kata.write_text(kata.read_text().replace("def filled(", "def filled_renamed("))
    doc = grade_json("k01", "--solutions", str(solutions))
    found = functions(doc)
    assert found["k01_creation.filled"]["status"] == "error"
    assert "not found" in found["k01_creation.filled"]["message"]
    assert all(f["status"] == "passed" for n, f in found.items() if n != "k01_creation.filled")


def test_hint_levels():
    """A light command, run in this process (``grade_here``): a hint needs neither torch nor a child."""
    one = grade_here("hint", "filled")
    three = grade_here("hint", "k01_creation.filled", "--level", "3", "--lang", "zh")
    past = grade_here("hint", "filled", "--level", "9")
    assert one.returncode == 0 and "1/3" in one.stdout
    assert three.returncode == 0 and "torch.full(shape, value, ___)" in three.stdout and "提示" in three.stdout
    assert past.returncode == 2 and "1-3" in past.stderr


@pytest.mark.e2e
def test_plain_pytest_on_stubs_reports_not_implemented_without_harness_frames():
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_k01_creation.py"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 1
    assert done.stdout.count("not implemented yet") >= len(K01_FUNCTIONS)
    assert "kata_harness/" not in done.stdout and "Traceback" not in done.stdout


# Kata test modules of both lessons whose checks hold state across calls (seeds, gradients, tracked
# models): what a worker process of pytest-xdist could get wrong. The whole corpus is graded elsewhere.
XDIST_MODULES = ("tests/test_k01_creation.py", "tests/test_k18_grad_accumulation.py",
                 "tests/test_k20_reproducibility.py", "tests/test_k28_running_loss.py")


@pytest.mark.e2e
def test_kata_tests_run_under_xdist_with_the_reference():
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
                           "--solutions", "reference", *XDIST_MODULES], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
