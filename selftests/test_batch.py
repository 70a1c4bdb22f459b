"""grade.py batch: one gradebook for many submissions, equal to grading each one alone."""

import csv
import shutil
import sys

import pytest

from kata_harness import channel, sandbox
from kata_harness.curriculum import load_curriculum
from selftests.gradekit import ROOT, functions, grade_json, run
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
    assert book["student03-crash"]["k05_devices.add_bias"] == "0" and book["student03-crash"]["k05_devices.run_model"] == "1"

    again = run("batch", str(submissions), "--out", str(out), timeout=900)
    assert "0 graded, 6 unchanged" in again.stderr
    assert _gradebook(out) == book
    changed = submissions / "student01-stub" / "k15_bmi.py"
    changed.write_text((submissions / "student00-solved" / "k15_bmi.py").read_text())
    third = run("batch", str(submissions), "--out", str(tmp_path / "gradebook.csv"), timeout=900)
    assert "1 graded, 5 unchanged" in third.stderr
    assert _gradebook(out)["student01-stub"]["k15_bmi.bmi_report"] == "2"


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
    (folder / "k15_bmi.py").unlink()
    (folder / "k15_bmi.py").mkdir()   # a folder where a file should be: it cannot be read
    out = tmp_path / "book.json"
    done = run("batch", str(submissions), "--out", str(out), timeout=900)
    assert done.returncode == 0 and "unreadable: k15_bmi.py" in done.stderr
    import json
    row = json.loads(out.read_text())[0]
    assert row["k15_bmi.bmi_report"] == 0 and row["k01_creation.filled"] == 1 and "unreadable" in row["notes"]


def _files_digest(folder):
    import hashlib
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


