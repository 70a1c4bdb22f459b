"""No batch job reaches another job or its zygote; memory limits count all the memory a job holds;
a job whose zygote died under it is graded again on a fresh one, never charged; and the cache
keeps only rows whose every job ended normally.

Each attack is first shown working between ordinary processes (else the test would prove
nothing), then failing against batch's own worker: a real zygote (sandboxed where bubblewrap
runs), grading the kata files of different submissions one after the other, as batch grades them
(``batch._graded_kata``), against the answer key (no referee to start).
"""

from __future__ import annotations

import io
import json
import os
import platform
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from kata_harness.batch import engine as batch
from kata_harness.isolation import processes, sandbox
from kata_harness.judging.judge import Grading
from kata_harness.judging.verdicts import Status, Verdict
from kata_harness.layout import Layout
from selftests import jobs
from selftests.gradekit import ROOT
from selftests.jobs import FUNCTIONS, KATA, REFERENCE, TEST_LIMIT_MIB

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux namespaces, cgroups and fork")

# add_key(2) and keyctl(2) by machine (the attacks below call them as learner code would).
KEY_CALLS = {"x86_64": (248, 250), "aarch64": (217, 219)}.get(platform.machine().lower())


@pytest.fixture(scope="module")
def worker():
    """One batch worker (sandboxed where bubblewrap runs) whose jobs may hold TEST_LIMIT_MIB MiB."""
    with jobs.batch_worker() as made:
        yield made


def _ordinary(code: str) -> str:
    """Run ``code`` in a plain Python process (no grader), in a user and IPC namespace of its own
    so that what it leaves (IPC objects, keys) goes with it; its output."""
    wrapped = ("import ctypes, os\nif ctypes.CDLL(None).unshare(0x10000000 | 0x08000000) != 0:\n"
               "    raise SystemExit('no namespaces here')\n" + textwrap.dedent(code))
    done = subprocess.run([sys.executable, "-c", wrapped], capture_output=True, text=True, timeout=60)
    if "no namespaces here" in done.stderr:
        pytest.skip("this machine allows no user namespace for the ordinary processes of the attack")
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


# A kata job that leaves SysV shared memory and a key in each keyring it can reach (then fails).
LEAVER = """
def filled(shape, value):
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    segment = libc.shmget(0x4B415441, 16 << 20, 0o1666)
    if segment >= 0:
        address = libc.shmat(segment, None, 0)
        ctypes.memmove(address, b"answers", 7)
    for keyring in (-4, -5, -3):   # the user, user-session and session keyrings
        libc.syscall(__ADD_KEY__, b"user", b"kata-answers", b"42", 2, keyring)
    raise ValueError("left them")
"""

# A later job, of another submission, that looks for them.
FINDER = """
def filled(shape, value):
    import ctypes, json
    libc = ctypes.CDLL(None, use_errno=True)
    seen = {"shm": libc.shmget(0x4B415441, 0, 0) >= 0}
    for name, keyring in (("user", -4), ("user-session", -5), ("session", -3)):
        seen[name] = libc.syscall(__KEYCTL__, 10, keyring, b"user", b"kata-answers", 0) >= 0
    raise ValueError("seen: " + json.dumps(seen))
"""


def _key_calls(code: str) -> str:
    assert KEY_CALLS is not None
    return code.replace("__ADD_KEY__", str(KEY_CALLS[0])).replace("__KEYCTL__", str(KEY_CALLS[1]))


@pytest.mark.e2e
@pytest.mark.skipif(KEY_CALLS is None, reason="add_key and keyctl numbers known for x86_64 and aarch64 only")
def test_no_job_finds_the_shared_memory_or_keys_an_earlier_job_left(worker):
    """Two ordinary processes one after the other share SysV shared memory and keyrings; two jobs
    of a zygote (of two submissions) share neither."""
    leave, find = (_key_calls(code) + "\nfilled(None, None)\n" for code in (LEAVER, FINDER))
    shown = _ordinary(f"""
        import json
        for code in ({leave!r}, {find!r}):
            if os.fork() == 0:
                try:
                    exec(code)
                except ValueError as error:
                    print(error)
                os._exit(0)
            os.wait()
    """)
    found = json.loads(shown.split("seen: ", 1)[1])
    assert found["shm"] and found["user"], shown   # the primitive works between ordinary processes

    assert "left them" in jobs.message(jobs.graded(worker, _key_calls(LEAVER)))
    assert jobs.seen(jobs.graded(worker, _key_calls(FINDER))) == {"shm": False, "user": False, "user-session": False,
                                                          "session": False}


