"""grade.py batch: one gradebook for many submissions, equal to grading each one alone."""

import csv
import json
import shutil
import sys
from pathlib import Path

import pytest

from kata_harness.content.curriculum import load_curriculum
from kata_harness.isolation import channel, sandbox
from kata_harness.layout import LAYOUT, Layout
from kata_harness.outputs import gradebook
from selftests.gradekit import ROOT, functions, grade_json, run
from selftests.submissions import make
from selftests.warm import grade_here

NAMES = [f.qualified for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions]
# The katas selftests/submissions.py makes differ in (wrong, crashing, made easier) and one of each lesson.
ALONE = ["k01_creation", "k05_devices", "k11_broadcasting", "k12_joining", "k15_bmi", "k28_running_loss"]


def _gradebook(path):
    """{submission: row} of a CSV gradebook, without the time it was graded at (which every run sets)."""
    with Path(path).open(newline="", encoding="utf-8-sig") as handle:
        return {row["submission"]: {k: v for k, v in row.items() if k != "graded_at"} for row in csv.DictReader(handle)}


@pytest.mark.e2e
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
    # Alone, unsandboxed (one warm zygote for all): the katas the kinds of submission differ in, and
    # one of each lesson that they share (every kata of a class is compared alone in the byte-for-byte test).
    compared = [n for n in NAMES if n.split(".")[0] in ALONE]
    for name, kind in made.items():
        folder = submissions / name / ("katas" if kind == "repo" else "")
        alone = functions(grade_json(*ALONE, "--solutions", str(folder), env={"KATA_SANDBOX": "none"}))
        row = book[name]
        assert [int(row[n]) for n in compared] == [alone[n]["score"] for n in compared], name
        assert int(row["score"]) == sum(int(row[n]) for n in NAMES), name
    assert book["student00-solved"]["score"] == book["student00-solved"]["max_score"]
    assert book["student01-stub"]["score"] == "0"
    assert book["student03-crash"]["k05_devices.add_bias"] == "0" and book["student03-crash"]["k05_devices.run_model"] == "1"

    # The crash's row is never cached (one of its jobs did not end normally): it is graded again.
    again = run("batch", str(submissions), "--out", str(out), timeout=900)
    assert "1 graded, 5 unchanged" in again.stderr
    assert _gradebook(out) == book
    changed = submissions / "student01-stub" / "k15_bmi.py"
    changed.write_text((submissions / "student00-solved" / "k15_bmi.py").read_text())
    third = run("batch", str(submissions), "--out", str(tmp_path / "gradebook.csv"), timeout=900)
    assert "2 graded, 4 unchanged" in third.stderr, third.stderr[-400:]
    assert _gradebook(out)["student01-stub"]["k15_bmi.bmi_report"] == "2"


def test_batch_bad_input_is_one_clear_line(tmp_path):
    """A folder with no submission, or none at all, is refused before anything starts (batch's own
    command in this process: the refusal needs no grade.py of its own)."""
    empty = tmp_path / "empty"
    empty.mkdir()
    for target in (empty, tmp_path / "missing"):
        done = grade_here("batch", str(target), "--out", str(tmp_path / "book.csv"))
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
        assert "Traceback" not in done.stderr


@pytest.mark.e2e
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


