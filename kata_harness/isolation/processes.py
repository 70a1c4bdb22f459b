"""Process trees on every OS: start a child in its own group, kill it with all it started.

POSIX: each child leads its own session (process group), killed as a whole; on Linux the
grading process also becomes a *subreaper*, so that a grandchild that escapes its group
(double fork, ``setsid``) is re-parented to us and killed too. Windows: ``taskkill /T``
kills the tree. Nothing here assumes ``os.fork``, ``os.killpg`` or ``signal.SIGKILL`` exist.
"""

from __future__ import annotations

import os
import platform
import signal
import subprocess
import sys
from collections.abc import Collection
from functools import cache
from pathlib import Path

_KILL = getattr(signal, "SIGKILL", signal.SIGTERM)
_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_DUMPABLE = 4
_PR_SET_PDEATHSIG = 1


def usable_cores() -> float:
    """How many CPUs' worth of time this process may use: the CPUs it may run on (its affinity,
    Linux), fewer where a CPU quota of its cgroup or of one above it allows less (a container given
    half a CPU: 0.5)."""
    cores = float(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
    for folder, version in own_cgroups("cpu", above=True):
        try:
            if version == 2:
                quota, period = (folder / "cpu.max").read_text().split()[:2]
            else:
                quota, period = ((folder / name).read_text().strip() for name in ("cpu.cfs_quota_us", "cpu.cfs_period_us"))
            if quota not in ("max", "-1") and int(period) > 0:
                cores = min(cores, int(quota) / int(period))
        except (OSError, ValueError):
            continue
    return cores


def available_memory() -> int | None:
    """Bytes this process could still take: the system's available memory, less where a memory
    limit of its cgroup or of one above it leaves less (None where neither can be read: not Linux)."""
    found = []
    try:
        found += [int(line.split()[1]) << 10 for line in Path("/proc/meminfo").read_text().splitlines()
                  if line.startswith("MemAvailable:")]
    except (OSError, ValueError, IndexError):
        pass
    for folder, version in own_cgroups("memory", above=True):
        limit_file, usage_file = ("memory.max", "memory.current") if version == 2 else \
            ("memory.limit_in_bytes", "memory.usage_in_bytes")
        try:
            limit = (folder / limit_file).read_text().strip()
            if limit != "max" and int(limit) < 1 << 60:   # version 1 writes "no limit" as a huge number
                found.append(int(limit) - int((folder / usage_file).read_text()))
        except (OSError, ValueError):
            continue
    return min(found) if found else None


def own_cgroups(controller: str, above: bool = False) -> list[tuple[Path, int]]:
    """The folders of this process's own cgroups that have ``controller`` (``memory``, ``cpu``), with
    their version (1 or 2; version 2's unified hierarchy has every controller it was given), and
    with ``above`` every folder above each, up to its mount point (a container's limits may be set
    on any of them). Empty where there are none to read (not Linux)."""
    try:
        memberships = Path("/proc/self/cgroup").read_text().splitlines()
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return []
    found = []
    for mount in mounts:
        before, _, after = mount.partition(" - ")
        fields, tail = before.split(), after.split()
        if len(fields) < 5 or len(tail) < 3:
            continue
        root, point, kind, options = fields[3], fields[4], tail[0], tail[2].split(",")
        for membership in memberships:
            number, controllers, path = (membership.split(":", 2) + ["", ""])[:3]
            if kind == "cgroup" and controller in options and controller in controllers.split(","):
                version = 1
            elif kind == "cgroup2" and number == "0" and controllers == "":
                version = 2
            else:
                continue
            if not (path + "/").startswith(root.rstrip("/") + "/"):
                continue
            parts = [part for part in path[len(root.rstrip("/")):].split("/") if part]
            depths = range(len(parts), -1, -1) if above else [len(parts)]
            found += [(Path(point).joinpath(*parts[:depth]), version) for depth in depths]
    return found


def popen_options() -> dict:
    """Keyword arguments for ``subprocess.Popen`` that give the child a tree of its own."""
    if os.name == "nt":
        return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}
    return {"start_new_session": True}