@pytest.mark.e2e
@pytest.mark.skipif(KEY_CALLS is None, reason="add_key and keyctl numbers known for x86_64 and aarch64 only")
def test_a_zygote_clears_every_ipc_object_and_key_a_job_left_where_they_shared_them():
    """Where a job could have no IPC namespace or keyrings of its own, its zygote clears up after it
    (``clear_shared_objects``): every shared memory segment, message queue, semaphore set and key
    that the namespace holds is gone, as a later job would look for them."""
    shown = _ordinary(_key_calls(f"""
        import json, sys
        sys.path.insert(0, {str(ROOT)!r})
        from kata_harness.isolation import processes
        libc = ctypes.CDLL(None, use_errno=True)
        create = 0o1000 | 0o600
        def held():
            return {{"shm": libc.shmget(0x4B415441, 0, 0) >= 0, "msg": libc.msgget(0x4B415442, 0) >= 0,
                     "sem": libc.semget(0x4B415443, 0, 0) >= 0,
                     "key": libc.syscall(__KEYCTL__, 10, -4, b"user", b"kata-answers", 0) >= 0}}
        libc.shmget(0x4B415441, 1 << 20, create)
        libc.msgget(0x4B415442, create)
        libc.semget(0x4B415443, 1, create)
        libc.syscall(__ADD_KEY__, b"user", b"kata-answers", b"42", 2, -4)
        before = held()
        processes.clear_shared_objects()
        print(json.dumps({{"before": before, "after": held()}}))
    """))
    seen = json.loads(shown)
    assert seen["before"] == dict.fromkeys(("shm", "msg", "sem", "key"), True), seen   # each was made
    assert seen["after"] == dict.fromkeys(("shm", "msg", "sem", "key"), False), seen


SHARED_MAPPING = """
def filled(shape, value):
    import mmap
    size = (__MIB__ + 256) << 20
    memory = mmap.mmap(-1, size, flags=mmap.MAP_SHARED)
    for offset in range(0, size, 4096):
        memory[offset] = 1
    raise ValueError("held it all")
"""


@pytest.mark.e2e
def test_shared_memory_counts_against_the_memory_limit(worker):
    """``RLIMIT_DATA``, the limit a job had alone, does not count a shared mapping: an ordinary
    process limited to 64 MiB holds 128 MiB. A job that maps and touches more shared memory than
    its limit is stopped by the kernel, the note says so, its grading is not kept, and the next
    job of the same zygote grades as usual."""
    held = _ordinary("""
        import mmap, resource
        resource.setrlimit(resource.RLIMIT_DATA, (64 << 20, 64 << 20))
        memory = mmap.mmap(-1, 128 << 20, flags=mmap.MAP_SHARED)
        for offset in range(0, 128 << 20, 4096):
            memory[offset] = 1
        print("held", len(memory) >> 20)
    """)
    assert "held 128" in held

    attack = jobs.graded(worker, SHARED_MAPPING.replace("__MIB__", str(TEST_LIMIT_MIB)))
    info = next(f for f in FUNCTIONS if f.name == "filled")
    verdict = attack.verdicts[info.qualified]
    assert verdict.status == Status.ERROR and "held it all" not in jobs.message(attack)
    if worker.lane().process is not None and worker.lane().process.memory is not None:   # a memory cgroup
        assert verdict.reason_key == "error.crash" and "memory limit" in jobs.message(attack)
        assert any("memory limit (0.25 GiB)" in note for note in attack.notes), attack.notes
    assert not attack.normally
    jobs.all_pass(jobs.graded(worker))


