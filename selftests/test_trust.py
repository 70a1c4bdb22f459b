"""A cheating student against grade.py: forged results, a patched grader, a student repository
that tries to replace the grader, processes left behind. Each attack must earn nothing, leave a
result in bounded time and leave no process running; the honest functions beside it still pass.

Every attack runs with the sandbox (bubblewrap, where installed) and without it (KATA_SANDBOX=none,
as on macOS and Windows): the judge alone must hold in both. Attacks on the channel and the judge
are graded by grade.py's grade command in this process, on the warm children the self-tests share
(``warm.grade_here``); attacks on the process (what it leaves running, SIGTERM, what its children's
environment holds, files beside grade.py) by a real grade.py.
"""

import json
import os
import py_compile
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from kata_harness import api
from kata_harness.batch import engine as batch
from kata_harness.content.curriculum import load_curriculum
from kata_harness.isolation import channel, sandbox
from kata_harness.layout import LAYOUT
from kata_harness.outputs import feedback, gradebook, official
from kata_harness.term import roster
from selftests.attacks import MODES, graded_here, grading, marked_processes, marker
from selftests.gradekit import ROOT, functions, solutions_from_reference, statuses
from selftests.warm import grade_here

KATAS = {kata.name: kata.functions for kata in load_curriculum(LAYOUT.curriculum)}
K01 = [f.qualified for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions if f.kata == "k01_creation"]
KATAS_INFO = load_curriculum(LAYOUT.curriculum)
FUNCTIONS = [f for kata in KATAS_INFO for f in kata.functions]
K01_POINTS = {f.name: f.points for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions if f.kata == "k01_creation"}

# The attacks use Linux process facts (/proc, fork, sessions); the judge they test is the same everywhere.
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux process tests")

# Code prepended to a kata's stubs (whose functions then earn nothing honestly): each tries to
# make the stubs pass anyway. __kata__ stands for the kata, __functions__ for its functions' names.
# Each kata is a job of its own, so the forgeries, each on its own kata, are graded together.
FORGERIES = {
    "observer_returns_nothing": ("k01_creation", """
        import kata_harness.observation.local as in_process
        in_process.observe_devices = lambda *args, **kwargs: {}
    """),
    "observer_returns_no_cases": ("k02_creation_traps", """
        import kata_harness.observation.observe as observe, kata_harness.observation.local as in_process
        observe.observe_function = lambda *args, **kwargs: []
        in_process.observe_function = observe.observe_function
    """),
    "observer_describes_nothing": ("k04_promotion", """
        import kata_harness.observation.observe as observe
        observe.describe = lambda *args, **kwargs: {"kind": "none"}
        observe.observe_case = lambda fn, spec, case, seed, device, learner_file=None: {"call": "", "label": None}
    """),
    "forged_events_through_the_channel": ("k05_devices", """
        import gc, os
        from kata_harness.isolation.child import _Channel
        send = next(o for o in gc.get_objects() if isinstance(o, _Channel))
        for name in __functions__:
            send("start", kata="__kata__", function=name)
            send("observed", kata="__kata__", function=name, observations={})
        send("done")
        os._exit(0)
    """),
    "forged_cuda_only_observations": ("k06_clone_view", """
        import gc, os
        from kata_harness.isolation.child import _Channel
        send = next(o for o in gc.get_objects() if isinstance(o, _Channel))
        send("start", kata="__kata__", function=__functions__[0])
        send("observed", kata="__kata__", function=__functions__[0], observations={"cuda": []})
    """),
    "malformed_and_oversized_lines": ("k07_indexing", """
        import os
        for fd in range(3, 40):
            try:
                os.write(fd, b'{"event": "start"}\\n' + b"x" * (9 << 20) + b"\\n")
            except OSError:
                pass
    """),
}
PLAIN = "k03_dtypes"   # stubs without a forgery, graded after some of the forged katas


def _run(solutions, *args, mode="none", timeout=240, env=None):
    """A real grade.py process: for what only a process shows (what it leaves running, what its
    children's environment holds)."""
    options, environment = grading(solutions, *args, mode=mode)
    return subprocess.run([sys.executable, str(ROOT / "grade.py"), *options], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **environment, **(env or {})}, cwd=ROOT)


