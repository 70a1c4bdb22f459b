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
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from enum import Enum
from functools import cache
from pathlib import Path

from ..layout import LAYOUT, ROOT


class Mode(str, Enum):
    """How learner code runs (the JSON's ``sandbox``): under bubblewrap, or with no sandbox."""

    BUBBLEWRAP = "bubblewrap"
    NONE = "none"

    def __str__(self) -> str:
        return self.value


BUBBLEWRAP, NONE = Mode.BUBBLEWRAP, Mode.NONE
MEMORY_LIMIT = 4 << 30       # bytes of data segment (RLIMIT_DATA; RLIMIT_AS would break CUDA's reservations)
FILE_SIZE_LIMIT = 64 << 20   # bytes per file written
PROCESS_LIMIT = 512          # processes of the user (not enforced for root; the pid namespace bounds those)
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


def _python_folders() -> list[str]:
    """The interpreter's installation and every folder its imports may come from, outside the project."""
    folders = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(sys.executable).resolve().parent)}
    folders.update(p for p in sys.path if p and Path(p).is_dir())
    root = str(ROOT)
    chosen: list[str] = []
    for folder in sorted(str(Path(f).resolve()) for f in folders):
        inside_project = folder == root or folder.startswith(root + os.sep)
        if inside_project and not (Path(folder) / "pyvenv.cfg").exists() and "site-packages" not in folder:
            continue   # the project is bound piece by piece below, never whole
        if not any(folder == c or folder.startswith(c + os.sep) for c in chosen):
            chosen.append(folder)
    return chosen


def _gpu_devices() -> list[str]:
    try:
        names = sorted(entry.name for entry in Path("/dev").iterdir())
    except OSError:
        return []
    return [f"/dev/{n}" for n in names if n.startswith("nvidia")] + (["/dev/dri"] if Path("/dev/dri").is_dir() else [])


def command(solutions: list[Path], tests_dir: Path = LAYOUT.tests) -> list[str]:
    """The bubblewrap command line that runs what follows it in the sandbox: the harness and the
    kata specs of ``tests_dir`` readable, the ``solutions`` folders read-only, nothing else of the project."""
    args = [shutil.which("bwrap") or "bwrap", *_base_arguments()]
    for folder in _python_folders():
        args += ["--ro-bind", folder, folder]
    for path in (sys.prefix, str(Path(sys.executable).parent)):
        # Reached through a link (a linked .venv): bind the real folder where the link points from. (abspath,
        # not Path.resolve: the name as reached, without following the link, is the point.)
        real, named = str(Path(path).resolve()), os.path.abspath(path)  # noqa: PTH100
        if real != named:
            args += ["--ro-bind", real, named]
    package = LAYOUT.harness.resolve()
    args += ["--ro-bind", str(package), str(package)]
    for spec in sorted(Path(tests_dir).glob("test_*.py")):
        args += ["--ro-bind", str(spec), str(spec)]
    for solution in solutions:
        args += ["--ro-bind", str(solution), str(solution)]
    for device in _gpu_devices():
        args += ["--dev-bind", device, device]
    # Last, once every mount point exists: nothing inside is writable (tmpfs has no size limit here;
    # bubblewrap's --size needs 0.10, and writing files is no part of any kata).
    args += ["--remount-ro", "/tmp", "--remount-ro", "/dev", "--remount-ro", "/"]
    for name in ("PATH", "LANG", "LC_ALL", "SYSTEMROOT", "CUDA_VISIBLE_DEVICES"):
        if name in os.environ:
            args += ["--setenv", name, os.environ[name]]
    # The project folder as working folder, as outside, so that messages show paths like katas/k01_creation.py.
    args += ["--setenv", "HOME", "/tmp", "--setenv", "OMP_NUM_THREADS", "1", "--chdir", str(ROOT)]
    # torch's lazy imports create a compile cache folder they never write to here: name one that exists.
    args += ["--setenv", "TORCHINDUCTOR_CACHE_DIR", "/tmp"]
    return args + ["--"]


def apply_limits() -> None:
    """In the child, before learner code: cap memory, file size, processes; no core dumps."""
    try:
        import resource  # deferred: POSIX only
    except ImportError:   # Windows
        return
    for name, value in (("RLIMIT_DATA", MEMORY_LIMIT), ("RLIMIT_FSIZE", FILE_SIZE_LIMIT),
                        ("RLIMIT_NPROC", PROCESS_LIMIT), ("RLIMIT_CORE", 0)):
        limit = getattr(resource, name, None)
        if limit is None:
            continue
        try:
            soft, hard = resource.getrlimit(limit)
            cap = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(limit, (cap, cap))
        except (ValueError, OSError):
            pass