@pytest.mark.e2e
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
    k01_points = sum(f.points for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions if f.kata == "k01_creation")
    filled_points = next(f.points for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions
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


# Run in a forked job: write the value 8 over the small int 7 of its zygote, through /proc/PPID/mem
# (a forked job shares its zygote's addresses), then try to attach to it with ptrace. Had it worked,
# every later job of that zygote would build `filled((2, 3), 7)` with eights.
POISONER = """
import ctypes, os, struct, sys


def _poison_the_zygote():
    seen = {}
    parent = os.getppid()
    try:
        with open(f"/proc/{parent}/mem", "r+b", buffering=0) as memory:
            memory.seek(id(7) + 24)   # a small int's first digit (CPython 3.11+ on 64 bits)
            memory.write(struct.pack("<I", 8))
        seen["mem"] = "written"
    except OSError as error:
        seen["mem"] = type(error).__name__
    libc = ctypes.CDLL(None, use_errno=True)
    # PTRACE_SEIZE: attaches without stopping it (the tracer's exit detaches it again).
    seen["ptrace"] = "attached" if libc.ptrace(0x4206, parent, 0, 0) == 0 else "refused"
    print("attack:", seen, file=sys.stderr)
    return seen


_REFERENCE_FILLED = filled


def filled(shape, value):
    _poison_the_zygote()
    return _REFERENCE_FILLED(shape, value)
"""

PRIMITIVE = """
import os, struct
pid = os.fork()
if pid == 0:
    try:
        with open(f"/proc/{os.getppid()}/mem", "r+b", buffering=0) as memory:
            memory.seek(id(7) + 24)
            memory.write(struct.pack("<I", 8))
    finally:
        os._exit(0)
os.waitpid(pid, 0)
print(3 + 4)
"""


@pytest.mark.e2e
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/PID/mem")
@pytest.mark.parametrize("flags", BATCH_MODES, ids=lambda f: "no-sandbox" if f else "sandbox")
def test_no_job_can_write_into_its_zygote(flags, tmp_path):
    """With ptrace allowed (no Yama, or ptrace_scope 0), a forked process can write its parent's
    memory: the attack works against an ordinary parent here (else the test has nothing to show),
    and fails against the zygote, whose later jobs grade exactly as alone. Run again without the
    attacker, batch gives the same honest rows."""
    import subprocess

    if not flags and not sandbox.available():
        pytest.skip("bubblewrap is not installed here")
    primitive = subprocess.run([sys.executable, "-c", PRIMITIVE], capture_output=True, text=True, timeout=60)
    if primitive.stdout.strip() != "8":
        pytest.skip("this machine forbids a child to write its parent's memory (Yama's ptrace_scope)")
    subs = tmp_path / "submissions"
    for name in ("a-before", "b-poisoner", "c-after"):
        shutil.copytree(ROOT / "reference", subs / name)
    target = subs / "b-poisoner" / "k01_creation.py"
    target.write_text(target.read_text(encoding="utf-8") + POISONER, encoding="utf-8")
    out = tmp_path / "gradebook.csv"
    done = run("batch", str(subs), "--out", str(out), "-j", "1", *flags, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    book = _gradebook(out)
    full = book["a-before"]["max_score"]
    assert [book[name]["score"] for name in ("a-before", "b-poisoner", "c-after")] == [full] * 3, \
        {name: {k: v for k, v in row.items() if v == "0"} for name, row in book.items()}
    shutil.rmtree(subs / "b-poisoner")
    again = run("batch", str(subs), "--out", str(out), "-j", "1", *flags, timeout=900)
    assert again.returncode == 0, again.stderr[-3000:]
    assert _gradebook(out) == {name: row for name, row in book.items() if name != "b-poisoner"}


@pytest.mark.e2e
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a folder 1,200 levels deep")
def test_batch_always_writes_its_gradebook(tmp_path):
    """A repository nested 1,200 folders deep and a folder whose name is not UTF-8 are graded, and
    the gradebook is written (the run writes the JSON one; the CSV writer is given the same rows);
    a submission whose katas/ cannot be read is a note on its row
    (``test_an_unreadable_katas_folder_is_a_note``)."""
    import json
    import os
    import subprocess


    subs = tmp_path / "submissions"
    shutil.copytree(ROOT / "reference", subs / "deep" / "katas")
    folder = os.open(subs / "deep", os.O_RDONLY)
    for _ in range(1200):   # os.makedirs itself recurses that deep
        os.mkdir("d", dir_fd=folder)
        inner = os.open("d", os.O_RDONLY, dir_fd=folder)
        os.close(folder)
        folder = inner
    os.close(folder)
    odd = os.fsencode(subs) + b"/caf\xff"
    shutil.copytree(ROOT / "reference", os.fsdecode(odd))
    try:   # one worker: both hold the reference's files, which are graded once anyway
        done = run("batch", str(subs), "--out", str(tmp_path / "book.json"), "-j", "1", timeout=900)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    finally:   # pytest's own clean-up recurses, and would fail on that depth
        subprocess.run(["rm", "-rf", str(subs / "deep")], check=True)
    written = json.loads((tmp_path / "book.json").read_text(encoding="utf-8"))
    rows = {row["submission"]: row for row in written}
    assert set(rows) == {"deep", "caf\\xff"}
    assert all(row["score"] == row["max_score"] for row in rows.values()), rows
    assert "deeper than" in rows["deep"]["notes"]
    (tmp_path / "book.csv").write_bytes(gradebook.encode(tmp_path / "book.csv", written, _infos()))
    assert set(_gradebook(tmp_path / "book.csv")) == {"deep", "caf\\xff"}


def test_an_unreadable_katas_folder_is_a_note(tmp_path, monkeypatch):
    """As a normal user, a katas/ of mode 000 cannot be listed (root can, so the refusal is simulated)."""
    import os

    from kata_harness.batch import engine as batch

    subs = tmp_path / "submissions"
    shutil.copytree(ROOT / "reference", subs / "closed" / "katas")
    shutil.copytree(ROOT / "reference", subs / "open")
    real_listdir = os.listdir

    def listdir(path="."):
        if str(path).endswith("closed/katas"):
            raise PermissionError(13, "Permission denied")
        return real_listdir(path)

    monkeypatch.setattr(os, "listdir", listdir)
    found = {s.name: s for s in batch.collect(subs, {f.kata for f in _infos()})}
    assert found["closed"].files is None and "katas/ cannot be read (Permission denied)" in found["closed"].notes
    assert found["open"].files and len(found["open"].files) == len(list((ROOT / "reference").glob("k*.py")))


def _infos():
    return [f for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions]


def _git(folder, *args, date="2026-11-30T12:00:00Z"):
    import subprocess

    environment = {**__import__("os").environ, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date,
                   "GIT_AUTHOR_NAME": "s", "GIT_AUTHOR_EMAIL": "s@example.invalid",
                   "GIT_COMMITTER_NAME": "s", "GIT_COMMITTER_EMAIL": "s@example.invalid"}
    subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True, env=environment)


def _repository(folder, commits):
    """A git repository in ``folder`` whose history is ``commits``: (date, source folder of the
    kata files, tag or None) in order, each commit replacing katas/ with that folder's files."""
    folder.mkdir(parents=True)
    _git(folder, "init", "-q", "-b", "main")
    for date, source, tag in commits:
        shutil.rmtree(folder / "katas", ignore_errors=True)
        shutil.copytree(source, folder / "katas")
        _git(folder, "add", "-A", date=date)
        _git(folder, "commit", "-qm", f"work of {date}", date=date)
        if tag:
            _git(folder, "tag", tag, date=date)


@pytest.mark.e2e
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_deadline_grading_reads_kata_files_from_git_and_runs_nothing_from_the_repository(tmp_path):
    """``batch --at TAG|DATE`` grades each clone as git has it at the submit tag (the latest one
    matching a pattern) or at the last commit before a date, whatever the working tree holds now;
    a repository's configuration cannot make git run a program, and one that points at another
    repository's objects is refused."""
    subs = tmp_path / "download"
    stubs, solved = ROOT / "katas", ROOT / "reference"
    _repository(subs / "kata-alice", [("2026-11-29T10:00:00Z", stubs, None),
                                      ("2026-11-30T11:00:00Z", solved, "submit/2026-11-30T11-00-00Z-a"),
                                      ("2026-12-02T08:00:00Z", stubs, None)])
    _repository(subs / "kata-bob", [("2026-11-29T10:00:00Z", solved, "submit/2026-11-29T10-00-00Z-b"),
                                    ("2026-11-30T09:00:00Z", stubs, "submit/2026-11-30T09-00-00Z-b")])
    marker = tmp_path / "ran"
    hook = f"sh -c 'touch {marker}'"
    with (subs / "kata-bob" / ".git" / "config").open("a") as config:   # what a hostile repository could hold
        config.write(f"[core]\n\tfsmonitor = {hook}\n\tpager = {hook}\n[log]\n\tshowSignature = true\n"
                     f"[gpg]\n\tprogram = {marker}\n[diff]\n\texternal = {hook}\n")
    _repository(subs / "kata-mallory", [("2026-11-30T10:00:00Z", stubs, "submit/2026-11-30T10-00-00Z-m")])
    (subs / "kata-mallory" / ".git" / "objects" / "info" / "alternates").write_text(
        str(subs / "kata-alice" / ".git" / "objects") + "\n")
    out = tmp_path / "by-tag.json"
    done = run("batch", str(subs), "--out", str(out), "--at", "submit/*", "-j", "1", timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    import json
    rows = {row["submission"]: row for row in json.loads(out.read_text(encoding="utf-8"))}
    full = rows["kata-alice"]["max_score"]
    assert rows["kata-alice"]["score"] == full and "submit/2026-11-30T11-00-00Z-a" in rows["kata-alice"]["notes"]
    assert rows["kata-bob"]["score"] == 0 and "submit/2026-11-30T09-00-00Z-b" in rows["kata-bob"]["notes"]
    assert rows["kata-mallory"]["score"] == 0 and "alternates" in rows["kata-mallory"]["notes"]

    by_date = tmp_path / "by-date.csv"
    done = run("batch", str(subs), "--out", str(by_date), "--at", "2026-11-30T12:00Z", "-j", "1", timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    book = _gradebook(by_date)
    assert book["kata-alice"]["score"] == book["kata-alice"]["max_score"]   # not the stubs committed later
    assert "before 2026-11-30T12:00Z" in book["kata-alice"]["notes"]
    assert book["kata-bob"]["score"] == "0"   # its last commit before that date holds the stubs
    assert not marker.exists(), "git ran a program the repository named"
    assert run("batch", str(subs), "--at", "2026-13-45", timeout=60).returncode == 2


HANG = "\ndef filled(shape, value):\n    while True:\n        pass\n"
SMALL_CLASS_KATAS = ("k01_creation", "k05_devices", "k11_broadcasting", "k12_joining")


def _small_class(folder: Path) -> None:
    """Solved (one copy as is, one restyled: other bytes), wrong answers, a file two students share,
    two untouched stubs, and a hostile file (a crash) that two students hold, one of them also
    hanging in another kata."""
    from selftests.submissions import CRASH, WRONG

    def write(name: str, source: Path, extra: dict | None = None, prefix: str = "") -> None:
        (folder / name).mkdir(parents=True)
        for kata in SMALL_CLASS_KATAS:
            text = (source / f"{kata}.py").read_text(encoding="utf-8") + (extra or {}).get(f"{kata}.py", "")
            (folder / name / f"{kata}.py").write_text(prefix + text, encoding="utf-8")

    write("ann-solved", ROOT / "reference")
    write("ben-solved-restyled", ROOT / "reference", prefix="# Ben's own version\n")
    write("cat-wrong", ROOT / "reference", WRONG)
    write("dan-stub", ROOT / "katas")
    write("eve-stub", ROOT / "katas")
    shutil.copy(folder / "cat-wrong" / "k11_broadcasting.py", folder / "dan-stub")   # the duplicate pair
    write("hal-hostile", ROOT / "reference", {**CRASH, "k01_creation.py": HANG})
    write("ivy-shares-the-crash", ROOT / "katas")
    shutil.copy(folder / "hal-hostile" / "k05_devices.py", folder / "ivy-shares-the-crash")


def _graded_one_by_one(subs: Path, functions: list, table: dict, sandboxed: bool) -> list[dict]:
    """The rows of grading each submission alone, as batch did before kata files were graded
    apart: all of one submission's files staged together, its katas queued at once."""
    from kata_harness.batch import engine as batch
    from kata_harness.judging.expectations import Recorded
    from kata_harness.judging.judge import grade

    rows = []
    worker = batch._Worker(sandboxed, project=LAYOUT)   # one lane, as ``batch -j 1`` had: every kata still runs in a fresh fork
    try:
        for submission in batch.collect(subs, {f.kata for f in functions}):
            worker.stage(submission.files)
            result = grade(functions, worker.staging, Recorded(table), lane=worker.lane(), function_timeout=2.0)
            rows.append(batch.row_for(submission, functions, result.verdicts, Layout(ROOT)))
    finally:
        worker.close()
    return rows


@pytest.mark.e2e
def test_batch_gradebook_is_byte_for_byte_that_of_grading_each_submission_alone(tmp_path, monkeypatch):
    """Each kata file graded apart, and a file with the same bytes graded once per run, give the
    gradebook (CSV and JSON, byte for byte) that grading each submission alone gives: for solved,
    wrong and stub files, a file two students share, and a crash two students share (a grading
    that was interrupted is never reused), beside a hang that replaces the zygote."""
    import hashlib

    from kata_harness.batch import engine as batch
    from kata_harness.judging.expectations import LiveReference

    graded: list[tuple[str, str | None]] = []   # (kata, digest of its file) of every kata job batch ran
    real_grade = batch.grade

    def counting_grade(functions, solutions, *args, **kwargs):
        staged = list(solutions.iterdir())
        graded.append((functions[0].kata, hashlib.sha256(staged[0].read_bytes()).hexdigest() if staged else None))
        return real_grade(functions, solutions, *args, **kwargs)

    monkeypatch.setattr(batch, "grade", counting_grade)

    functions = [f for f in _infos() if f.kata in SMALL_CLASS_KATAS]
    subs = tmp_path / "class"
    _small_class(subs)
    table = batch.expected_table(LiveReference(LAYOUT), functions)
    sandboxed = sandbox.available()
    out = tmp_path / "gradebook.json"
    log = tmp_path / "log.txt"
    with log.open("w") as stream:
        together = batch.run_batch(subs, out, functions, lambda: table, project=Layout(ROOT), jobs=2, function_timeout=2.0,
                                   sandboxed=sandboxed, log=stream)
    monkeypatch.setattr(batch, "grade", real_grade)
    alone = _graded_one_by_one(subs, functions, table, sandboxed)
    assert out.read_bytes() == gradebook.encode(out, together, functions)
    # The rows as grading alone gives them: without when and how this run graded, and which files it found shared.
    plain = [{k: v for k, v in row.items() if k not in (*gradebook.PROVENANCE, "shared")} for row in together]
    assert gradebook.encode(out, plain, functions) == gradebook.encode(out, alone, functions)
    csv_out = tmp_path / "gradebook.csv"
    assert gradebook.encode(csv_out, plain, functions) == gradebook.encode(csv_out, alone, functions)
    rows = {row["submission"]: row for row in together}
    assert rows["ann-solved"]["score"] == rows["ann-solved"]["max_score"] == rows["ben-solved-restyled"]["score"]
    assert rows["dan-stub"]["k11_broadcasting.normalize_rows"] == 0 and rows["dan-stub"]["score"] > 0
    for name in ("hal-hostile", "ivy-shares-the-crash"):
        assert rows[name]["functions"]["k05_devices.add_bias"]["reason"] == "error.crash", rows[name]
    assert rows["hal-hostile"]["functions"]["k01_creation.filled"]["reason"] == "error.timeout"

    def times_graded(name: str, kata: str) -> int:
        return graded.count((kata, hashlib.sha256((subs / name / f"{kata}.py").read_bytes()).hexdigest()))

    assert len(graded) == len(set(graded)) + 1   # every file once, but the crash that two students share
    assert times_graded("ivy-shares-the-crash", "k05_devices") == 2
    assert times_graded("dan-stub", "k11_broadcasting") == 1 and times_graded("eve-stub", "k01_creation") == 1


def test_a_kata_file_is_graded_once_per_run_but_never_reused_after_an_interrupted_grading(monkeypatch):
    """Batch stages each kata file alone and grades the same bytes for the same kata once per run;
    a grading that was interrupted (here a stand-in for a crash) is not reused: each submission
    holding that file is graded again."""
    from kata_harness.batch import engine as batch
    from kata_harness.judging.judge import Grading
    from kata_harness.judging.verdicts import Status, Verdict

    functions = [f for f in _infos() if f.kata in ("k01_creation", "k05_devices")]
    staged: list[tuple[str, dict]] = []

    def stand_in_grade(chosen, solutions, expected, **options):
        files = {path.name: path.read_bytes() for path in solutions.iterdir()}
        staged.append((chosen[0].kata, files))
        crashed = b"crash" in b"".join(files.values())
        passed = files and not crashed   # no file: the functions err
        return Grading(verdicts={f.qualified: Verdict(Status.PASSED if passed else Status.ERROR) for f in chosen},
                       interrupted=crashed)

    monkeypatch.setattr(batch, "grade", stand_in_grade)
    classroom = {"a": {"k01_creation.py": b"mine", "k05_devices.py": b"# crash"},
                 "b": {"k01_creation.py": b"mine", "k05_devices.py": b"# crash"},
                 "c": {"k01_creation.py": b"other"}}
    graded, worker = batch.GradedKatas(), batch._Worker(sandboxed=False, project=LAYOUT)
    try:
        rows = [batch._graded_row(batch.Submission(name, Path(name), files=files), worker, functions, {}, 1.0,
                                  None, graded, Layout(ROOT)) for name, files in classroom.items()]
    finally:
        worker.close()
    assert staged == [("k01_creation", {"k01_creation.py": b"mine"}), ("k05_devices", {"k05_devices.py": b"# crash"}),
                      ("k05_devices", {"k05_devices.py": b"# crash"}),
                      ("k01_creation", {"k01_creation.py": b"other"}), ("k05_devices", {})]
    k01 = sum(f.points for f in functions if f.kata == "k01_creation")
    assert [row["score"] for row in rows] == [k01, k01, k01]


def test_the_cache_of_a_large_class_is_read(tmp_path):
    """Each function's details make a class's cache large (about 16 MiB for 1,000 submissions):
    it must still be read, or every rerun would grade the whole class again."""
    from kata_harness.batch import engine as batch
    from selftests.classes import synthetic_gradebook

    out = tmp_path / "gradebook.json"
    rows = synthetic_gradebook(1200)
    cache = {"state": "s", "rows": {row["submission"]: {"digest": f"{n:064x}", "row": row} for n, row in enumerate(rows)}}
    batch._cache_path(out).write_text(json.dumps(cache))
    assert batch._cache_path(out).stat().st_size > 16 << 20
    read = batch._read_cache(out)
    assert batch._cached_rows(read, "s") == cache["rows"] and batch._cached_rows(read, "other") == {}
    assert batch._cached_digests(read) == {entry["digest"] for entry in cache["rows"].values()}


def test_the_cache_survives_a_last_bit_of_the_reference_and_not_a_changed_value():
    """A solver's last bit may differ between two runs of the reference (k32's least squares did):
    the cache's state is the same; a value that changed is a new state."""
    from kata_harness.batch.engine import state_digest

    def table(value):
        return {"k32_linear_regression.least_squares": {"cases": [{"values": [value, -2.0]}]}}

    same = state_digest(table(0.26936617516498300), 5.0, True, Layout(ROOT))
    assert state_digest(table(0.26936617516498307), 5.0, True, Layout(ROOT)) == same
    assert state_digest(table(0.2693662), 5.0, True, Layout(ROOT)) != same
    assert state_digest(table(0.26936617516498300), 5.0, False, Layout(ROOT)) != same