@pytest.mark.e2e
def test_without_a_memory_cgroup_a_job_cannot_map_past_its_limit():
    """Where no memory cgroup can be had, a job caps its address space (what it holds now plus the
    limit), which counts shared mappings too: the same mapping is refused at once."""
    code = textwrap.dedent(f"""
        import mmap, os, sys
        sys.path.insert(0, {str(ROOT)!r})
        os.environ[{sandbox.MEMORY_VARIABLE!r}] = "{TEST_LIMIT_MIB}"
        from kata_harness.isolation import sandbox
        sandbox.limit_address_space()
        try:
            mmap.mmap(-1, ({TEST_LIMIT_MIB} + 256) << 20, flags=mmap.MAP_SHARED)
            print("mapped")
        except OSError as error:
            print("refused", error.strerror)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    if sandbox._gpu_devices():
        pytest.skip("a GPU is bound here: the address space is not capped (CUDA reserves far more)")
    assert done.stdout.strip() == "refused Cannot allocate memory", done.stdout + done.stderr


# A job that tries, on every process it can name, what a process of the same owner could do to
# its zygote: lower its CPU-time limit, lower its priority, signal it, pin it to one CPU, and
# raise its OOM score and its autogroup's niceness through /proc.
MEDDLER = """
def filled(shape, value):
    import json, os, resource
    me = int(os.readlink("/proc/self"))
    seen = {"own pid namespace": os.getpid() == 1}
    for pid in [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in (me, os.getpid())]:
        for name, attempt in (("prlimit", lambda: resource.prlimit(pid, resource.RLIMIT_CPU, (100000, 100000))),
                              ("renice", lambda: os.setpriority(os.PRIO_PROCESS, pid, 19)),
                              ("signal", lambda: os.kill(pid, 0)),
                              ("affinity", lambda: os.sched_setaffinity(pid, {min(os.sched_getaffinity(0))}))):
            try:
                attempt()
                seen.setdefault(name, []).append(pid)
            except OSError:
                pass
        for name, text in (("oom_score_adj", "900"), ("autogroup", "19")):
            try:
                with open(f"/proc/{pid}/{name}", "w") as target:
                    target.write(text)
                seen.setdefault(name, []).append(pid)
            except OSError:
                pass
    raise ValueError("seen: " + json.dumps(seen))
"""


@pytest.mark.e2e
def test_no_job_changes_its_zygote_or_the_zygote_retires(worker):
    """An ordinary child lowers its parent's CPU-time limit and priority. A job cannot name its
    zygote at all where the zygote has namespaces to give it (this machine's kernel does); whatever
    it still changed (a write to the zygote's /proc files) retires that zygote after the job, so
    the next submission's job runs on a fresh one, as if alone."""
    shown = _ordinary("""
        import resource
        parent = os.getpid()
        if os.fork() == 0:
            resource.prlimit(parent, resource.RLIMIT_CPU, (100000, 100000))
            os.setpriority(os.PRIO_PROCESS, parent, 19)
            os._exit(0)
        os.wait()
        print(resource.getrlimit(resource.RLIMIT_CPU)[0], os.getpriority(os.PRIO_PROCESS, 0))
    """)
    assert shown.split() == ["100000", "19"]

    jobs.all_pass(jobs.graded(worker))
    before = worker.lane().process
    seen = jobs.seen(jobs.graded(worker, MEDDLER))
    after = worker.lane().process
    if seen["own pid namespace"]:
        assert not {"prlimit", "renice", "signal", "affinity"} & set(seen), seen
    if set(seen) - {"own pid namespace"}:   # it changed something: that zygote serves no one else
        assert after is None or after is not before, seen
    honest = jobs.graded(worker)
    jobs.all_pass(honest)
    assert honest.normally and not honest.notes


@pytest.mark.e2e
def test_a_job_whose_zygote_died_under_it_is_graded_again(worker, monkeypatch):
    """The zygote dies (killed from outside) while an honest job imports its kata: the judge alone
    charges that job's functions (the damage the issue saw, a classmate's row charged a crash),
    but batch grades the kata again on a fresh zygote: every function passes, the row says so,
    and is not cached."""
    jobs.all_pass(jobs.graded(worker))   # the zygote is warm
    attempts: list[Grading] = []
    real_grade = batch.grade

    def grade_and_keep(*args, **kwargs):
        attempts.append(real_grade(*args, **kwargs))
        return attempts[-1]

    monkeypatch.setattr(batch, "grade", grade_and_keep)
    zygote = worker.lane().process
    assert zygote is not None

    def kill_it_soon() -> None:
        time.sleep(0.6)
        os.kill(zygote.process.pid, signal.SIGKILL)   # not the lane's own stop: from outside

    killer = threading.Thread(target=kill_it_soon)
    killer.start()
    slow = jobs.graded(worker, prefix="import time\ntime.sleep(1.5)\n")
    killer.join()
    assert len(attempts) == 2, attempts
    first = {name: v.reason_key for name, v in attempts[0].verdicts.items() if v.status != Status.PASSED}
    assert first and set(first.values()) <= {"error.crash", "error.timeout"}, first
    jobs.all_pass(slow)
    assert not slow.normally and any("graded again" in note for note in slow.notes), slow.notes


def test_only_rows_whose_every_job_ended_normally_are_cached(tmp_path, monkeypatch):
    """A row whose grading was interrupted (a crash, a retry) is graded again on the next run,
    even with the same files and the same state; a clean one is reused."""
    submissions = tmp_path / "class"
    for name in ("ann", "bob"):
        (submissions / name).mkdir(parents=True)
        (submissions / name / f"{KATA}.py").write_text(REFERENCE + f"\n# {name}\n", encoding="utf-8")
    graded: list[str] = []
    crash_bob = [True]

    def stand_in(chosen, solutions, expected, **options):
        text = b"".join(path.read_bytes() for path in solutions.iterdir())
        graded.append("bob" if b"# bob" in text else "ann")
        interrupted = graded[-1] == "bob" and crash_bob[0]
        status = Status.ERROR if interrupted else Status.PASSED
        return Grading(verdicts={f.qualified: Verdict(status) for f in chosen}, interrupted=interrupted)

    monkeypatch.setattr(batch, "grade", stand_in)
    monkeypatch.setattr(batch, "can_fork", lambda: False)   # no zygote to start: the stand-in grades
    out = tmp_path / "book.json"

    def run() -> dict:
        rows = batch.run_batch(submissions, out, FUNCTIONS, lambda: {}, project=Layout(ROOT), jobs=1, function_timeout=1.0,
                               sandboxed=False, log=io.StringIO())
        return {row["submission"]: row["score"] for row in rows}

    full = sum(f.points for f in FUNCTIONS)
    assert run() == {"ann": full, "bob": 0} and graded == ["ann", "bob"]
    cached = json.loads(batch._cache_path(out).read_text())["rows"]
    assert set(cached) == {"ann"}
    crash_bob[0] = False
    assert run() == {"ann": full, "bob": full} and graded == ["ann", "bob", "bob"]
    assert run() == {"ann": full, "bob": full} and graded == ["ann", "bob", "bob"]


@pytest.mark.e2e
def test_a_zygote_names_no_other_process_and_its_settings_are_watched():
    """The pieces the zygote is built from, in a plain process: its forked job is the first of a
    pid namespace of its own (where namespaces are allowed), and ``processes.settings`` sees a
    changed limit."""
    shown = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import os, resource, sys
        sys.path.insert(0, sys.argv[1])
        from kata_harness.isolation import processes
        own = processes.enter_zygote_namespaces()
        forks = processes.JobForks(own)
        before = processes.settings()
        pid = forks.fork()
        if pid == 0:
            print("job", os.getpid(), os.getppid(), flush=True)
            os._exit(0)
        os.waitpid(pid, 0)
        resource.setrlimit(resource.RLIMIT_CPU, (100000, resource.getrlimit(resource.RLIMIT_CPU)[1]))
        print("own", own, "changed", processes.settings() != before, flush=True)
    """), str(ROOT)], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    lines = dict(line.split(" ", 1) for line in shown.stdout.splitlines())
    if lines["own"].startswith("True"):
        assert lines["job"] == "1 0"
    assert lines["own"].endswith("changed True")
    assert Path("/proc/self").readlink().name == str(processes.pid_in_proc())
