"""grade.py's commands run inside the test process, on grading children kept warm for the whole
test run.

A ``grade.py`` subprocess starts two children that import torch (the referee and the learner's
zygote): about 5 s of CPU before it grades anything, most of what an end-to-end self-test costs.
``grade_here`` runs the same command line through grade.py's own parser and command (its
integrity check, its hidden cases, its judge, its document and formats), with the same children,
except that they are started once per test worker and kept: on Linux each job is still forked
fresh from its zygote, so a job that damages its process costs nothing to the next, and one that
takes its zygote with it gets a fresh zygote for the next job (on macOS and Windows the kept lane
is grade.py's serial child, which retires when a job changed it).

What the kept sandboxed lane shows. grade.py's sandboxed zygote shows the learner only the one
solutions folder it grades. The self-tests grade dozens of folders (copies of the reference, of the
stubs, of whole projects, made under each test's ``tmp_path``), and a zygote per folder would
import torch inside bubblewrap again for each (3 to 4 s of CPU). So each test worker keeps one
sandboxed zygote that shows, read-only, the run's pytest temp folder (``once.run_folder``: every
``tmp_path``, and what ``built_once`` builds; a bind mount shows the folders made under it later)
and the fixed folders tests grade (``SHOWN_HERE``: katas/, reference/, the examples, fixtures and
variants), besides what every sandboxed child sees (the system, Python, the harness, the kata
specs). A folder outside those gets a zygote of its own that shows only it, as grade.py's does.
Each job still names its own folder and is forked fresh, so what it grades, the paths its messages
show and the harm it can do (every binding is read-only) are a real run's. What the kept lane does
not prove is that a job sees nothing beside its own folder: on it a job can read other tests'
folders, copies of the reference among them. No test on it relies on that; the tests whose point it
is run a real ``grade.py``, whose zygote shows only its folder:
``test_trust.test_sandbox_hides_the_answers_and_other_files`` (no reference/, no answer key,
nothing beside its own folder) and ``test_batch.test_no_submission_can_disturb_another`` (no
submission reaches another); batch's workers in ``test_job_isolation`` and ``test_job_confinement``
start their own zygotes (``channel.learner_lane``), not these.

What only a real ``grade.py`` process shows (its bootstrap, its exit on a signal, the processes
it leaves, the user a child runs as) is tested with ``gradekit.run``.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import subprocess
import threading
import time
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

from kata_harness import api, commands
from kata_harness.commands import reset as reset_command
from kata_harness.isolation import channel
from kata_harness.layout import LAYOUT, ROOT, Layout

_KEPT_ALONE = 3    # sandboxed zygotes kept at once for folders outside the shown ones (one each)
# The project's folders that tests grade in place (``--solutions reference``, an example's katas).
SHOWN_HERE = tuple(ROOT / name for name in ("katas", "reference", "selftests/examples", "selftests/fixtures",
                                             "selftests/variants"))
_SHOWN: list[Path] = [folder.resolve() for folder in SHOWN_HERE if folder.is_dir()]   # and the staging folders (``show``)


_KEEPING = threading.local()


@contextmanager
def _keeping():
    """While the kept children are started (or started again): what starts then is no test's own."""
    _KEEPING.on = True
    try:
        yield
    finally:
        _KEEPING.on = False


def keeping() -> bool:
    """Whether this thread is starting a kept child now (the e2e guard does not count those)."""
    return getattr(_KEEPING, "on", False)


class KeptLane:
    """A learner lane that outlives one grading: the grade command stops its lane when it is done,
    but this one is stopped only when the test run ends (``stop_all``)."""

    def __init__(self, lane: channel.Lane) -> None:
        self.lane = lane

    def start(self) -> None:
        """Start the lane's process if none runs (the last one may have gone with a job)."""
        with _keeping():
            self.lane.start()

    def submit(self, job: dict) -> channel.GradingChild:
        """Queue ``job`` on the kept lane (its process started again if the last one is gone)."""
        with _keeping():
            return self.lane.submit(job)

    def serves(self, handle: channel.GradingChild) -> bool:
        """Whether the kept lane still runs ``handle``'s process."""
        return self.lane.serves(handle)

    def stop(self) -> None:
        """Nothing: the kept lane outlives the grading."""


_LANES: dict[tuple[Path, ...] | None, KeptLane] = {}   # a sandboxed lane by the folders it shows; None: the unsandboxed one


def show(folder: Path) -> None:
    """Let the kept sandboxed lane show ``folder`` and every folder made under it later (the test
    run's temporary folder). Call it before that lane starts: a running lane shows what it was
    started with."""
    folder = Path(folder).resolve()
    if folder not in _SHOWN:
        _SHOWN.append(folder)


def _shown_with(folder: Path) -> tuple[Path, ...]:
    """The folders a sandboxed lane that grades ``folder`` shows: the kept lane's where ``folder``
    lies under one of them, else ``folder`` alone."""
    if any(folder.is_relative_to(shown) for shown in _SHOWN):
        return tuple(_SHOWN)
    return (folder,)
_REFEREE: channel.Zygote | None = None


