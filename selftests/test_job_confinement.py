"""No job reaches another job, the grader or any other process over a network or a socket, and no
job holds memory past its limit outside its address space, nor makes the machine run out of memory
for its classmates.

As in ``test_job_isolation``, each attack is first shown working for ordinary processes (else the
test would prove nothing), then failing against batch's own worker: a real zygote (sandboxed where
bubblewrap runs) grading one submission's kata file as batch does, the attack in place of one
function, which reports what it managed (``raise ValueError("seen: {...}")``).
"""

from __future__ import annotations

import ctypes
import json
import os
import select
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from kata_harness.batch import engine as batch
from kata_harness.isolation import processes, sandbox
from kata_harness.judging.verdicts import Status
from kata_harness.layout import LAYOUT
from selftests import jobs
from selftests.gradekit import ROOT
from selftests.jobs import FUNCTIONS, KATA, REFERENCE, TEST_LIMIT_MIB

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux namespaces, seccomp and fork")

FILTERED = processes._SECCOMP_CALLS.get(os.uname().machine.lower()) is not None   # the calls a job may not make


@pytest.fixture(scope="module")
def worker():
    """One batch worker (sandboxed where bubblewrap runs) whose jobs may hold TEST_LIMIT_MIB MiB."""
    with jobs.batch_worker() as made:
        yield made


class _Listeners:
    """What a grader, or another job, could be reached by: an abstract UNIX socket, a TCP port and a
    UDP port on loopback, all held open by this process."""

    def __init__(self) -> None:
        self.name = f"kata-reach-{os.getpid()}-{time.monotonic_ns()}"
        self.unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.unix.bind("\0" + self.name)
        self.unix.listen()
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))

    def ports(self) -> tuple[int, int]:
        return self.tcp.getsockname()[1], self.udp.getsockname()[1]

    def datagram_arrived(self, wait: float = 1.0) -> bool:
        """Whether a datagram came to the UDP port (reading it)."""
        ready, _, _ = select.select([self.udp], [], [], wait)
        if ready:
            self.udp.recv(100)
        return bool(ready)

    def close(self) -> None:
        for held in (self.unix, self.tcp, self.udp):
            held.close()


# What a process tries against ``_Listeners``: its abstract socket, its TCP port, a datagram to its
# UDP port; and whether it could use loopback at all (bind a port of its own and connect to it).
REACH = """
import json, socket
def _reach(name, tcp, udp):
    seen = {}
    for key, family, kind, address in (("abstract", socket.AF_UNIX, socket.SOCK_STREAM, "\\0" + name),
                                       ("tcp", socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", tcp))):
        try:
            with socket.socket(family, kind) as s:
                s.settimeout(2)
                s.connect(address)
            seen[key] = True
        except OSError:
            seen[key] = False
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.sendto(b"answers", ("127.0.0.1", udp))
        seen["udp sent"] = True
    except OSError:
        seen["udp sent"] = False
    try:
        with socket.create_server(("127.0.0.1", 0)) as server, socket.create_connection(server.getsockname(), 2):
            seen["loopback"] = True
    except OSError:
        seen["loopback"] = False
    return seen
"""


