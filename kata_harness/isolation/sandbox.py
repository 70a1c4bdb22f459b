"""The sandbox learner code runs in: bubblewrap on Linux when it is installed, else none.

Inside, the process sees only what it needs, read-only: the system and Python installation,
the harness, the kata specs (``tests/test_*.py``, never the answer keys) and the solutions it
grades. No ``reference/``, no other submission, no network, its own pid namespace (it cannot see
or signal the grader), a cleared environment, no capabilities, and it dies with its parent. No
folder is writable (``/``, ``/tmp`` and ``/dev`` are private and read-only): a learner writing
files can fill neither memory nor disk, and leaves nothing for the next job to find. Resource
limits are set by the child itself (``apply_limits``) before
any learner code runs. Where bubblewrap is missing (macOS, Windows, a Linux without it) learner
code runs unsandboxed and grade.py says so.

Memory: ``RLIMIT_DATA`` does not count shared mappings (``MAP_SHARED``, SysV shared memory,
memfd), so on Linux each zygote's jobs also run in a memory cgroup of their own (``JobMemory``,
made beside the grader's own cgroup, v1 or v2, where this machine lets the grader make one),
limited to ``memory_limit()`` of all the memory they hold; the zygote itself stays outside it, so
a job at the limit is the one the kernel stops, and the zygote reports that it happened. Where
no such cgroup can be had, a job's address space is capped instead (``limit_address_space``),
which counts every mapping, shared ones too.

Memory no limit counts: a job may hold ``OPEN_FILES_LIMIT`` files open (pipe buffers), and makes no
socket, memory file, SysV segment, mount or namespace (``processes.restrict_system_calls``), and
takes a network namespace of its own besides the sandbox's (``processes.isolate_job``).
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
import threading
import time
from enum import Enum
from functools import cache
from pathlib import Path

from ..layout import Layout
from . import processes


class Mode(str, Enum):
    """How learner code runs (the JSON's ``sandbox``): under bubblewrap, or with no sandbox."""

    BUBBLEWRAP = "bubblewrap"
    NONE = "none"

    def __str__(self) -> str:
        return self.value


BUBBLEWRAP, NONE = Mode.BUBBLEWRAP, Mode.NONE
MEMORY_LIMIT = 4 << 30       # bytes: a job's data segment (RLIMIT_DATA), and all its memory (its cgroup)
MEMORY_VARIABLE = "KATA_MEMORY_LIMIT_MIB"   # another limit, in MiB (an instructor's choice; the self-tests')
FILE_SIZE_LIMIT = 64 << 20   # bytes per file written
PROCESS_LIMIT = 512          # processes of the user (not enforced for root; the pid namespace bounds those)
OPEN_FILES_LIMIT = 256       # files a job may hold open: it bounds the pipe buffers it can fill
_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")


def available() -> bool:
    """Whether learner code can be sandboxed: bubblewrap works here and ``KATA_SANDBOX`` is not
    ``none`` (read at every call, so that a process sees the variable change)."""
    return os.environ.get("KATA_SANDBOX", "").lower() != NONE and _bubblewrap_works()


@cache
def _bubblewrap_works() -> bool:
    """Whether bubblewrap is installed and works here (tried once per process)."""
    if not sys.platform.startswith("linux"):
        return False
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return False
    try:
        probe = subprocess.run([bwrap, *_base_arguments(), "--", "/bin/true"], capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return False
    return probe.returncode == 0


def memory_limit() -> int:
    """The bytes a job may hold: ``KATA_MEMORY_LIMIT_MIB`` MiB where it is set (read at every call:
    grade.py's children inherit it), else ``MEMORY_LIMIT``."""
    chosen = os.environ.get(MEMORY_VARIABLE, "")
    return int(chosen) << 20 if chosen.isdigit() and int(chosen) > 0 else MEMORY_LIMIT


def mode(wanted: bool = True) -> Mode:
    """``bubblewrap`` when learner code will run sandboxed, else ``none``."""
    return BUBBLEWRAP if wanted and available() else NONE


def _base_arguments() -> list[str]:
    args = ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--clearenv",
            "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for folder in _SYSTEM:
        if Path(folder).is_dir():
            args += ["--ro-bind", folder, folder]
    return args


def _python_folders(project: Path) -> list[str]:
    """The interpreter's installation and every folder its imports may come from, outside ``project``."""
    folders = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(sys.executable).resolve().parent)}
    folders.update(p for p in sys.path if p and Path(p).is_dir())
    root = str(project.resolve())
    chosen: list[str] = []
    for folder in sorted(str(Path(f).resolve()) for f in folders):
        inside_project = folder == root or folder.startswith(root + os.sep)
        if inside_project and not (Path(folder) / "pyvenv.cfg").exists() and "site-packages" not in folder:
            continue   # the project is bound piece by piece below, never whole
        if not any(folder == c or folder.startswith(c + os.sep) for c in chosen):
            chosen.append(folder)
    return chosen