def _specs_digest(project: Layout) -> str:
    """What a lane's children run of a project: its harness and its kata specs, as one digest."""
    digest = hashlib.sha256()
    for folder in (project.harness, project.tests):
        for path in sorted(folder.rglob("*.py")):
            if "__pycache__" not in path.parts:
                digest.update(path.relative_to(project.root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _runs_these_specs(project: Layout) -> bool:
    """Whether ``project`` (a student template, a copy of the project) runs this harness and these
    kata specs byte for byte, so that its children would do exactly what the kept ones do."""
    return project.root.resolve() == ROOT or _specs_digest(project) == _own_digest()


@functools.cache
def _own_digest() -> str:
    return _specs_digest(LAYOUT)


# What a child computes with and takes from the environment it starts in: kept children started
# under another value would grade as that one (a test that sets ATEN_CPU_CAPABILITY gets fresh ones).
_STARTING_ENVIRONMENT = ("ATEN_CPU_CAPABILITY",)
_STARTED_UNDER: tuple | None = None


def _same_start() -> None:
    """Stop the kept children if they were started under other values of ``_STARTING_ENVIRONMENT``."""
    global _STARTED_UNDER
    now = tuple(os.environ.get(name) for name in _STARTING_ENVIRONMENT)
    if _STARTED_UNDER is not None and now != _STARTED_UNDER:
        stop_all()
    _STARTED_UNDER = now


def learner_lane(solutions: Path, *, sandboxed: bool, project: Layout = LAYOUT) -> KeptLane | channel.Lane:
    """A kept lane for ``solutions``, as ``channel.learner_lane`` gives the grade command: one
    unsandboxed zygote serves every folder (each job names its own); one sandboxed zygote serves
    every folder under the shown ones (see the module's docstring), and a folder outside them gets
    a sandboxed one of its own (the latest few are kept). A template or a copy of the project that
    runs these specs shares them; one whose harness or specs differ (changed on purpose) gets a
    lane of its own children, as its grade.py would."""
    if not _runs_these_specs(project):
        return channel.learner_lane(solutions, sandboxed=sandboxed, project=project)
    _same_start()
    shown = _shown_with(Path(solutions).resolve()) if sandboxed else None
    if shown not in _LANES:
        alone = [key for key in _LANES if key is not None and key != tuple(_SHOWN)]
        if shown is not None and shown != tuple(_SHOWN) and len(alone) >= _KEPT_ALONE:
            _LANES.pop(alone[0]).lane.stop()
        kind = channel.Zygote if channel.can_fork() else channel.SerialChild
        _LANES[shown] = KeptLane(kind(sandboxed=sandboxed, solutions=shown or (Path(solutions),), project=LAYOUT))
    return _LANES[shown]


def referee(*, project: Layout) -> channel.GradingChild:
    """A referee for one job of ``project``, forked from a kept zygote that never runs learner code
    (the ``Child(project=...)`` a live reference starts, but warm); that ``Child`` itself where a
    process that imported torch cannot fork (macOS, Windows), or where ``project``'s harness or
    kata specs are not this one's (its own referee, as its grade.py would start)."""
    global _REFEREE
    if not channel.can_fork() or not _runs_these_specs(project):
        return channel.Child(project=project)   # a fresh referee per job, as grade.py starts: the test's own process
    _same_start()
    with _keeping():
        if _REFEREE is None:
            _REFEREE = channel.Zygote(project=LAYOUT)
        _REFEREE.start()
    return channel.ForkedChild(_REFEREE)


def stop_all() -> None:
    """Stop every kept child (the test run is over)."""
    global _REFEREE
    for kept in _LANES.values():
        kept.lane.stop()
    _LANES.clear()
    if _REFEREE is not None:
        _REFEREE.stop()
    _REFEREE = None


@contextmanager
def environment(env: dict | None):
    """``os.environ`` with ``env``'s variables set (a value of None removes one), restored after."""
    saved = dict(os.environ)
    try:
        for name, value in (env or {}).items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


KEPT = api.Processes(lanes=learner_lane, referee=referee)   # the warm children, as a run's process factories


def grade_here(*args: str, env: dict | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``python grade.py ARGS`` as ``gradekit.run`` returns it (exit status, text output), run in
    this process on the kept children (``KEPT``, given to the command as its run's processes).
    ``env``: variables to set (None removes one). Only the commands that grade through a run's
    processes (``grade``, ``check``) or need no child at all (``hint``, ``reset``, a usage error)
    belong here."""
    return _as_run(["grade.py", *args], lambda: commands.parse(list(args), time.monotonic()).run(processes=KEPT),
                   env=env, cwd=cwd)


def reset_here(root: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``python grade.py reset ARGS`` of the project at ``root`` (a copy: reset writes its katas/
    and .kata_backups/), run from ``root`` in this process, as ``gradekit.run`` returns it."""
    def reset() -> int:
        parsed = commands.parse(["reset", *args], time.monotonic())
        assert parsed.name == "reset", parsed.name
        return reset_command.reset(parsed.args, Layout(root))
    return _as_run([str(root / "grade.py"), "reset", *args], reset, env=env, cwd=root)


def _as_run(argv: list[str], command, *, env: dict | None, cwd: Path) -> subprocess.CompletedProcess:
    """What ``command()`` (a subcommand's run, its exit status) prints and returns, run from
    ``cwd`` with ``env``'s variables, as a finished ``argv`` process: a ``UsageError`` is printed
    to stderr with its status, as grade.py prints it."""
    stdout, stderr = io.StringIO(), io.StringIO()
    here = Path.cwd()
    try:
        with environment(env), redirect_stdout(stdout), redirect_stderr(stderr):
            os.chdir(cwd)
            try:
                status = command()
            except commands.UsageError as error:
                print(error, file=stderr)
                status = error.status
            except SystemExit as leaving:   # --help
                status = leaving.code if isinstance(leaving.code, int) else 0
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(argv, status, stdout.getvalue(), stderr.getvalue())