def _reach_from_fork(listeners: _Listeners, isolate: bool) -> dict | None:
    """What a process forked from this one reaches of ``listeners``: plainly, or after the steps
    that make a job's network its own (``isolate_job``: None where this kernel allows none)."""
    namespace: dict = {}
    exec(REACH, namespace)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_end)
            before = Path("/proc/self/ns/net").readlink()
            ok = not isolate or (processes.isolate_job() and Path("/proc/self/ns/net").readlink() != before)
            seen = namespace["_reach"](listeners.name, *listeners.ports()) if ok else None
            os.write(write_end, json.dumps(seen).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    answer = b"".join(iter(lambda: os.read(read_end, 4096), b""))
    os.close(read_end)
    os.waitpid(pid, 0)
    seen = json.loads(answer)
    if seen is not None:
        seen["udp"] = listeners.datagram_arrived()
    return seen


def test_a_job_reaches_no_socket_of_the_processes_beside_it():
    """Processes beside each other (two jobs in one sandbox, a job and its grader) reach each other
    by an abstract UNIX socket, a TCP port and a UDP port on loopback; once a process has taken the
    network namespace a job takes (``isolate_job``), it reaches none of them, and cannot even use
    loopback of its own: its network has one device, down."""
    listeners = _Listeners()
    try:
        plain = _reach_from_fork(listeners, isolate=False)
        assert plain == {"abstract": True, "tcp": True, "udp sent": True, "udp": True, "loopback": True}, plain
        isolated = _reach_from_fork(listeners, isolate=True)
        if isolated is None:
            pytest.skip("this machine allows no user namespace for an unprivileged process")
        assert isolated == {"abstract": False, "tcp": False, "udp sent": False, "udp": False, "loopback": False}
    finally:
        listeners.close()


REACHER = REACH + """
def filled(shape, value):
    raise ValueError("seen: " + json.dumps(_reach(__NAME__, __TCP__, __UDP__)))
"""


def _reacher(listeners: _Listeners) -> str:
    tcp, udp = listeners.ports()
    return REACHER.replace("__NAME__", repr(listeners.name)).replace("__TCP__", str(tcp)).replace("__UDP__", str(udp))


@pytest.mark.e2e
def test_no_job_reaches_the_grader_by_a_socket(worker):
    """A job of batch's zygote tries the grader's side: an abstract UNIX socket, a TCP and a UDP
    port on loopback, open in this process (which an ordinary process reaches, as the test above
    shows). It reaches none, has no loopback of its own, and the next job grades as usual."""
    listeners = _Listeners()
    try:
        seen = jobs.seen(jobs.graded(worker, _reacher(listeners)))
        assert not listeners.datagram_arrived(0.5)
    finally:
        listeners.close()
    assert seen == {"abstract": False, "tcp": False, "udp sent": False, "loopback": False}, seen
    jobs.all_pass(jobs.graded(worker))


# A job that waits for a classmate's job to call on it: on an abstract socket and a loopback port.
WAITER = """
_SEEN = {}
def filled(shape, value):
    import json, socket, time
    if _SEEN:   # called again for the next case: the attempt was made once
        raise ValueError("seen: " + json.dumps(_SEEN))
    listening = []
    for key, family, address in (("abstract", socket.AF_UNIX, "\\0kata-classmates-__TAG__"),
                                 ("tcp", socket.AF_INET, ("127.0.0.1", __PORT__))):
        try:
            s = socket.socket(family, socket.SOCK_STREAM)
            s.bind(address)
            s.listen()
            s.settimeout(0.1)
            listening.append((key, s))
            _SEEN[key + " listening"] = True
        except OSError:
            _SEEN[key + " listening"] = False
    until = time.monotonic() + 3
    while time.monotonic() < until:
        for key, s in listening:
            try:
                s.accept()
                _SEEN[key + " called"] = True
            except OSError:
                pass
    raise ValueError("seen: " + json.dumps(_SEEN))
"""

CALLER = """
_SEEN = {}
def filled(shape, value):
    import json, socket, time
    if _SEEN:
        raise ValueError("seen: " + json.dumps(_SEEN))
    _SEEN.update({"abstract": False, "tcp": False})
    until = time.monotonic() + 1.5
    while time.monotonic() < until and not all(_SEEN.values()):
        for key, family, address in (("abstract", socket.AF_UNIX, "\\0kata-classmates-__TAG__"),
                                     ("tcp", socket.AF_INET, ("127.0.0.1", __PORT__))):
            try:
                with socket.socket(family, socket.SOCK_STREAM) as s:
                    s.connect(address)
                _SEEN[key] = True
            except OSError:
                time.sleep(0.05)
    raise ValueError("seen: " + json.dumps(_SEEN))
"""


@pytest.mark.e2e
def test_no_job_reaches_a_classmates_job_by_a_socket(worker):
    """Two jobs graded at once, by two batch workers: one listens on an abstract socket and a
    loopback port, the other calls on them (the primitive: two ordinary processes meet that way,
    as the first test shows). Neither can so much as make a socket where the calls are filtered,
    nor meet the other anywhere."""
    tag, port = f"{os.getpid()}-{time.monotonic_ns()}", 40000 + os.getpid() % 20000
    other = batch._Worker(sandbox.available(), project=LAYOUT)
    other.table = jobs.table()
    try:
        jobs.all_pass(jobs.graded(other))   # its zygote is warm: the two jobs below run at once
        waited: list = []
        waiter = threading.Thread(target=lambda: waited.append(jobs.graded(other, WAITER.replace(
            "__TAG__", tag).replace("__PORT__", str(port)))))
        waiter.start()
        time.sleep(0.5)
        called = jobs.seen(jobs.graded(worker, CALLER.replace("__TAG__", tag).replace("__PORT__", str(port))))
        waiter.join()
        listened = jobs.seen(waited[0])
    finally:
        other.close()
    assert called == {"abstract": False, "tcp": False}, called
    assert not any(key.endswith("called") for key in listened), listened
    if FILTERED:
        assert listened == {"abstract listening": False, "tcp listening": False}, listened


# A job that tries every way to hold memory outside its address space: files in /tmp and /dev/shm, a
# tmpfs mounted in a user namespace of its own, a memory file, a SysV shared segment left detached,
# pipe buffers and socket buffers filled up to ``__CAP__`` MiB each (as many as it can open, up to
# 2000 pipe files); and
# reads its OOM score.
HOLDER = """
def filled(shape, value):
    import ctypes, fcntl, json, mmap, os, socket
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    cap = __CAP__ << 20
    seen, kept = {}, []
    for path in ("/tmp/kata-held", "/dev/shm/kata-held"):
        try:
            with open(path, "wb") as held:
                held.write(bytes(1 << 20))
            os.unlink(path)
            seen[path] = True
        except OSError:
            seen[path] = False
    seen["own mount namespace"] = libc.unshare(0x10000000 | 0x20000) == 0
    try:
        kept.append(os.memfd_create("kata-held"))
        os.write(kept[-1], bytes(1 << 20))
        seen["memfd"] = True
    except OSError:
        seen["memfd"] = False
    segment = libc.shmget(0, 1 << 20, 0o1600)
    seen["detached shared segment"] = segment >= 0
    if segment >= 0:
        libc.shmctl(segment, 0, None)   # IPC_RMID: gone once detached (this is a test)
    held = files = 0
    try:
        while held < cap and files < 2000:   # (leaving files for the sockets below)
            read_end, write_end = os.pipe()
            kept += [read_end, write_end]
            files += 2
            try:
                fcntl.fcntl(write_end, 1031, 1 << 20)   # F_SETPIPE_SZ
            except OSError:
                pass
            os.set_blocking(write_end, False)
            try:
                while held < cap:
                    held += os.write(write_end, bytes(1 << 16))
            except BlockingIOError:
                pass
    except OSError:
        pass
    seen["pipe files"], seen["pipe MiB"] = files, held >> 20
    held = 0
    try:
        while held < cap:
            pair = socket.socketpair()
            kept += [s.detach() for s in pair]
            for end in kept[-2:]:
                s = socket.socket(fileno=end)
                s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 64 << 20)
                s.setblocking(False)
                try:
                    while held < cap:
                        held += s.send(bytes(1 << 16))
                except BlockingIOError:
                    pass
                s.detach()
    except OSError:
        pass
    seen["socket MiB"] = held >> 20
    for fd in kept:
        os.close(fd)
    seen["oom_score_adj"] = int(open("/proc/self/oom_score_adj").read())
    raise ValueError("seen: " + json.dumps(seen))
"""


def _holder(cap_mib: int) -> str:
    return HOLDER.replace("__CAP__", str(cap_mib))


@pytest.mark.e2e
def test_no_job_holds_memory_outside_its_address_space_past_its_limit(worker):
    """An ordinary process whose address space is capped at what it holds plus TEST_LIMIT_MIB
    still writes files to /tmp and /dev/shm, mounts a tmpfs of its own, writes a memory file, makes
    a shared segment, and holds more than that limit in socket buffers alone (which no memory cgroup
    counts either). A job of batch's zygote can do none of these where the calls are filtered: its
    /tmp and /dev/shm are read-only in the sandbox, namespaces, memory files, shared segments and
    sockets are refused, and what pipe buffers it fills are bounded by the files it may hold open.
    Its OOM score is the highest. The next job grades as usual."""
    cap = TEST_LIMIT_MIB + 64
    code = textwrap.dedent(f"""
        import resource, sys
        sys.path.insert(0, {str(ROOT)!r})
        import os
        os.environ[{sandbox.MEMORY_VARIABLE!r}] = "{TEST_LIMIT_MIB}"
        from kata_harness.isolation import sandbox
        sandbox.limit_address_space()
    """) + _holder(cap) + "\ntry:\n    filled(None, None)\nexcept ValueError as error:\n    print(error)\n"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert "seen: " in shown.stdout, shown.stderr[-2000:]
    ordinary = json.loads(shown.stdout.split("seen: ", 1)[1])
    assert ordinary["/tmp/kata-held"] and ordinary["memfd"] and ordinary["detached shared segment"], ordinary
    assert ordinary["socket MiB"] >= TEST_LIMIT_MIB, ordinary   # past the limit, outside the address space

    seen = jobs.seen(jobs.graded(worker, _holder(cap)))
    assert seen["oom_score_adj"] == 1000, seen
    assert seen["pipe files"] <= sandbox.OPEN_FILES_LIMIT, seen
    assert seen["pipe MiB"] + seen["socket MiB"] < TEST_LIMIT_MIB, seen
    if sandbox.available():
        assert not seen["/tmp/kata-held"] and not seen["/dev/shm/kata-held"], seen
    if FILTERED:
        assert not seen["own mount namespace"] and not seen["memfd"] and not seen["detached shared segment"], seen
        assert seen["socket MiB"] == 0, seen
    jobs.all_pass(jobs.graded(worker))


POPULATED = """
def filled(shape, value):
    import mmap
    memory = mmap.mmap(-1, (__MIB__ + 256) << 20, flags=mmap.MAP_SHARED | mmap.MAP_POPULATE)
    raise ValueError("held it all")
"""


@pytest.mark.e2e
def test_a_populated_shared_mapping_counts_against_the_limit(worker):
    """``MAP_POPULATE`` makes the kernel fill a shared mapping at once, in one call, which
    ``RLIMIT_DATA`` does not count (an ordinary process limited to 64 MiB holds 128 MiB that way);
    in a job it is stopped at the limit (a memory cgroup) or refused (the address-space cap)."""
    shown = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import mmap, resource
        resource.setrlimit(resource.RLIMIT_DATA, (64 << 20, 64 << 20))
        memory = mmap.mmap(-1, 128 << 20, flags=mmap.MAP_SHARED | mmap.MAP_POPULATE)
        print("held", len(memory) >> 20)
    """)], capture_output=True, text=True, timeout=60)
    assert "held 128" in shown.stdout, shown.stderr
    attack = jobs.graded(worker, POPULATED.replace("__MIB__", str(TEST_LIMIT_MIB)))
    info = next(f for f in FUNCTIONS if f.name == "filled")
    assert attack.verdicts[info.qualified].status == Status.ERROR and "held it all" not in jobs.message(attack)
    jobs.all_pass(jobs.graded(worker))


@pytest.mark.parametrize("gpu", [False, True])
def test_the_filter_lets_a_job_fork_start_threads_and_run_programs(gpu):
    """What a kata may still do under the filter (``restrict_system_calls``): fork, start a thread
    (the C library's clone3 is answered "no such call" and falls back to clone), run a program;
    and, where a GPU is bound (whose driver may need them), make a socket."""
    if not FILTERED:
        pytest.skip("no system call filter for this machine")
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_end)
            processes.drop_capabilities()
            seen = {"filtered": processes.restrict_system_calls(gpu=gpu)}
            libc = ctypes.CDLL(None, use_errno=True)
            seen["unshare"] = libc.unshare(0x10000000) == 0
            try:
                socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close()
                seen["socket"] = True
            except OSError:
                seen["socket"] = False
            ran: list = []
            thread = threading.Thread(target=lambda: ran.append(True))
            thread.start()
            thread.join()
            seen["thread"] = ran == [True]
            seen["program"] = subprocess.run(["/bin/false"]).returncode == 1
            child = os.fork()
            if child == 0:
                os._exit(5)
            seen["fork"] = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) == 5
            os.write(write_end, json.dumps(seen).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    answer = b"".join(iter(lambda: os.read(read_end, 4096), b""))
    os.waitpid(pid, 0)
    assert json.loads(answer) == {"filtered": True, "unshare": False, "socket": gpu, "thread": True, "program": True,
                                  "fork": True}


# A job that holds a memory file, then maps far more shared memory than the machine has (3 GiB).
EXHAUSTER = """
def filled(shape, value):
    import mmap, os
    try:
        memory_file = os.memfd_create("held")
        os.ftruncate(memory_file, 3 << 30)
        os.write(memory_file, bytes(1 << 20))
    except OSError:
        pass
    memory = mmap.mmap(-1, 3 << 30, flags=mmap.MAP_SHARED | mmap.MAP_POPULATE)
    raise ValueError("held it all")
"""


def _in_cgroup(folder, *command: str, **options) -> subprocess.Popen:
    """Start ``command`` as a process of the cgroup ``folder`` (it moves itself in before it runs)."""
    return subprocess.Popen(["sh", "-c", f'echo $$ > "{folder}/cgroup.procs" && exec "$@"', "sh", *command], **options)


# An ordinary "grader" that holds BYSTANDER_MIB MiB of its own and waits, and an attacker that holds
# ATTACKER_MIB MiB in a memory file it never maps (none of it in its own resident memory).
BYSTANDER_MIB, ATTACKER_MIB, MACHINE_MIB = 150, 300, 400
BYSTANDER = f"import sys, time\nheld = bytearray({BYSTANDER_MIB} << 20)\nprint('holding', flush=True)\ntime.sleep(60)\n"
ATTACKER = f"""
import os, time
memory = os.memfd_create("held")
for _ in range({ATTACKER_MIB}):
    os.write(memory, bytes(1 << 20))
print("held", os.fstat(memory).st_size >> 20, flush=True)
"""


@pytest.mark.e2e
def test_a_job_that_exhausts_the_machine_costs_its_classmates_nothing(tmp_path):
    """The machine is a memory cgroup of MACHINE_MIB MiB here (the only way to run a machine out of
    memory in a test). Between ordinary processes, the attack works: an attacker holding memory the
    kernel does not see as its own (a memory file) makes the machine run out, and the kernel stops
    the process that holds the most of its own, a bystander (the grader, in a real attack). A
    ``grade.py batch`` in such a machine, whose attacker maps far more than the machine has: the job
    is the one stopped (its OOM score is the highest, and memory files are refused to it), the grader
    survives and writes the gradebook, and the classmates graded before and after it keep full marks."""
    machine = sandbox.JobMemory.make(MACHINE_MIB << 20)
    if machine is None:
        pytest.skip("no memory cgroup can be made here to stand for a machine")
    try:
        bystander = _in_cgroup(machine.folder, sys.executable, "-c", BYSTANDER, stdout=subprocess.PIPE, text=True)
        assert bystander.stdout is not None and bystander.stdout.readline().strip() == "holding"
        attacker = _in_cgroup(machine.folder, sys.executable, "-c", ATTACKER, stdout=subprocess.PIPE, text=True)
        out, _ = attacker.communicate(timeout=120)
        assert bystander.wait(timeout=60) == -9 and out.strip() == f"held {ATTACKER_MIB}", out
    finally:
        machine.remove()

    folder = tmp_path / "class"
    for name in ("ann", "mal", "zoe"):
        (folder / name).mkdir(parents=True)
        (folder / name / f"{KATA}.py").write_text(REFERENCE + (EXHAUSTER if name == "mal" else ""), encoding="utf-8")
    grader_limit = MACHINE_MIB + 600   # what grade.py, its zygote and two honest jobs need here, and some
    machine = sandbox.JobMemory.make(grader_limit << 20)
    assert machine is not None
    environment = {k: v for k, v in os.environ.items() if k != sandbox.MEMORY_VARIABLE}   # jobs: 4 GiB
    try:
        grading = _in_cgroup(machine.folder, sys.executable, str(ROOT / "grade.py"), "batch", str(folder), "--against",
                             "answer-key", "--out", str(tmp_path / "book.json"), "-j", "1",
                             *([] if sandbox.available() else ["--no-sandbox"]), cwd=ROOT, env=environment,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _, errors = grading.communicate(timeout=600)
    finally:
        machine.remove()
    assert grading.returncode == 0, errors[-3000:]
    rows = {row["submission"]: row for row in json.loads((tmp_path / "book.json").read_text())}
    scores = {name: {f.name: row[f.qualified] for f in FUNCTIONS} for name, row in rows.items()}
    full = {f.name: f.points for f in FUNCTIONS}
    assert scores["ann"] == full and scores["zoe"] == full, scores
    assert scores["mal"] == {**full, "filled": 0}, scores["mal"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to become another user")
def test_a_job_of_an_unprivileged_user_takes_the_highest_oom_score_too():
    """The ``/proc`` file of a process that is not dumpable (every grading child) belongs to root:
    a job of another user (``KATA_RUN_AS``, or an instructor who is not root) still takes the
    highest OOM score, and is not dumpable afterwards."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_end)
            os.setgid(65534)
            os.setuid(65534)
            processes.hide_from_same_user()
            processes.first_to_go_out_of_memory()
            dumpable = ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)   # PR_GET_DUMPABLE
            score = Path("/proc/self/oom_score_adj").read_text().strip()
            os.write(write_end, json.dumps([score, dumpable]).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    answer = b"".join(iter(lambda: os.read(read_end, 4096), b""))
    os.waitpid(pid, 0)
    assert json.loads(answer) == ["1000", 0]
