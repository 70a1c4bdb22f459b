"""The self-tests' own pytest setup: fixtures/ and examples/ hold example katas and solutions, and
winlike/ a startup hook, not tests. Self-tests run whole grading sessions, so they get a longer
backstop than the kata tests' 60 s.

The two tiers. A test that starts a real ``grade.py`` (or any other process that imports torch:
pytest in a copy of the project, a batch's zygotes, a platform's script) is marked ``e2e``; the
rest run on the grading children ``warm`` keeps for the whole run, and ``pytest selftests -m "not
e2e"`` runs them in about a minute. The split cannot rot: every process a test starts is seen
(``_Spawns``), and a test that starts a Python process without the mark fails, naming it.
"""

import contextlib
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from selftests import warm
from selftests.once import run_folder

collect_ignore_glob = ["fixtures/*", "examples/*", "winlike/*"]

WINLIKE = Path(__file__).resolve().parent / "winlike"   # its sitecustomize.py removes the POSIX-only APIs


def pytest_configure(config):
    config.addinivalue_line("markers", "e2e: starts a real grade.py or another process that imports torch "
                                       "(deselect with -m 'not e2e' for the one-minute loop)")


def pytest_collection_modifyitems(items):
    for item in items:
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(900))


class _Spawns:
    """Every process the running test starts that imports torch or is grade.py (``subprocess.Popen``
    is where they all go through), except the grading children ``warm`` keeps for the whole run."""

    def __init__(self) -> None:
        self.current: list[str] | None = None   # the running test's, None between tests
        self.kept: list[str] = []   # the kept children started since the last test ended
        self.lock = threading.Lock()
        self._popen_init = subprocess.Popen.__init__

    def install(self) -> None:
        spawns, original = self, self._popen_init

        def watched_init(popen, args, *positional, **options):
            spawns.saw(args)
            original(popen, args, *positional, **options)
        subprocess.Popen.__init__ = watched_init   # type: ignore[method-assign]

    def saw(self, args) -> None:
        words = [os.fsdecode(word) for word in ([args] if isinstance(args, (str, bytes, os.PathLike)) else args)]
        if not words or not _grades_or_imports_torch(words):
            return
        with self.lock:
            if warm.keeping():   # a kept child: no test's own, only listed (KATA_SPAWN_LOG)
                self.kept.append(" ".join(words)[:160])
            elif self.current is not None:
                self.current.append(" ".join(words)[:160])


# What a command line holds when it runs grade.py, a grading child, pytest on katas, a platform's
# grading script, or torch itself.
_HEAVY = ("grade.py", "pytest", "kata_harness", "autograder", "codio_grade", "torch")


def _grades_or_imports_torch(words: list[str]) -> bool:
    """Whether a command starts grade.py or another process that imports torch: Python running one
    of ``_HEAVY``, a sandboxed child (bubblewrap), or a shell script (a platform's, which runs
    grade.py)."""
    first = Path(words[0]).name.lower()
    if first in ("bash", "sh"):
        return True
    if first == "bwrap":   # what it runs: a grading child, or only a probe (``/bin/true``)
        return any(mark in " ".join(words) for mark in _HEAVY)
    python = words[0] == sys.executable or first.startswith("python")
    return python and any(mark in " ".join(words) for mark in _HEAVY)