# glibc's malloc asks for transparent huge pages for its heap (glibc 2.35 and later; elsewhere the
# setting is ignored): torch's heap in a zygote then takes a few hundred page-table entries instead
# of tens of thousands, which every fork copies and every job's exit tears down again (a bare fork
# and exit of a warm zygote costs half as much; ``benchmarks/fork_cost.py``).
HUGE_PAGES_TUNABLE = "glibc.malloc.hugetlb=1"


def fork_friendly(environment: dict) -> dict:
    """``environment`` for a child that imports torch and is forked (or forks): glibc's malloc
    tunables with huge pages added to those the user set (a ``hugetlb`` setting of theirs wins)."""
    tunables = [t for t in environment.get("GLIBC_TUNABLES", "").split(":") if t]
    if not sys.platform.startswith("linux") or any(t.startswith("glibc.malloc.hugetlb=") for t in tunables):
        return environment
    return {**environment, "GLIBC_TUNABLES": ":".join([*tunables, HUGE_PAGES_TUNABLE])}


RUN_AS_VARIABLE = "KATA_RUN_AS"


def learner_user_options(environment: dict) -> dict:
    """``subprocess.Popen`` options that run an unsandboxed learner child as the user named by
    ``KATA_RUN_AS`` (with its own group only), when grade.py runs as root; else none.

    Where bubblewrap cannot run (a Docker container such as Gradescope's, as root), learner code
    would otherwise run as root: able to read the reference, kill the grader and write its
    results. As another user it can do none of that, provided the instructor's files are not
    readable by others (the Gradescope template's setup.sh sees to that). ``environment``, the
    child's, gets a ``HOME`` that user may write. Raises ``LookupError`` for an unknown user."""
    name = os.environ.get(RUN_AS_VARIABLE, "")
    if not name or os.name == "nt" or os.geteuid() != 0:
        return {}
    import pwd  # deferred: POSIX only
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        raise LookupError(f"{RUN_AS_VARIABLE}={name}: there is no such user here") from None
    if entry.pw_uid == 0:
        raise LookupError(f"{RUN_AS_VARIABLE}={name}: that user is root, which protects nothing")
    environment["HOME"] = "/tmp"
    environment.pop("XDG_CACHE_HOME", None)
    return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}


def check_learner_user(root: Path) -> None:
    """Raise ``LookupError`` unless ``KATA_RUN_AS``, where it applies, names a user that can run
    this interpreter on the project at ``root`` (else every learner child would fail to start)."""
    environment = dict(os.environ)
    options = learner_user_options(environment)
    if not options:
        return
    try:
        done = subprocess.run([sys.executable, "-c", "import kata_harness.files"], cwd=root, env=environment,
                              capture_output=True, timeout=120, **options)
        problem = done.stderr.decode(errors="replace").strip().splitlines()[-1:] if done.returncode else []
    except (OSError, subprocess.SubprocessError) as error:
        problem = [str(error)]
    if problem:
        raise LookupError(f"{RUN_AS_VARIABLE}={os.environ[RUN_AS_VARIABLE]}: that user cannot run {sys.executable} "
                          f"on {root} ({problem[0]}); make both readable by all users")


def kill_tree(process: subprocess.Popen) -> None:
    """Kill ``process`` and every process in its group (or, on Windows, its tree)."""
    if process.poll() is not None and os.name != "nt":
        _kill_group(process.pid)   # the leader is gone, but what it started may not be
        return
    if os.name == "nt":
        subprocess.run(["taskkill", "/F", "/T", "/PID", str(process.pid)], capture_output=True)
    elif hasattr(os, "killpg"):
        _kill_group(process.pid)
    try:
        # Popen.kill sends SIGKILL where it exists; on Windows terminate() is the same hard stop.
        process.kill() if hasattr(signal, "SIGKILL") else process.terminate()
    except OSError:
        pass


