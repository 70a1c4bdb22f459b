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
from pathlib import Path

from ..layout import ROOT

_KILL = getattr(signal, "SIGKILL", signal.SIGTERM)
_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_DUMPABLE = 4
_PR_SET_PDEATHSIG = 1


def popen_options() -> dict:
    """Keyword arguments for ``subprocess.Popen`` that give the child a tree of its own."""
    if os.name == "nt":
        return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}
    return {"start_new_session": True}


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


def check_learner_user() -> None:
    """Raise ``LookupError`` unless ``KATA_RUN_AS``, where it applies, names a user that can run
    this interpreter on this project (else every learner child would fail to start)."""
    environment = dict(os.environ)
    options = learner_user_options(environment)
    if not options:
        return
    try:
        done = subprocess.run([sys.executable, "-c", "import kata_harness.files"], cwd=ROOT, env=environment,
                              capture_output=True, timeout=120, **options)
        problem = done.stderr.decode(errors="replace").strip().splitlines()[-1:] if done.returncode else []
    except (OSError, subprocess.SubprocessError) as error:
        problem = [str(error)]
    if problem:
        raise LookupError(f"{RUN_AS_VARIABLE}={os.environ[RUN_AS_VARIABLE]}: that user cannot run {sys.executable} "
                          f"on {ROOT} ({problem[0]}); make both readable by all users")


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


def become_subreaper() -> bool:
    """Linux: orphans of our descendants become our children (so ``kill_orphans`` finds them)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes  # deferred: used on Linux only (prctl)
        return ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent(parent: int) -> None:
    """Linux: have the kernel kill this process the moment ``parent`` dies (and end now if it has
    died already). A forked job that kills its zygote would otherwise be re-parented to the
    grader, the subreaper above it, and could then kill the grader with ``os.getppid()``."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes  # deferred: used on Linux only (prctl)
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(_KILL), 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:   # it died before the line above took effect
        os._exit(1)


def hide_from_same_user() -> bool:
    """Linux: make this process non-dumpable, so that a process of the same user (learner code
    running unsandboxed) cannot read its memory or ``/proc/<pid>/environ`` (which holds
    KATA_SECRET in official grading). Children start dumpable again at exec: nothing else changes."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes  # deferred: used on Linux only (prctl)
        return ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


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
        import ctypes  # deferred: used on Linux only (prctl)

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        if _effective_capabilities() == 0:
            return True
        last = int(Path("/proc/sys/kernel/cap_last_cap").read_text())
        for capability in range(last + 1):
            libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0)
        number = _CAPSET.get(platform.machine().lower())
        if number is not None:
            header = (ctypes.c_uint32 * 2)(_CAPABILITY_VERSION_3, 0)
            libc.syscall(number, header, (ctypes.c_uint32 * 6)())   # two empty (effective, permitted, inheritable)
    except (OSError, AttributeError, ValueError):
        return False
    return _effective_capabilities() == 0


def _effective_capabilities() -> int:
    """This process's permitted and effective capability bits (-1 when they cannot be read)."""
    try:
        lines = Path("/proc/self/status").read_text().splitlines()
        fields = dict(line.split(":", 1) for line in lines if ":" in line)
        return int(fields["CapEff"], 16) | int(fields["CapPrm"], 16)
    except (OSError, KeyError, ValueError):
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


def kill_orphans(spare: Collection[int] = frozenset()) -> None:
    """Kill every child of this process except ``spare`` (re-parented orphans of learner code),
    until none is left; reap them so that none lingers as a zombie."""
    me = os.getpid()
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