def test_every_forgery_has_a_kata_of_its_own():
    katas = [kata for kata, _ in FORGERIES.values()]
    assert len(katas) == len(set(katas)) and PLAIN not in katas


@pytest.mark.parametrize("mode", MODES)
def test_forgeries_on_stubs_earn_nothing(mode, tmp_path):
    solutions = tmp_path / "katas"
    shutil.copytree(ROOT / "katas", solutions)
    for kata, code in FORGERIES.values():
        target = solutions / f"{kata}.py"
        names = [f.name for f in KATAS[kata]]
        forgery = textwrap.dedent(code).replace("__functions__", repr(names)).replace("__kata__", kata)
        target.write_text(forgery + "\n" + target.read_text(encoding="utf-8"), encoding="utf-8")
    started = time.monotonic()
    done = graded_here(solutions, *(kata for kata, _ in FORGERIES.values()), PLAIN, mode=mode)
    assert done.returncode == 0, done.stderr[-2000:]
    assert time.monotonic() - started < 170
    doc = json.loads(done.stdout)
    assert doc["sandbox"] == mode
    graded = statuses(doc)
    for name, (kata, _) in FORGERIES.items():
        earned = [function for function, status in graded.items() if function.startswith(f"{kata}.") and status == "passed"]
        assert not earned, f"{name}: {earned} passed"
    assert doc["score"] == 0, {k: v for k, v in graded.items() if v == "passed"}


@pytest.mark.parametrize("mode", MODES)
def test_heartbeats_do_not_extend_the_time_limit(mode, tmp_path):
    """A thread that keeps sending events while the function hangs: the limit still holds."""
    solutions = solutions_from_reference(tmp_path / "katas")
    target = solutions / "k01_creation.py"
    target.write_text(target.read_text() + textwrap.dedent("""
        import gc, threading, time
        from kata_harness.isolation.child import _Channel
        def _beat():
            send = next(o for o in gc.get_objects() if isinstance(o, _Channel))
            while True:
                send("heartbeat")
                send("start", kata="k01_creation", function="filled")
                time.sleep(0.2)
        def filled(shape, value):
            threading.Thread(target=_beat, daemon=True).start()
            time.sleep(1000)
    """))
    started = time.monotonic()
    done = graded_here(solutions, "k01", mode=mode)
    assert time.monotonic() - started < 60
    graded = statuses(json.loads(done.stdout))
    assert graded["k01_creation.filled"] == "error"
    assert [n for n in K01 if graded[n] != "passed"] == ["k01_creation.filled"]


@pytest.mark.e2e
@pytest.mark.parametrize("mode", MODES)
def test_no_process_outlives_grading_and_nothing_writes_after_it(mode, tmp_path):
    """Learner code starts detached processes (a new session, a double fork) that would write a
    result file later: after grade.py returns none of them runs and the file stays unwritten."""
    late = tmp_path / "late-write.json"
    solutions = solutions_from_reference(tmp_path / "katas")
    target = solutions / "k01_creation.py"
    target.write_text(target.read_text() + textwrap.dedent(f"""
        import os, subprocess, sys
        LATER = "import time; time.sleep(4); open({str(late)!r}, 'w').write('forged')  # {marker(tmp_path)}"
        def filled(shape, value):
            subprocess.Popen([sys.executable, "-c", LATER], start_new_session=True)
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    os.execv(sys.executable, [sys.executable, "-c", LATER])
                os._exit(0)
            raise ValueError("no")
    """))
    done = _run(solutions, "k01", mode=mode)
    assert json.loads(done.stdout)["score"] == sum(K01_POINTS.values()) - K01_POINTS["filled"]
    assert marked_processes(marker(tmp_path)) == []
    time.sleep(5)
    assert not late.exists()