def gpu_possible() -> bool:
    """Whether this machine may have a GPU that torch's ``cuda`` can use, judged without torch: on
    Linux only where one shows as a device (NVIDIA's, AMD's compute device, WSL's); never on macOS
    (no CUDA there); elsewhere it cannot be ruled out."""
    if sys.platform.startswith("linux"):
        return any(name.startswith("nvidia") for name in _names_in("/dev")) or \
            any(Path(device).exists() for device in ("/dev/kfd", "/dev/dxg"))
    return sys.platform != "darwin"


def _names_in(folder: str) -> list[str]:
    try:
        return sorted(entry.name for entry in Path(folder).iterdir())
    except OSError:
        return []


def _gpu_devices() -> list[str]:
    try:
        names = sorted(entry.name for entry in Path("/dev").iterdir())
    except OSError:
        return []
    return [f"/dev/{n}" for n in names if n.startswith("nvidia")] + (["/dev/dri"] if Path("/dev/dri").is_dir() else [])


def gpu_bound() -> bool:
    """Whether a GPU's devices are here (bound into the sandbox, or seen without one)."""
    return bool(_gpu_devices())


# What the sandboxed child keeps of the grader's environment. ATEN_CPU_CAPABILITY picks torch's CPU
# kernels: the referee runs outside with it, so the learner's child must compute with the same ones, or
# a correct answer differs from the reference in the last bits.
PASSED_IN = ("PATH", "LANG", "LC_ALL", "SYSTEMROOT", "CUDA_VISIBLE_DEVICES", "GLIBC_TUNABLES", "ATEN_CPU_CAPABILITY")


def command(solutions: list[Path], project: Layout, memory: JobMemory | None = None) -> list[str]:
    """The bubblewrap command line that runs what follows it in the sandbox: ``project``'s harness
    and kata specs readable, the ``solutions`` folders read-only, nothing else of the
    project; with ``memory``, the two files of that cgroup a zygote needs, at ``JOB_MEMORY_INSIDE``
    (moving a job into it, and reading how often the kernel stopped one: nothing that changes a limit)."""
    args = [shutil.which("bwrap") or "bwrap", *_base_arguments()]
    for folder in _python_folders(project.root):
        args += ["--ro-bind", folder, folder]
    for path in (sys.prefix, str(Path(sys.executable).parent)):
        # Reached through a link (a linked .venv): bind the real folder where the link points from. (abspath,
        # not Path.resolve: the name as reached, without following the link, is the point.)
        real, named = str(Path(path).resolve()), os.path.abspath(path)  # noqa: PTH100
        if real != named:
            args += ["--ro-bind", real, named]
    package = project.harness.resolve()
    args += ["--ro-bind", str(package), str(package)]
    for spec in sorted(project.tests.resolve().glob("test_*.py")):
        args += ["--ro-bind", str(spec), str(spec)]
    for solution in solutions:
        args += ["--ro-bind", str(solution), str(solution)]
    for device in _gpu_devices():
        args += ["--dev-bind", device, device]
    if memory is not None:
        args += ["--bind", str(memory.folder / "cgroup.procs"), f"{JOB_MEMORY_INSIDE}/cgroup.procs",
                 "--ro-bind", str(memory.folder / memory.events), f"{JOB_MEMORY_INSIDE}/{memory.events}"]
    # Last, once every mount point exists: nothing inside is writable (tmpfs has no size limit here;
    # bubblewrap's --size needs 0.10, and writing files is no part of any kata).
    args += ["--remount-ro", "/tmp", "--remount-ro", "/dev", "--remount-ro", "/"]
    for name, value in processes.fork_friendly(dict(os.environ)).items():
        if name in PASSED_IN:
            args += ["--setenv", name, value]
    # The project folder as working folder, as outside, so that messages show paths like katas/k01_creation.py.
    args += ["--setenv", "HOME", "/tmp", "--setenv", "OMP_NUM_THREADS", "1", "--chdir", str(project.root.resolve())]
    # torch's lazy imports create a compile cache folder they never write to here: name one that exists.
    args += ["--setenv", "TORCHINDUCTOR_CACHE_DIR", "/tmp"]
    return args + ["--"]