def _kill_group(pid: int) -> None:
    if hasattr(os, "killpg"):
        try:
            os.killpg(pid, _KILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass


def _prctl(option: int, value: int) -> bool:
    """Linux: ``prctl(option, value)``; whether it took (False on other systems, and where the C
    library cannot be called)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return _libc().prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def become_subreaper() -> bool:
    """Linux: orphans of our descendants become our children (so ``kill_orphans`` finds them)."""
    return _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def die_with_parent(parent: int) -> None:
    """Linux: have the kernel kill this process the moment ``parent`` dies (and end now if it has
    died already). A forked job that kills its zygote would otherwise be re-parented to the
    grader, the subreaper above it, and could then kill the grader with ``os.getppid()``."""
    if not sys.platform.startswith("linux"):
        return
    _prctl(_PR_SET_PDEATHSIG, int(_KILL))
    if os.getppid() != parent:   # it died before the line above took effect
        os._exit(1)


def hide_from_same_user() -> bool:
    """Linux: make this process non-dumpable, so that a process of the same user (learner code
    running unsandboxed) cannot read its memory or ``/proc/<pid>/environ`` (which holds
    KATA_SECRET in official grading). Children start dumpable again at exec: nothing else changes."""
    return _prctl(_PR_SET_DUMPABLE, 0)


# capset(2)'s number by machine (the C library has no wrapper for it).
_CAPSET = {"x86_64": 126, "amd64": 126, "aarch64": 91, "arm64": 91, "riscv64": 91, "loongarch64": 91,
           "i386": 185, "i686": 185, "armv7l": 185, "s390x": 185, "ppc64le": 184, "ppc64": 184}
_PR_SET_NO_NEW_PRIVS = 38
_PR_CAPBSET_DROP = 24
_CAPABILITY_VERSION_3 = 0x20080522


def drop_capabilities() -> bool:
    """Linux: give up every capability for good: the bounding set (so that running a program as
    root brings none back), then the effective, permitted and inheritable sets, and no new
    privileges on exec. A learner process that runs as root outside the sandbox then cannot read
    or write the memory of a non-dumpable process (``hide_from_same_user``), the zygote it was
    forked from included. Returns whether it holds no capability now (True where there are none)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = _libc()
        libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        if _effective_capabilities() == 0:
            return True
        for capability in range(_last_capability() + 1):
            libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0)
        number = _CAPSET.get(platform.machine().lower())
        if number is not None:
            libc.syscall(number, *_empty_capability_sets())
    except (OSError, AttributeError, ValueError):
        return False
    return _effective_capabilities() == 0


@cache
def _empty_capability_sets() -> tuple:
    """capset(2)'s arguments that clear every set: its header (version 3, this process) and two
    empty sets of (effective, permitted, inheritable), made once per process."""
    import ctypes  # deferred: used on Linux only

    return (ctypes.c_uint32 * 2)(_CAPABILITY_VERSION_3, 0), (ctypes.c_uint32 * 6)()


@cache
def _last_capability() -> int:
    """The number of the kernel's last capability (read once per process; the kernel's, it never changes)."""
    return int(Path("/proc/sys/kernel/cap_last_cap").read_text())


def _effective_capabilities() -> int:
    """This process's permitted and effective capability bits (-1 when they cannot be read)."""
    try:
        status = _read_whole("/proc/self/status")
        bits = 0
        for name in (b"\nCapEff:", b"\nCapPrm:"):
            start = status.index(name) + len(name)
            bits |= int(status[start:status.index(b"\n", start)], 16)
        return bits
    except (OSError, ValueError):
        return -1


def children_of(pid: int) -> list[int]:
    """Linux: the processes whose parent is ``pid`` (empty elsewhere)."""
    found: list[int] = []
    try:
        entries = [entry.name for entry in Path("/proc").iterdir()]
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_bytes()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ")".
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1 and int(fields[1]) == pid:
            found.append(int(entry))
    return found


