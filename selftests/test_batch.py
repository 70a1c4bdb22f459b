"""grade.py batch: one gradebook for many submissions, equal to grading each one alone."""

import csv

from kata_harness.catalog import load_curriculum
from selftests.gradekit import functions, grade_json, run
from selftests.submissions import make

NAMES = [f.qualified for kata in load_curriculum() for f in kata.functions]


def _gradebook(path):
    with open(path, newline="", encoding="utf-8-sig") as handle:
        return {row["submission"]: row for row in csv.DictReader(handle)}


def test_batch_scores_equal_one_by_one_grading_and_reruns_skip_unchanged(tmp_path):
    submissions = tmp_path / "submissions"
    made = make(submissions, 6)
    (submissions / "no-katas").mkdir()
    (submissions / "no-katas" / "README.txt").write_text("forgot to push")
    out = tmp_path / "gradebook.csv"
    done = run("batch", str(submissions), "--out", str(out), "-j", "2", timeout=900)
    assert done.returncode == 0, done.stderr
    assert "no-katas: no katas/ folder" in done.stderr and "ETA" in done.stderr
    book = _gradebook(out)
    assert list(book) == sorted(list(made) + ["no-katas"])
    assert book["no-katas"]["score"] == "0"
    assert "differ (ignored): tests/test_k01_creation.py" in book["student04-repo"]["notes"]
    for name, kind in made.items():
        folder = submissions / name / ("katas" if kind == "repo" else "")
        alone = functions(grade_json("--solutions", str(folder)))
        row = book[name]
        assert [int(row[n]) for n in NAMES] == [alone[n]["score"] for n in NAMES], name
        assert int(row["score"]) == sum(f["score"] for f in alone.values())
    assert book["student00-solved"]["score"] == book["student00-solved"]["max_score"]
    assert book["student01-stub"]["score"] == "0"
    assert book["student03-crash"]["k03_devices.add_bias"] == "0" and book["student03-crash"]["k03_devices.run_model"] == "1"

    again = run("batch", str(submissions), "--out", str(out), timeout=900)
    assert "0 graded, 6 unchanged" in again.stderr
    assert _gradebook(out) == book
    changed = submissions / "student01-stub" / "k13_bmi.py"
    changed.write_text((submissions / "student00-solved" / "k13_bmi.py").read_text())
    third = run("batch", str(submissions), "--out", str(tmp_path / "gradebook.csv"), timeout=900)
    assert "1 graded, 5 unchanged" in third.stderr
    assert _gradebook(out)["student01-stub"]["k13_bmi.bmi_report"] == "2"


def test_batch_bad_input_is_one_clear_line(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    for target in (empty, tmp_path / "missing"):
        done = run("batch", str(target), "--out", str(tmp_path / "book.csv"))
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
        assert "Traceback" not in done.stderr


def test_unreadable_kata_file_is_noted_and_the_rest_graded(tmp_path):
    submissions = tmp_path / "submissions"
    make(submissions, 1)
    folder = submissions / "student00-solved"
    (folder / "k13_bmi.py").unlink()
    (folder / "k13_bmi.py").mkdir()   # a folder where a file should be: it cannot be read
    out = tmp_path / "book.json"
    done = run("batch", str(submissions), "--out", str(out), timeout=900)
    assert done.returncode == 0 and "unreadable: k13_bmi.py" in done.stderr
    import json
    row = json.loads(out.read_text())[0]
    assert row["k13_bmi.bmi_report"] == 0 and row["k01_creation.filled"] == 1 and "unreadable" in row["notes"]