def apply_limits(count_processes: bool = True) -> None:
    """In the child, before learner code: cap memory, file size, processes (unless not
    ``count_processes``); no core dumps, no message queues."""
    try:
        import resource  # deferred: POSIX only
    except ImportError:   # Windows
        return
    # No POSIX message queue can be made (a queue outlives its maker, and could pass a message on).
    # (Never less than MEMORY_LIMIT: the zygote holds the data segment its jobs start from.)
    for name, value in (("RLIMIT_DATA", max(memory_limit(), MEMORY_LIMIT)), ("RLIMIT_FSIZE", FILE_SIZE_LIMIT),
                        ("RLIMIT_NPROC", PROCESS_LIMIT), ("RLIMIT_CORE", 0), ("RLIMIT_MSGQUEUE", 0)):
        limit = getattr(resource, name, None)
        if limit is None or (name == "RLIMIT_NPROC" and not count_processes):
            continue
        try:
            soft, hard = resource.getrlimit(limit)
            cap = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(limit, (cap, cap))
        except (ValueError, OSError):
            pass


def limit_open_files() -> None:
    """In a job: hold at most ``OPEN_FILES_LIMIT`` files open (soft and hard limit). Pipe and socket
    buffers are memory no limit counts (a cgroup counts pipes, not sockets) and each needs an open
    file (or one in flight through a socket, which the kernel counts against the same limit): 256
    bound them to a few hundred MiB, where the machine's default (often a million) bounds nothing."""
    try:
        import resource  # deferred: POSIX only

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        cap = OPEN_FILES_LIMIT if hard == resource.RLIM_INFINITY else min(OPEN_FILES_LIMIT, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, cap), cap))
    except (ImportError, OSError, ValueError):
        pass


def limit_address_space(gpu: bool | None = None) -> None:
    """In a job that has no memory cgroup: cap its address space at what it has now plus
    ``memory_limit()``, which counts shared mappings too (not where a GPU is bound: CUDA reserves
    address space far beyond what it uses; ``gpu``: whether one is, None to look now)."""
    if gpu if gpu is not None else gpu_bound():
        return
    try:
        import resource  # deferred: POSIX only

        status = Path("/proc/self/status").read_text()
        size = next(int(line.split()[1]) << 10 for line in status.splitlines() if line.startswith("VmSize:"))
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = size + memory_limit() if hard == resource.RLIM_INFINITY else min(size + memory_limit(), hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ImportError, OSError, ValueError, StopIteration):
        pass


JOB_MEMORY_INSIDE = "/run/kata-job-memory"   # where a sandboxed zygote finds its jobs' cgroup files
_JOB_CGROUP_PREFIX = "kata-jobs-"
_made = itertools.count()


class JobMemory:
    """A memory cgroup made for the jobs of one zygote (the grader's side): ``folder``, limited to
    ``memory_limit()`` bytes of all the memory its processes hold (anonymous, shared, page cache), with no
    swap beyond that; ``events`` names the file that counts the jobs the kernel stopped there."""

    def __init__(self, folder: Path, events: str):
        self.folder, self.events = folder, events

    @classmethod
    def make(cls, limit: int | None = None) -> JobMemory | None:
        """A new one beside the grader's own memory cgroup, or None where none can be made here
        (not Linux, no memory controller, no permission, ``KATA_JOB_CGROUP=none``)."""
        if not sys.platform.startswith("linux") or os.environ.get("KATA_JOB_CGROUP", "").lower() == NONE:
            return None
        for parent, version in _own_memory_cgroups():
            _remove_stale(parent)
            folder = parent / f"{_JOB_CGROUP_PREFIX}{os.getpid()}-{next(_made)}"
            try:
                folder.mkdir()
            except OSError:
                continue
            made = cls(folder, "memory.oom_control" if version == 1 else "memory.events")
            if made._limit(limit or memory_limit(), version):
                return made
            made.remove()
        return None

    def _limit(self, limit: int, version: int) -> bool:
        settings = ([("memory.limit_in_bytes", limit), ("memory.memsw.limit_in_bytes", limit)] if version == 1
                    else [("memory.max", limit), ("memory.swap.max", 0)])
        for index, (name, value) in enumerate(settings):
            try:
                (self.folder / name).write_text(str(value))
            except OSError:
                if index == 0:   # the limit itself; swap accounting may be off
                    return False
        owner = os.environ.get("KATA_RUN_AS")
        if owner and os.geteuid() == 0:   # an unsandboxed zygote of that user moves its jobs in
            try:
                import pwd  # deferred: POSIX only

                os.chown(self.folder / "cgroup.procs", pwd.getpwnam(owner).pw_uid, -1)
            except (KeyError, OSError):
                return False
        return (self.folder / "cgroup.procs").exists() and (self.folder / self.events).exists()

    def remove(self) -> None:
        """Remove the cgroup once its jobs are gone: now if it is empty, else from a thread of its
        own as soon as the last job has ended (no caller waits for a dying job)."""
        if not self._removed():
            threading.Thread(target=self._remove_soon, daemon=True).start()

    def _removed(self) -> bool:
        try:
            self.folder.rmdir()
        except FileNotFoundError:
            pass
        except OSError:
            return False
        return True

    def _remove_soon(self) -> None:
        for _ in range(100):
            time.sleep(0.05)
            if self._removed():
                return