def pid_in_proc() -> int:
    """This process's number as ``/proc`` shows it (another than ``os.getpid()`` in a pid namespace
    of its own, such as a zygote's, beneath a ``/proc`` of the namespace above)."""
    try:
        return int(Path("/proc/self").readlink().name)
    except (OSError, ValueError):
        return os.getpid()


def lineage_in_proc() -> set[int]:
    """This process and its ancestors, by their numbers as ``/proc`` shows them."""
    found, pid = set(), pid_in_proc()
    while pid > 1 and pid not in found:
        found.add(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_bytes()
            pid = int(stat[stat.rfind(b")") + 2:].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return found


def kill_orphans(spare: Collection[int] = frozenset()) -> None:
    """Kill every child of this process except ``spare`` (re-parented orphans of learner code),
    until none is left; reap them so that none lingers as a zombie."""
    me = pid_in_proc()
    for _ in range(50):
        victims = [pid for pid in children_of(me) if pid not in spare]
        if not victims:
            return
        for pid in victims:
            try:
                os.kill(pid, _KILL)
            except OSError:
                pass
        for pid in victims:
            try:
                os.waitpid(pid, 0)
            except (ChildProcessError, OSError):
                pass


# Namespaces: a zygote in a user and pid namespace of its own forks each job as the first process
# of a fresh pid namespace; the job then gives itself a user, an IPC and a network namespace of its own.
_CLONE_NEWUSER, _CLONE_NEWIPC, _CLONE_NEWPID, _CLONE_NEWNET = 0x10000000, 0x08000000, 0x20000000, 0x40000000
# keyctl(2)'s number by machine, and its operations used here.
_KEYCTL = {"x86_64": 250, "amd64": 250, "aarch64": 219, "arm64": 219, "riscv64": 219, "loongarch64": 219,
           "i386": 288, "i686": 288, "armv7l": 311, "s390x": 280, "ppc64le": 271, "ppc64": 271}
_KEYCTL_JOIN_SESSION_KEYRING, _KEYCTL_CLEAR, _KEYCTL_GET_PERSISTENT = 1, 7, 22
_KEY_SPEC_USER_KEYRING, _KEY_SPEC_USER_SESSION_KEYRING = -4, -5


@cache
def _libc():
    """The C library, loaded once per process (a job forked from a zygote that loaded it uses the
    zygote's: see ``ready_to_fork_jobs``)."""
    import ctypes  # deferred: used on Linux only (namespaces, keyrings)

    return ctypes.CDLL(None, use_errno=True)


def ready_to_fork_jobs(gpu: bool) -> None:
    """Linux, in a zygote before its first job: load what every job's confinement uses (the C
    library, the number of capabilities, the system-call filter for ``gpu``), so that each job only
    makes its system calls, instead of building them again in memory it shares with the zygote
    (every page a job writes there is copied for it first)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        _libc()
        _last_capability()
        _empty_capability_sets()
        _system_call_filter(gpu)
    except (OSError, AttributeError, ValueError):
        pass   # each job tries again, and goes without what it cannot have, as it always did


def enter_zygote_namespaces() -> bool:
    """Linux, at a zygote's start (one thread, nothing imported yet): move into a user and a pid
    namespace of its own. The process that called this stays behind as a small waiter that ends as
    the zygote ends; the zygote goes on as the first process of the new pid namespace, which lets
    it fork every job into a pid namespace of the job's own (``fork_job``). Returns whether it did
    (False: unprivileged user namespaces are not allowed here, and nothing changed)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        if _libc().unshare(_CLONE_NEWUSER | _CLONE_NEWPID) != 0:
            return False
    except (OSError, AttributeError):
        return False
    zygote = os.fork()
    if zygote == 0:
        die_with_parent(0)   # the waiter is outside this namespace, where its number reads 0
        return True
    drop_capabilities()
    hide_from_same_user()
    _wait_and_end_alike(zygote)
    return False   # never reached


def _wait_and_end_alike(pid: int) -> None:
    """Wait for ``pid`` and end as it ended (the same exit status, or the same signal)."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):   # hold none of the parent's pipes open
        os.dup2(null, fd)
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
        except ChildProcessError:
            os._exit(1)
    if os.WIFSIGNALED(status):
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


class JobForks:
    """How a zygote forks its jobs: in a zygote that ``enter_zygote_namespaces`` moved, each job is
    the first process of a new pid namespace (so it can name, signal, limit or trace no process
    outside it, its zygote included, and all it starts ends with it); elsewhere a plain fork."""

    def __init__(self, own_namespaces: bool):
        self.own_pid_namespace = False
        self.broken = False    # no further fork can succeed here: the zygote must retire
        self.namespace = -1
        if own_namespaces:
            try:
                self.namespace = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
                self.own_pid_namespace = True
            except OSError:
                pass

    def fork(self) -> int:
        """``os.fork()``, the child in a pid namespace of its own where this zygote can give it one."""
        if not self.own_pid_namespace:
            return os.fork()
        libc = _libc()
        if libc.unshare(_CLONE_NEWPID) != 0:
            self.own_pid_namespace = False
            return os.fork()
        pid = os.fork()
        if pid != 0 and libc.setns(self.namespace, _CLONE_NEWPID) != 0:
            self.broken = True   # a next fork would land in this job's namespace, which dies with it
        return pid


def isolate_job() -> bool:
    """Linux, in a freshly forked job before any learner code: a session keyring of its own, and,
    where the kernel allows, a user, an IPC and a network namespace of its own (its own user
    keyrings, its own SysV shared memory, semaphores and message queues, gone with it; and a network
    with only a loopback device that is down, so that it can reach no other job, nor the grader,
    nor any other process, by a port or an abstract UNIX socket, even beside them in one sandbox).
    Returns whether it has the user and IPC namespaces (else its zygote clears what it may have
    left: ``clear_shared_objects``)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = _libc()
        isolated = libc.unshare(_CLONE_NEWUSER | _CLONE_NEWIPC | _CLONE_NEWNET) == 0 or \
            libc.unshare(_CLONE_NEWUSER | _CLONE_NEWIPC) == 0   # a kernel without network namespaces
        number = _KEYCTL.get(platform.machine().lower())
        if number is not None:
            libc.syscall(number, _KEYCTL_JOIN_SESSION_KEYRING, None)
        return isolated
    except (OSError, AttributeError):
        return False


def first_to_go_out_of_memory() -> None:
    """Linux, in a job before learner code: the highest OOM score (1000), so that where the machine
    itself runs out of memory the kernel stops a job (the one that holds the most), never the
    grader, a zygote or anything else on the machine. Raising it needs no privilege, but the file
    of a process that is not dumpable (every grading child) belongs to root: a job that is not root
    writes it in the moment it is dumpable again. (Nothing of the job's runs yet: the memory it
    shows then is the zygote's, which holds no secret; and only a process of its own user that may
    trace it could look, which the pid namespaces keep from naming it anyway.)"""
    if not sys.platform.startswith("linux"):
        return
    try:
        _write_own("oom_score_adj", b"1000")
        return
    except PermissionError:
        pass
    except OSError:
        return
    try:
        libc = _libc()
        libc.prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0)
        try:
            _write_own("oom_score_adj", b"1000")
        finally:
            libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    except OSError:
        pass


def _write_own(name: str, data: bytes) -> None:
    """Write ``data`` to this process's ``/proc/self/NAME`` (in a job: no more than it takes)."""
    fd = os.open(f"/proc/self/{name}", os.O_WRONLY)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


# What a job may not do once it runs (``restrict_system_calls``), by machine: the audit architecture
# seccomp names it by; the calls refused always (unshare, setns, mount, umount2, pivot_root, the new
# mount API: open_tree, move_mount, fsopen, fsconfig, fsmount, fspick, mount_setattr; io_uring_setup,
# io_uring_enter, io_uring_register); those refused where no GPU is bound (memfd_create, memfd_secret,
# shmget, socket, socketpair: CUDA's driver may need them); clone(2) and clone3(2); and whether calls
# of the x32 ABI (numbers from 0x40000000) exist there to be refused too.
_SECCOMP_CALLS = {
    "x86_64": (0xC000003E, (272, 308, 165, 166, 155, 428, 429, 430, 431, 432, 433, 442, 425, 426, 427),
               (319, 447, 29, 41, 53), 56, 435, True),
    "aarch64": (0xC00000B7, (97, 268, 40, 39, 41, 428, 429, 430, 431, 432, 433, 442, 425, 426, 427),
                (279, 447, 194, 198, 199), 220, 435, False),
}
_SECCOMP_CALLS["amd64"], _SECCOMP_CALLS["arm64"] = _SECCOMP_CALLS["x86_64"], _SECCOMP_CALLS["aarch64"]
_NAMESPACE_FLAGS = 0x7E020000   # CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
_EPERM, _ENOSYS = 1, 38
_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2


def _seccomp_program(arch: int, refused: tuple[int, ...], clone: int, clone3: int, x32: bool) -> list[tuple]:
    """The BPF program of ``restrict_system_calls``, as (code, jump if true, jump if false, k)."""
    load, equal, at_least, any_bit, answer = 0x20, 0x15, 0x35, 0x45, 0x06
    allow, refuse, no_such_call = 0x7FFF0000, 0x00050000 | _EPERM, 0x00050000 | _ENOSYS
    # Written with labels (a one-item tuple marks where the next instruction is), then the jumps resolved.
    code: list[tuple] = [(load, 0, 0, 4), (equal, None, "refuse", arch), (load, 0, 0, 0)]
    if x32:
        code.append((at_least, "refuse", None, 0x40000000))
    code += [(equal, "clone", None, clone), (equal, "no such call", None, clone3)]
    code += [(equal, "refuse", None, number) for number in refused]
    code += [(answer, 0, 0, allow),
             ("clone",), (load, 0, 0, 16), (any_bit, "refuse", None, _NAMESPACE_FLAGS), (answer, 0, 0, allow),
             ("no such call",), (answer, 0, 0, no_such_call),
             ("refuse",), (answer, 0, 0, refuse)]
    labels: dict[str, int] = {}
    program: list[tuple] = []
    for instruction in code:
        if len(instruction) == 1:
            labels[instruction[0]] = len(program)
        else:
            program.append(instruction)
    return [(op, *(0 if target is None else labels[target] - index - 1 if isinstance(target, str) else target
                   for target in (if_true, if_false)), k)
            for index, (op, if_true, if_false, k) in enumerate(program)]


def restrict_system_calls(gpu: bool = False) -> bool:
    """Linux (x86_64, aarch64), in a job after ``isolate_job`` and ``drop_capabilities``, before
    learner code: a seccomp filter refuses (EPERM) every way to a namespace or a mount of its own
    (unshare, setns, clone with a namespace flag, mount and the new mount API) and io_uring (which
    could do what the filter refuses, unseen); and, unless a ``gpu`` is bound, memory files
    (memfd_create, memfd_secret), SysV shared memory and sockets of any kind. clone3 is answered
    "no such call" (a filter cannot read its flags; the C library then uses clone). Calls of another
    ABI of the machine (32-bit, x32) are refused alike.

    Why: with a user namespace of its own, a job could mount a tmpfs and fill it, write to memory
    files or leave shared segments detached: memory outside its address space, which its limit
    does not count where no memory cgroup does; and every socket is a way to reach another process
    (an abstract UNIX socket, a port) and holds buffers (up to 8 MiB each) that no limit counts, not
    even a memory cgroup. Returns whether the filter is in place (False on other machines, or where
    the kernel has no seccomp)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        program = _system_call_filter(gpu)
        if program is None:
            return False
        import ctypes  # deferred: used on Linux only (prctl)

        libc = _libc()
        libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)   # what lets a process without capabilities filter itself
        return libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(program), 0, 0) == 0
    except (OSError, AttributeError):
        return False


@cache
def _system_call_filter(gpu: bool):
    """The BPF program of ``restrict_system_calls`` for this machine as the kernel takes it (a
    ``sock_fprog``), built once per process; None on a machine it has no numbers for."""
    chosen = _SECCOMP_CALLS.get(platform.machine().lower())
    if chosen is None:
        return None
    arch, always, without_gpu, clone, clone3, x32 = chosen
    import ctypes  # deferred: used on Linux only

    class Instruction(ctypes.Structure):
        _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8),
                    ("k", ctypes.c_uint32)]

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Instruction))]

    instructions = _seccomp_program(arch, always + (() if gpu else without_gpu), clone, clone3, x32)
    array = (Instruction * len(instructions))(*(Instruction(*i) for i in instructions))
    program = Program(len(instructions), array)
    program.instructions = array   # the program points into it: kept alive with it
    return program


def clear_shared_objects() -> None:
    """Linux, in a zygote whose jobs share its IPC namespace and user keyrings: remove every SysV
    shared memory segment, semaphore set and message queue of that namespace, and empty the user,
    user-session and persistent keyrings, so that nothing a job left reaches the next."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = _libc()
    except OSError:
        return
    ipc_rmid = 0
    for kind, remove in (("shm", lambda i: libc.shmctl(i, ipc_rmid, None)),
                         ("msg", lambda i: libc.msgctl(i, ipc_rmid, None)),
                         ("sem", lambda i: libc.semctl(i, 0, ipc_rmid))):
        try:
            rows = _read_whole(f"/proc/sysvipc/{kind}").splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if len(fields) > 1 and fields[1].isdigit():
                remove(int(fields[1]))
    number = _KEYCTL.get(platform.machine().lower())
    if number is None:
        return
    persistent = libc.syscall(number, _KEYCTL_GET_PERSISTENT, -1, 0)
    for keyring in (_KEY_SPEC_USER_KEYRING, _KEY_SPEC_USER_SESSION_KEYRING, persistent):
        if keyring != -1:
            libc.syscall(number, _KEYCTL_CLEAR, keyring)


def settings() -> tuple:
    """What a process of the same owner could change in this one from outside (``prlimit``,
    ``setpriority``, ``sched_setscheduler``, ``sched_setaffinity``, writes to ``/proc/PID/``, moving
    it to another cgroup): a zygote compares them after every job and retires if any changed."""
    import resource  # deferred: POSIX only

    limits = tuple(resource.getrlimit(limit) for limit in _resource_limits())
    facts: list = [limits, os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0),
                   os.sched_getparam(0).sched_priority, frozenset(os.sched_getaffinity(0))]
    for name in ("oom_score_adj", "autogroup", "cgroup", "timerslack_ns", "coredump_filter"):
        try:
            facts.append(_read_whole(f"/proc/self/{name}"))
        except OSError:
            facts.append(None)
    return tuple(facts)


@cache
def _resource_limits() -> tuple[int, ...]:
    """Every resource limit this system has (``resource.RLIMIT_*``), found once per process."""
    import resource  # deferred: POSIX only

    return tuple(getattr(resource, name) for name in sorted(dir(resource)) if name.startswith("RLIMIT_"))


def _read_whole(path: str) -> bytes:
    """A small file's bytes, read with as little as it takes (a zygote reads these after every job)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = [os.read(fd, 1 << 16)]
        while chunks[-1]:
            chunks.append(os.read(fd, 1 << 16))
        return b"".join(chunks)
    finally:
        os.close(fd)