SPAWNS = _Spawns()
SPAWNS.install()
_AUDIT = os.environ.get("KATA_E2E_AUDIT")   # a file: list the unmarked tests there instead of failing them
_SPAWN_LOG = os.environ.get("KATA_SPAWN_LOG")   # a file: one line per process a test started (see _Spawns)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Count what each test starts, from its set-up (its fixtures) to its tear-down; with
    ``KATA_SPAWN_LOG`` set, list each of those processes there (the test, its command line; the
    kept children it made ``warm`` start marked ``(kept)``), and with ``KATA_CPU_PROFILE`` set, what
    the test cost (see ``_cpu_profiled``)."""
    SPAWNS.current = []
    try:
        with _cpu_profiled(item.nodeid):
            return (yield)
    finally:
        started, SPAWNS.current = SPAWNS.current, None
        kept, SPAWNS.kept = SPAWNS.kept, []
        if _SPAWN_LOG and (started or kept):
            with Path(_SPAWN_LOG).open("a", encoding="utf-8") as log:
                log.writelines(f"{item.nodeid}\t{' '.join(command.split())}\n" for command in started)
                log.writelines(f"{item.nodeid}\t(kept) {' '.join(command.split())}\n" for command in kept)


_CPU_PROFILE = os.environ.get("KATA_CPU_PROFILE")   # a file: one line per test, its CPU seconds


@contextlib.contextmanager
def _cpu_profiled(nodeid: str):
    """Append to ``KATA_CPU_PROFILE`` the test's CPU time (user+sys) of this process and of the
    processes it started (ended or still running, as the warm grading children), then wall time: on
    a machine whose cores are shared, wall time measures the neighbours. A negative children's
    figure is a running child that ended before this process waited for it: its time is counted
    again where it is waited for."""
    if not _CPU_PROFILE:
        yield
        return
    before, wall = _cpu_seconds(), time.perf_counter()
    try:
        yield
    finally:
        own, children = (after - start for after, start in zip(_cpu_seconds(), before))
        with Path(_CPU_PROFILE).open("a", encoding="utf-8") as profile:
            profile.write(f"{nodeid}\t{own:.2f}\t{children:.2f}\t{time.perf_counter() - wall:.2f}\n")


def _cpu_seconds() -> tuple[float, float]:
    """User+sys CPU seconds so far: this process's, and its children's: those it waited for, and
    those still running (the warm grading children and what they waited for, from /proc)."""
    import resource  # POSIX only, and only asked for where a profile is wanted

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime + _running_descendants_cpu()


def _running_descendants_cpu() -> float:
    """CPU seconds of this process's running descendants, each with its waited-for children (Linux's
    /proc; 0 elsewhere). A descendant that ended unwaited by this process (an orphan of grade.py)
    is missed: the profile is a floor."""
    parents, spent = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):   # ended meanwhile
            continue
        parents[int(stat.parent.name)] = int(fields[1])
        spent[int(stat.parent.name)] = sum(int(field) for field in fields[11:15])   # utime stime cutime cstime
    mine, grown = {os.getpid()}, True
    while grown:
        grown = {pid for pid, parent in parents.items() if parent in mine} - mine
        mine |= grown
    return sum(spent[pid] for pid in mine - {os.getpid()}) / os.sysconf("SC_CLK_TCK")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """A test that started a Python process must be marked e2e, or the fast tier would pay for it."""
    result = yield
    started = list(SPAWNS.current or [])
    if started and item.get_closest_marker("e2e") is None and _AUDIT:
        with Path(_AUDIT).open("a", encoding="utf-8") as audit:
            audit.write(f"{item.nodeid}\t{started[0]}\n")
    elif started and item.get_closest_marker("e2e") is None:
        pytest.fail(f"this test starts {len(started)} Python process(es) but is not marked e2e "
                    f"(pytest.mark.e2e), so `-m 'not e2e'` would run it: first {started[0]!r}", pytrace=False)
    return result


@pytest.fixture(scope="session", autouse=True)
def _stop_warm_children(tmp_path_factory):
    """The grading children ``warm.grade_here`` keeps for a worker end with its test run; its kept
    sandboxed lane shows the run's temporary folder, where every ``tmp_path`` is made and what
    ``built_once`` builds."""
    warm.show(run_folder(tmp_path_factory))
    yield
    warm.stop_all()


@pytest.fixture(scope="session")
def winlike() -> dict:
    """The environment of a run with the POSIX-only APIs removed, as on Windows (unsandboxed:
    Windows has no bubblewrap)."""
    return {**os.environ, "PYTHONPATH": str(WINLIKE), "KATA_SANDBOX": "none"}


def pytest_xdist_make_scheduler(config, log):
    """Under ``-n``, give each worker a run of consecutive tests and let a worker that runs out take
    over half of another's (xdist's worksteal), unless the command line names a ``--dist``. xdist's
    default deals the tests out one by one, so both workers start every module at once: each then
    builds the module's fixtures (a project copy, a release that grades twice to check itself), or
    one waits idle while the other builds what ``built_once`` shares."""
    if any(arg.startswith("--dist") for arg in config.invocation_params.args):
        return None
    from xdist.scheduler import WorkStealingScheduling  # this hook is only called where xdist runs

    return WorkStealingScheduling(config, log)