def _own_memory_cgroups() -> list[tuple[Path, int]]:
    """The folders of this process's own cgroups that have the memory controller, with their
    version (1 or 2): where a cgroup for jobs can be made (a version 2 one only where it lets its
    children limit memory)."""
    return [(folder, version) for folder, version in processes.own_cgroups("memory")
            if version == 1 or _v2_memory_delegated(folder)]


def _v2_memory_delegated(folder: Path) -> bool:
    """Whether a cgroup v2 folder lets its children limit memory (its subtree has the controller)."""
    try:
        return "memory" in (folder / "cgroup.subtree_control").read_text().split()
    except OSError:
        return False


def _remove_stale(parent: Path) -> None:
    """Remove the job cgroups a grader that is no longer running left beside ours."""
    try:
        entries = [entry for entry in parent.iterdir() if entry.name.startswith(_JOB_CGROUP_PREFIX)]
    except OSError:
        return
    for entry in entries:
        owner = entry.name[len(_JOB_CGROUP_PREFIX):].split("-")[0]
        if owner.isdigit() and not Path(f"/proc/{owner}").exists():
            try:
                entry.rmdir()
            except OSError:
                pass


class JobCgroup:
    """A zygote's side of ``JobMemory``: the zygote moves itself in before its first job
    (``enter``), so that every job is born there, or, where it cannot, each job moves itself in
    (``join``) before any learner code; the zygote reads how many jobs the kernel stopped at the
    limit (``stops``)."""

    def __init__(self, folder: str):
        self.procs = os.open(Path(folder) / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)
        self.entered = False   # the zygote is in the cgroup: its jobs are born there
        try:
            name = next(n for n in ("memory.events", "memory.oom_control") if (Path(folder) / n).exists())
            self.events = os.open(Path(folder) / name, os.O_RDONLY | os.O_CLOEXEC)
        except (StopIteration, OSError):
            os.close(self.procs)
            raise OSError(f"{folder}: no memory events file") from None

    def enter(self) -> bool:
        """In a zygote, once, before its first job: move itself into the cgroup, so that each job is
        born there. A move waits for the kernel's next RCU grace period under a lock every move on the
        machine takes, about 10 ms of waiting (no CPU) that every job paid when it moved itself in.
        What the zygote holds stays counted where it was (a move takes no memory along); what it
        allocates from then on (its relay's buffers) counts with its job's, and at the limit the
        kernel stops the job (the highest OOM score, ``processes.first_to_go_out_of_memory``).
        Returns whether it moved (else each job moves itself in)."""
        try:
            os.write(self.procs, b"0")
        except OSError:
            return False
        self.entered = True
        return True

    def join(self) -> None:
        """In a job: be in the cgroup (moved in now, unless born there: ``enter``), then close both
        files, which the job's code must not hold."""
        try:
            if not self.entered:
                os.write(self.procs, b"0")
        finally:
            os.close(self.procs)
            os.close(self.events)

    def stops(self) -> int:
        """How many times the kernel has stopped a process of the cgroup at its limit."""
        try:
            text = os.pread(self.events, 4096, 0).decode("ascii", "replace")
        except OSError:
            return 0
        for line in text.splitlines():
            name, _, value = line.partition(" ")
            if name == "oom_kill" and value.strip().isdigit():
                return int(value)
        return 0