BATCH_MODES = [[]] + ([["--no-sandbox"]] if sandbox.available() else [])


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links to /dev/zero")
@pytest.mark.parametrize("flags", BATCH_MODES, ids=lambda f: "no-sandbox" if f else "sandbox")
def test_no_submission_can_disturb_another(flags, tmp_path):
    """Hostile submissions beside honest ones: each honest row is exactly what it is alone, the
    hostile ones earn nothing unearned, and nothing changes the gradebook after the run."""
    import textwrap
    import time

    if not flags and not sandbox.available():
        pytest.skip("bubblewrap is not installed here")
    subs = tmp_path / "submissions"
    out = tmp_path / "gradebook.csv"
    copy_from = {"alice-solved": ROOT / "reference", "bob-stub": ROOT / "katas"}
    attacks = {
        # reference + a function that kills the zygote it was forked from, then goes on killing its
        # parent: once re-parented, that would be the grader (the job must die with its zygote)
        "mallory-killer": ("reference", textwrap.dedent("""
            def filled(shape, value):
                import os, time
                for _ in range(300):
                    try:
                        os.kill(os.getppid(), 9)
                    except OSError:
                        pass
                    time.sleep(0.002)
        """)),
        # stubs + a detached process that keeps writing forged events and result lines for a minute
        "mallory-forger": ("katas", textwrap.dedent("""
            import os, sys, subprocess
            FORGE = (
                "import json, os, time  # kata-orphan-marker\\n"
                "line = json.dumps({'event': 'observed', 'kata': 'k01_creation', 'function': 'filled', "
                "'observations': {}}).encode() + b'\\\\n'\\n"
                "for _ in range(600):\\n"
                "    for fd in range(3, 64):\\n"
                "        for prefix in (b'', b'J ', b'Z '):\\n"
                "            try: os.write(fd, prefix + line)\\n"
                "            except OSError: pass\\n"
                "    time.sleep(0.1)\\n")
            subprocess.Popen([sys.executable, "-c", FORGE], start_new_session=True, close_fds=False)
        """)),
        # reference + code that tries to overwrite every other submission and the gradebook
        "mallory-vandal": ("reference", textwrap.dedent(f"""
            import glob
            for path in glob.glob({str(subs)!r} + "/*/*.py") + glob.glob({str(subs)!r} + "/*/katas/*.py") \\
                    + [{str(out)!r}]:
                try:
                    open(path, "w").write("def filled(shape, value):\\n    return None\\n")
                except OSError:
                    pass
        """)),
        # stubs + a process that rewrites the gradebook and its cache after the run
        "mallory-late": ("katas", textwrap.dedent(f"""
            import subprocess, sys
            LATER = ("import time; time.sleep(4)  # kata-orphan-marker\\n"
                     "for p in ({str(out)!r}, {str(out) + '.cache.json'!r}): open(p, 'w').write('forged')\\n")
            subprocess.Popen([sys.executable, "-c", LATER], start_new_session=True)
        """)),
    }
    if flags and not channel.can_fork():
        # Without a zygote, an unsandboxed learner child is the grader's own: killing its parent
        # stops the run, as the README's trust table says of --no-sandbox.
        del attacks["mallory-killer"]
    for name, source in copy_from.items():
        shutil.copytree(source, subs / name)
    for name, (base, code) in attacks.items():
        shutil.copytree(ROOT / base, subs / name)
        target = subs / name / "k01_creation.py"
        target.write_text(target.read_text(encoding="utf-8") + code, encoding="utf-8")
    formula = '=HYPERLINK("example.invalid","click")'
    shutil.copytree(ROOT / "reference", subs / formula)
    (subs / "mallory-zero").mkdir()
    shutil.copytree(ROOT / "reference", subs / "mallory-zero" / "katas")
    (subs / "mallory-zero" / "katas" / "k01_creation.py").unlink()
    (subs / "mallory-zero" / "katas" / "k01_creation.py").symlink_to("/dev/zero")
    (subs / "mallory-linker").mkdir()
    (subs / "mallory-linker" / "katas").symlink_to(subs / "alice-solved")
    honest = {name: _files_digest(subs / name) for name in copy_from}

    started = time.monotonic()
    done = run("batch", str(subs), "--out", str(out), "-j", "2", "--timeout", "3", *flags, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert time.monotonic() - started < 400
    written = out.read_bytes()
    book = _gradebook(out)
    full = int(book["alice-solved"]["max_score"])
    k01_points = sum(f.points for kata in load_curriculum() for f in kata.functions if f.kata == "k01_creation")
    filled_points = next(f.points for kata in load_curriculum() for f in kata.functions
                         if f.qualified == "k01_creation.filled")
    assert book["alice-solved"]["score"] == str(full)
    assert book["bob-stub"]["score"] == "0"
    assert book["mallory-forger"]["score"] == "0" and book["mallory-late"]["score"] == "0"
    if "mallory-killer" in attacks:
        assert book["mallory-killer"]["k01_creation.filled"] == "0"
        assert int(book["mallory-killer"]["score"]) <= full - filled_points
    assert book["mallory-linker"]["score"] == "0" and "symbolic link" in book["mallory-linker"]["notes"]
    assert int(book["mallory-zero"]["score"]) == full - k01_points
    assert "k01_creation.py" in book["mallory-zero"]["notes"]
    if not flags:   # unsandboxed, a submission can write anywhere the grader can: only its rows are safe
        assert {name: _files_digest(subs / name) for name in copy_from} == honest
    raw = written.decode("utf-8-sig")
    assert "'" + formula.replace('"', '""') in raw and "\n" + formula not in raw
    assert book["'" + formula]["score"] == str(full)

    time.sleep(5)   # the late writer's moment has passed: it never ran, or could not write
    assert out.read_bytes() == written
    if not flags:   # a second run (the vandal's files intact) reuses nothing forged and gives the same rows
        again = run("batch", str(subs), "--out", str(out), "-j", "2", *flags, timeout=600)
        rerun = _gradebook(out)
        # Which of its own functions the zygote killer's crash is charged to depends on how far the
        # dying zygote relayed; every other row must be exactly the same.
        killer = rerun.pop("mallory-killer")
        assert again.returncode == 0 and rerun == {k: v for k, v in book.items() if k != "mallory-killer"}
        assert killer["k01_creation.filled"] == "0" and int(killer["score"]) <= full - filled_points