@pytest.mark.e2e
@pytest.mark.parametrize("mode", MODES)
def test_sigterm_ends_the_whole_tree(mode, tmp_path):
    solutions = solutions_from_reference(tmp_path / "katas")
    target = solutions / "k01_creation.py"
    target.write_text(target.read_text() + textwrap.dedent(f"""
        import subprocess, sys, time
        def filled(shape, value):
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)  # {marker(tmp_path)}"],
                             start_new_session=True)
            time.sleep(1000)
    """))
    environment = {**os.environ, "KATA_SANDBOX": "auto" if mode == "bubblewrap" else "none"}
    grading = subprocess.Popen([sys.executable, str(ROOT / "grade.py"), "k01", "--solutions", str(solutions),
                                "--timeout", "300"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=environment)
    until = time.monotonic() + 60
    while not marked_processes(marker(tmp_path)) and time.monotonic() < until:
        time.sleep(0.2)
    assert marked_processes(marker(tmp_path)), "the learner's process never started"
    grading.send_signal(signal.SIGTERM)
    grading.wait(timeout=20)
    time.sleep(0.5)
    assert marked_processes(marker(tmp_path)) == []


@pytest.mark.e2e
def test_sandbox_hides_the_answers_and_other_files(tmp_path):
    """Inside the sandbox learner code sees no reference/, no answer key, no files beside its own
    folder, can write no file anywhere (the project, /tmp, /dev/shm, /), and has no network and a
    cleared environment."""
    if not sandbox.available():
        pytest.skip("bubblewrap is not installed here")
    report = tmp_path / "elsewhere" / "what-i-saw.txt"
    report.parent.mkdir()
    solutions = solutions_from_reference(tmp_path / "katas")
    target = solutions / "k01_creation.py"
    target.write_text(target.read_text() + textwrap.dedent(f"""
        import os, socket
        def _probe():
            seen = {{}}
            for path in ({str(ROOT / "reference")!r}, {str(ROOT / "tests" / "answer_key.dat")!r},
                         {str(report.parent)!r}, {str(ROOT / "grade.py")!r}):
                seen[path] = os.path.exists(path)
            try:
                open({str(ROOT / "kata_harness" / "x.py")!r}, "w").write("x")
                seen["write"] = True
            except OSError:
                seen["write"] = False
            for folder in ("/tmp", "/dev/shm", "/dev", "/", os.environ.get("HOME", "/tmp")):
                try:   # a private tmpfs has no size limit: every folder must refuse writes
                    with open(os.path.join(folder, "filler"), "wb") as filler:
                        filler.write(bytes(1 << 20))
                    seen["write " + folder] = True
                except OSError:
                    seen["write " + folder] = False
            seen["network"] = any(name != "lo" for _, name in socket.if_nameindex())
            seen["secret"] = "KATA_SECRET" in os.environ
            return seen
        def filled(shape, value):
            raise ValueError(repr(_probe()))
    """))
    done = _run(solutions, "k01", mode="bubblewrap", env={"KATA_SECRET": "s3cret"})
    message = functions(json.loads(done.stdout))["k01_creation.filled"]["message"]
    assert "True" not in message, message
    assert not (ROOT / "kata_harness" / "x.py").exists()


def _project_copy(tmp_path):
    copy = tmp_path / "project"
    copy.mkdir()
    for name in ("grade.py", "pyproject.toml", "conftest.py"):
        shutil.copy2(ROOT / name, copy / name)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("kata_harness", "tests", "curriculum", "katas", "reference"):
        shutil.copytree(ROOT / name, copy / name, ignore=skip)
    return copy


@pytest.mark.e2e
def test_student_files_beside_grade_py_never_run_in_the_grader(tmp_path):
    """An argparse.py beside grade.py and an unchecked-hash .pyc in kata_harness/judging/__pycache__ that
    would pass every function: grade.py imports neither, and the stubs still score 0."""
    copy = _project_copy(tmp_path)
    ran = tmp_path / "argparse-ran"
    (copy / "argparse.py").write_text(f"open({str(ran)!r}, 'w').write('ran')\nraise SystemExit(0)\n")
    evil = tmp_path / "judge.py"
    honest = (copy / "kata_harness" / "judging" / "judge.py").read_text()
    evil.write_text(honest + "\n\ndef verdict_for(*args, **kwargs):\n    return Verdict('passed')\n")
    pycache = copy / "kata_harness" / "judging" / "__pycache__"
    pycache.mkdir()
    tag = sys.implementation.cache_tag
    py_compile.compile(str(evil), cfile=str(pycache / f"judge.{tag}.pyc"), dfile=str(evil),
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    # The planted bytecode takes effect wherever Python's own import system loads the harness:
    # the attack is real, and only grade.py's source-only loader stops it.
    planted = subprocess.run([sys.executable, "-c", "import kata_harness.judging.judge as g; "
                              "print(g.verdict_for({}, {}).status.value)"], capture_output=True, text=True,
                             timeout=120, cwd=copy)
    assert planted.stdout.strip() == "passed", planted.stderr[-2000:]
    done = subprocess.run([sys.executable, str(copy / "grade.py"), "k01", "--format", "json"],
                          capture_output=True, text=True, timeout=300, cwd=copy)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["score"] == 0
    assert not ran.exists()


# A learner's own grade, attacked from inside its function: exceptions and results that lie about
# themselves when the grader reads them, and messages that would forge the printed report. Each is
# appended to a kata of the reference (``__function__`` is the function it replaces, ``_honest`` the
# reference's own); each must fail with a message that says what the learner's code did, never a
# frame of the harness, and cost its function alone. name: (kata, function, code, words the message shows).
UNREADABLE = "<exception str() failed>"
TRICKS = {
    "exception_str_and_repr_raise": ("k01_creation", "filled", """
        class Odd(Exception):
            def __str__(self): raise RuntimeError("no str")
            def __repr__(self): raise RuntimeError("no repr")
        def __function__(*args, **kwargs):
            raise Odd()
    """, ["Odd", UNREADABLE]),
    "exception_str_hangs": ("k03_dtypes", "class_loss", """
        class Slow(Exception):
            def __str__(self):
                while True:
                    pass
        def __function__(*args, **kwargs):
            raise Slow()
    """, ["3 s"]),
    "exception_class_lies_about_its_name": ("k04_promotion", "weighted_sum", """
        class Liar(type):
            __name__ = property(lambda cls: 1 / 0)
            __mro__ = property(lambda cls: 1 / 0)
        class Odd(Exception, metaclass=Liar):
            pass
        def __function__(*args, **kwargs):
            raise Odd("the real message")
    """, ["Odd: the real message"]),
    "result_class_lies_about_its_name": ("k13_numpy_bridge", "numpy_snapshot", """
        class Liar(type):
            __name__ = property(lambda cls: 1 / 0)
            __mro__ = property(lambda cls: 1 / 0)
        class Odd(metaclass=Liar):
            pass
        def __function__(*args, **kwargs):
            return Odd()
    """, ["ZeroDivisionError"]),
    "result_key_repr_raises": ("k16_leaves", "trainable", """
        class Key:
            def __repr__(self): raise RuntimeError("no repr")
            def __hash__(self): return 1
        def __function__(*args, **kwargs):
            return {Key(): 1}
    """, ["RuntimeError: no repr"]),
    "exception_str_raises_at_import": ("k15_bmi", "bmi_report", """
        class Odd(Exception):
            def __str__(self): raise RuntimeError("no str")
        raise Odd()
    """, ["Odd", UNREADABLE]),
    "warning_str_raises": ("k14_numpy_strides", "tensor_from_flipped", """
        import warnings
        class Odd(UserWarning):
            def __str__(self): raise RuntimeError("no str")
        def __function__(*args, **kwargs):
            warnings.warn(Odd())
            return _honest(*args, **kwargs)
    """, ["RuntimeError: no str"]),
    "result_is_a_generator": ("k06_clone_view", "clipped", """
        def __function__(*args, **kwargs):
            yield _honest(*args, **kwargs)
    """, ["generator"]),
    "result_class_says_it_is_a_tensor": ("k07_indexing", "zero_rows_", """
        import torch
        class Fake:
            def __init__(self, inner): self._inner = inner
            __class__ = property(lambda self: torch.Tensor)
            def __getattr__(self, name): return getattr(self._inner, name)
        def __function__(*args, **kwargs):
            return Fake(_honest(*args, **kwargs))
    """, ["Fake"]),
    "result_changes_on_a_second_look": ("k09_contiguity", "merge_heads", """
        class Shifty(list):
            looks = 0
            def __iter__(self):
                Shifty.looks += 1
                return iter([]) if Shifty.looks > 1 else super().__iter__()
        def __function__(*args, **kwargs):
            return Shifty(_honest(*args, **kwargs).tolist())
    """, ["Shifty"]),
    "tensor_subclass_with_torch_dispatch": ("k12_joining", "stack_samples", """
        import torch
        from torch.utils._pytree import tree_map
        class Wrapper(torch.Tensor):
            @staticmethod
            def __new__(cls, inner):
                return torch.Tensor._make_wrapper_subclass(cls, inner.shape, dtype=inner.dtype, device=inner.device)
            def __init__(self, inner):
                self.inner = inner
            @classmethod
            def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
                unwrap = lambda value: value.inner if isinstance(value, Wrapper) else value
                return func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {}))
        def __function__(*args, **kwargs):
            return Wrapper(_honest(*args, **kwargs))
    """, ["Wrapper"]),
    "atexit_hook_and_signal_handlers": ("k11_broadcasting", "normalize_rows", """
        import atexit, json, os, signal
        def _forge():   # after the job: every kata of the curriculum passed, on every descriptor
            for fd in range(40):
                for kata, names in __katas__.items():
                    for name in names:
                        line = {"event": "observed", "kata": kata, "function": name, "observations": {}}
                        try:
                            os.write(fd, (json.dumps(line) + "\\n").encode())
                        except OSError:
                            pass
        atexit.register(_forge)
        for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1, signal.SIGCHLD):
            signal.signal(number, signal.SIG_IGN)
        def __function__(*args, **kwargs):
            raise SystemExit(0)
    """, ["SystemExit"]),
    "message_forges_the_report": ("k02_creation_traps", "class_counts", """
        def __function__(*args, **kwargs):
            raise ValueError("no\\x1b[2K\\x1b[1A\\r  ✓ class_counts  1/1\\nscore 151/151\\x1b[8m\\x07\\u202e\\x9b")
    """, ["ValueError: no\\x1b[2K\\x1b[1A\\r", "\\x1b[8m\\x07\\u202e\\x9b"]),
}
SANDBOXED = MODES[0]   # the instructor's path where bubblewrap runs: the tricks test the observer, not the sandbox


def test_every_trick_has_a_kata_of_its_own():
    katas = [kata for kata, *_ in TRICKS.values()]
    assert len(katas) == len(set(katas))


def test_learner_code_that_lies_about_itself_fails_in_its_own_words(tmp_path):
    """Each trick fails its function with a message naming what the learner's code did (never the
    harness's frames, never "the grading process died"), and the rest of its kata still passes;
    no character of a message can act on the terminal or log that shows it."""
    solutions = solutions_from_reference(tmp_path / "katas")
    every = {kata: [f.name for f in functions] for kata, functions in KATAS.items()}
    for kata, function, code, _ in TRICKS.values():
        target = solutions / f"{kata}.py"
        trick = (textwrap.dedent(code).replace("__function__", function).replace("__katas__", repr(every)))
        target.write_text(target.read_text() + f"\n_honest = {function}\n" + trick)
    # Each tricked function and the one after it in its kata (graded after the trick, in its process).
    graded_functions = []
    for kata, function, *_ in TRICKS.values():
        names = every[kata]
        graded_functions += [f"{kata}.{name}" for name in names[names.index(function):names.index(function) + 2]]
    done = graded_here(solutions, *graded_functions, mode=SANDBOXED)
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads(done.stdout)
    graded, found = statuses(doc), functions(doc)
    assert sorted(graded) == sorted(graded_functions)
    for name, (kata, function, _, words) in TRICKS.items():
        entry = found[f"{kata}.{function}"]
        assert entry["status"] != "passed", f"{name}: passed"
        for word in words:
            assert word in entry["message"], f"{name}: {word!r} not in {entry['message'][:600]!r}"
        for harness in ("kata_harness", "grading process died", "Traceback"):
            assert harness not in entry["message"], f"{name}: {entry['message'][:600]!r}"
        assert not any(char in entry["message"] for char in "\x1b\r\x07\x9b\u202e"), f"{name}: {entry['message']!r}"
    tricked = {f"{kata}.{function}" for kata, function, *_ in TRICKS.values()}
    lost = {q: graded[q] for q in graded if q not in tricked and graded[q] != "passed"
            and not q.startswith("k15_bmi.")}   # k15's trick is at import: its whole kata pays
    assert not lost, lost


# --- a classmate's row, feedback file or roster identity, by a folder's name -------------------------

def _folders(where, *names: bytes, files: dict | None = None) -> list:
    """Submission folders of these (byte) names, each with a kata file of its own, as batch collects them."""
    where.mkdir()
    for name in names:
        folder = where / os.fsdecode(name)
        folder.mkdir()
        (folder / "k01_creation.py").write_text(f"# {name!r}\n")
    return batch.collect(where, {"k01_creation"})


def test_a_folder_shown_like_a_classmates_takes_nothing_of_theirs(tmp_path):
    """``b\\x01`` (a control character) is shown as the text ``b\\\\x01``, which is also a real folder's
    name, and ``b\\\\x01 (1)`` is named like the number a clash would give: no folder is shown by
    another's name, the two shown alike are refused by name, the third keeps its own."""
    found = _folders(tmp_path / "class", b"b\x01", b"b\\x01", b"b\\x01 (1)", b"caf\xff", b"caf\\xff")
    names = [s.name for s in found]
    assert len(set(names)) == len(names)
    by_name = {s.name: s for s in found}
    assert by_name["b\\x01 (1)"].files == {"k01_creation.py": b"# b'b\\\\x01 (1)'\n"}   # its own file, under its own name
    refused = [s for s in found if s.files is None]
    assert len(refused) == 4 and all("refused" in s.notes[0] for s in refused), [(s.name, s.notes) for s in found]
    assert "b\\x01" not in names and "caf\\xff" not in names   # a name two folders are shown by is nobody's
    (tmp_path / "roster.csv").write_text("submission,student,email,id\nb\\x01 (1),Bea,bea@uni.example,S1\n")
    rows = [{**batch.row_for(s, FUNCTIONS, None, LAYOUT), "score": 9} for s in found]
    joined = roster.join(rows, roster.read_roster(tmp_path / "roster.csv"), FUNCTIONS)
    assert [row["submission"] for row in joined if row.get("email")] == ["b\\x01 (1)"]


def test_a_name_like_a_numbered_feedback_file_gets_its_own_file(tmp_path):
    """Rows ``a/b`` and ``a_b`` make one file name, so each gets a number; the row really named
    ``a_b (1)`` still gets ``a_b (1).md``, and names alike on macOS or Windows (case, Unicode form) are
    numbered too."""
    rows = [{**gradebook.row(name, [], FUNCTIONS, None), "score": score}
            for score, name in enumerate(["a/b", "a_b", "a_b (1)", "Caf\u00e9", "cafe\u0301"])]
    (tmp_path / "feedback").mkdir()
    written = feedback.write_all(tmp_path / "feedback", rows, KATAS_INFO, "en")
    assert written["a_b (1)"].name == "a_b (1).md"
    assert written["a/b"].name not in ("a_b.md", "a_b (1).md") and written["a_b"].name not in ("a_b.md", "a_b (1).md")
    assert len({path.name.casefold() for path in written.values()}) == len(rows)
    assert {written["Caf\u00e9"].stem, written["cafe\u0301"].stem} == {"Caf\u00e9 (1)", "cafe\u0301 (2)"}
    for row in rows:   # each file holds its own row
        assert f"score {row['score']}/" in written[row["submission"]].read_text(encoding="utf-8")


def test_a_linked_kata_file_or_folder_reads_nothing_of_a_classmate(tmp_path):
    """A submission whose kata file, or whose katas/ folder, is a symbolic link to a classmate's:
    nothing is read through either (the classmate's bytes are in no other row)."""
    found = _folders(tmp_path / "class", b"victim", b"thief")
    (tmp_path / "class" / "victim" / "k01_creation.py").write_text("SOLVED = True\n")
    (tmp_path / "class" / "thief" / "k01_creation.py").unlink()
    (tmp_path / "class" / "thief" / "k01_creation.py").symlink_to(tmp_path / "class" / "victim" / "k01_creation.py")
    (tmp_path / "class" / "mole").mkdir()
    (tmp_path / "class" / "mole" / "katas").symlink_to(tmp_path / "class" / "victim")
    found = {s.name: s for s in batch.collect(tmp_path / "class", {"k01_creation"})}
    assert found["victim"].files == {"k01_creation.py": b"SOLVED = True\n"}
    assert not found["thief"].files and "symbolic link" in " ".join(found["thief"].notes)
    assert found["mole"].files is None and "symbolic link" in " ".join(found["mole"].notes)


@pytest.mark.e2e
def test_an_alarm_or_handler_a_kata_leaves_in_a_serial_child_reaches_no_later_kata(tmp_path, monkeypatch):
    """Where katas share one warm child (macOS, Windows: ``channel.SerialChild``, here on Linux), a
    kata that leaves an alarm going off every 50 ms with a handler that raises, and SIGTERM ignored,
    retires that child: the katas after it are graded in a fresh one, with full marks (k01's own
    functions may pay for its alarm)."""
    solutions = solutions_from_reference(tmp_path / "katas")
    target = solutions / "k01_creation.py"
    target.write_text(target.read_text() + textwrap.dedent("""
        import signal
        def _alarm(*args):
            raise RuntimeError("an alarm k01 left")
        signal.signal(signal.SIGALRM, _alarm)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.setitimer(signal.ITIMER_REAL, 0.05, 0.05)
    """))
    started = []
    made = channel.Child.__init__

    def counted(self, *args, **kwargs):
        started.append(kwargs.get("serial"))
        made(self, *args, **kwargs)

    monkeypatch.setattr(channel.Child, "__init__", counted)

    def serial(folder, *, sandboxed, project):
        return channel.SerialChild(sandboxed=sandboxed, solutions=(folder,), project=project)

    katas = ["k01", "k02", "k03", "k04", "k06", "k07"]
    run = api.settle(katas, solutions=solutions, sandboxed=False, processes=api.Processes(lanes=serial),
                     against="answer-key", function_timeout=10)
    doc = api.grade_submission(run).doc
    assert len(started) >= 2 and all(started)   # the child k01 ran in graded nothing after it
    lost = {q: f["message"][:200] for q, f in functions(doc).items()
            if f["status"] != "passed" and not q.startswith("k01_")}   # k01 may pay for its own alarm
    assert not lost, lost


def test_a_message_no_utf8_file_can_hold_breaks_no_format_and_no_classmates_feedback(tmp_path):
    """Lone surrogates in what a function raises and prints (``"\\udcff"``: Python keeps them in a str,
    no UTF-8 stream or file can hold one): every format of grade.py is printed, and a batch writes the
    gradebook, every student's feedback and the report, the classmate graded beside it in full."""
    sneaky = textwrap.dedent("""
        def filled(shape, value):
            print("printed \\udcff")
            raise ValueError("lone \\udcff surrogate \\ud800")
    """)
    solutions = tmp_path / "katas"
    solutions.mkdir()
    (solutions / "k01_creation.py").write_text((ROOT / "reference" / "k01_creation.py").read_text() + sneaky,
                                               encoding="utf-8", errors="surrogatepass")
    for output in ("json", "gradescope", "workflow"):   # the workflow's holds the reporter's, the text and Markdown
        done = graded_here(solutions, "k01", "--format", output)
        assert done.returncode == 0 and done.stdout, (output, done.stderr[-2000:])
        assert "\\udcff" in done.stdout.replace("\\\\", "\\"), output
    class_folder = tmp_path / "class"
    for name, source in (("alice", ROOT / "reference" / "k01_creation.py"), ("mallory", solutions / "k01_creation.py")):
        (class_folder / name).mkdir(parents=True)
        shutil.copy(source, class_folder / name / "k01_creation.py")
    book, folder = tmp_path / "book.json", tmp_path / "feedback"
    done = grade_here("batch", str(class_folder), "--out", str(book), "--no-sandbox", "-j", "1", "--against",
                      "answer-key", "--feedback", str(folder), "--report", str(tmp_path / "report.html"))
    assert done.returncode == 0, done.stderr[-3000:]
    rows = {row["submission"]: row for row in json.loads(book.read_text(encoding="utf-8"))}
    assert rows["alice"]["functions"]["k01_creation.filled"]["status"] == "passed"
    assert rows["mallory"]["functions"]["k01_creation.filled"]["status"] == "failed"
    assert sorted(path.name for path in folder.iterdir()) == ["alice.html", "alice.md", "mallory.html", "mallory.md"]
    assert "\\udcff" in (folder / "mallory.md").read_text(encoding="utf-8").replace("\\\\", "\\")
    assert (tmp_path / "report.html").stat().st_size > 0


def test_folders_named_like_options_paths_or_devices_are_each_their_own_row_and_file(tmp_path):
    """Folder names a shell, Windows or a browser gives meaning to: each is collected with its own
    file, and its feedback stays inside the folder, in a file of its own that holds its own row."""
    odd = [b"-rf", b"--out=x", b"a\nb", b"CON", b"con.txt", b"\xff\xfe", b"x" * 255, b"index.html", b" ", b"_"]
    found = _folders(tmp_path / "class", *odd)
    assert len(found) == len(odd) and all(s.files for s in found), [(s.name, s.notes) for s in found]
    for submission in found:   # each folder's own bytes
        assert list(submission.files.values())[0].startswith(b"# b")
    rows = [{**batch.row_for(s, FUNCTIONS, None, LAYOUT), "score": n} for n, s in enumerate(found)]
    (tmp_path / "feedback").mkdir()
    written = feedback.write_all(tmp_path / "feedback", rows, KATAS_INFO, "en")
    assert {path.parent for path in written.values()} == {tmp_path / "feedback"}
    assert len({path.name.casefold() for path in written.values()}) == len(rows)
    assert len(list((tmp_path / "feedback").iterdir())) == 2 * len(rows)
    for row in rows:
        assert f"score {row['score']}/" in written[row["submission"]].read_text(encoding="utf-8")


def test_a_kata_file_that_is_a_link_or_a_fifo_still_gets_the_reporters_result(tmp_path):
    """The reporter's result names the line of each function's ``def``, read from the learner's
    file in the parent: a kata file that is a FIFO must cost its kata only, never the result, and a
    link (which a repository can hold: one to ``/dev/zero`` took all the parent's memory) is not
    followed."""
    solutions = solutions_from_reference(tmp_path / "katas")
    (solutions / "k02_creation_traps.py").unlink()
    os.mkfifo(solutions / "k02_creation_traps.py")
    done = graded_here(solutions, "k02", "k04", "--format", "classroom")
    assert done.returncode == 0, done.stderr[-2000:]
    tests = json.loads(done.stdout)["tests"]
    passed = {test["name"].split(" ")[0] for test in tests if test["status"] == "pass"}
    assert not any(name.startswith("k02") for name in passed), passed
    assert any(name.startswith("k04") for name in passed), passed
    elsewhere = tmp_path / "elsewhere.py"
    elsewhere.write_text("\n\n\n\ndef filled(shape, value):\n    pass\n")
    (solutions / "k01_creation.py").unlink()
    (solutions / "k01_creation.py").symlink_to(elsewhere)
    filled = next(f for f in FUNCTIONS if f.qualified == "k01_creation.filled")
    assert official._line_of(solutions, filled) == 1   # not 5: the link is not read
