"""The grading children and the one channel to them, the same on Linux, macOS and Windows.

A child is started with three pipes and nothing else (no ``pass_fds``): jobs go down its
standard input, events come up its standard output, and whatever learner code prints goes to
its standard error, of which only a short tail is kept. Before learner code runs, the child
moves its event stream to a private descriptor and points fds 1 and 2 at the output pipe.

Learner code shares the child's interpreter, so nothing a child sends is trusted: every line is
size-capped, must parse, and is checked by the judge (``grading``) against what the job asked
for. A *zygote* (Linux only, where ``fork`` of a process that imported torch is safe) forks a
fresh child per job and relays that child's events from a pipe of its own, prefixed ``J``; its
own messages (prefixed ``Z``) come from a descriptor learner code never holds, so a job cannot
forge the end of itself or write into the next job's stream. A job the parent cuts short is
cancelled by a line on the zygote's input (``{"cancel": ID}``), which no job holds either.
"""

from __future__ import annotations

import io
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Protocol, cast

from ..layout import Layout
from . import processes, sandbox
from .protocol import OUTPUT_MARK_PATTERN, Event, Kind, cancel_order, parse_event, read_line

OUTPUT_TAIL = 2000         # characters of a child's raw output kept to explain a crash
WAKE_UP = 0.25             # seconds the parent waits for an event at a time (to notice Ctrl-C)
CANCEL_TIME = 2.0          # seconds a zygote has to report a job's end (a cancelled job's too)

# The child imports its harness from the graded project's folder (never from an installed copy and never
# with the project or the current folder on its import path, where a stray torch.py would shadow torch),
# and is told that folder: the project whose kata specs it loads.
CHILD_CODE = (
    "import sys, importlib.util as u; root = sys.argv[1]; "
    "sys.path[:] = [p for p in sys.path if p not in ('', root)]; "
    "s = u.spec_from_file_location('kata_harness', root + '/kata_harness/__init__.py', "
    "submodule_search_locations=[root + '/kata_harness']); "
    "m = u.module_from_spec(s); sys.modules['kata_harness'] = m; s.loader.exec_module(m); "
    "from kata_harness.isolation.child import main; main(sys.argv[2:], root)"
)

_LIVE: set = set()          # every child process started and not yet stopped (for stop_all)
_LIVE_LOCK = threading.Lock()


class GradingChild(Protocol):
    """What the judge needs of a learner or referee child: a ``Child`` started for one job, or a
    ``ForkedChild`` of a zygote."""

    @property
    def output_tail(self) -> str:
        """The last characters the child printed (to explain a crash)."""
        ...

    def send(self, job: dict) -> None:
        """Send a job."""

    def next_event(self, timeout: float) -> Event | None:
        """The next event, None at end of stream; raises queue.Empty after ``timeout`` seconds."""

    def stop(self, clean: bool = True) -> None:
        """End the job and everything it started; ``clean=False``: the job misbehaved, so its
        process must not serve another."""

    def death_reason(self) -> str:
        """How the child ended, in a few words."""


class Child:
    """One grading child process: jobs in, events out, its output's tail kept.

    ``sandboxed``: run it under bubblewrap, seeing only ``solutions`` of the learner's files.
    ``warm``: also load what torch loads lazily on first use (a child kept in reserve).
    ``zygote``: a warm process that forks a fresh child per job (see ``Zygote``).
    ``serial``: a warm process that runs jobs one after another while it stays clean (see ``SerialChild``).
    Without ``zygote`` or ``serial`` it runs one job and ends.
    ``project``: the tree whose harness and kata specs the child runs (the one being graded).
    """

    def __init__(self, *, sandboxed: bool = False, solutions: tuple = (), warm: bool = False,
                 zygote: bool = False, serial: bool = False, project: Layout):
        flags = (["--warm"] if warm else []) + (["--zygote"] if zygote else []) + \
            (["--serial"] if serial else []) + (["--sandboxed"] if sandboxed else [])
        # A learner zygote's jobs run in a memory cgroup of their own, where one can be made here.
        self.memory = sandbox.JobMemory.make() if zygote and solutions else None
        if self.memory is not None:
            flags += ["--job-memory", sandbox.JOB_MEMORY_INSIDE if sandboxed else str(self.memory.folder)]
        root = project.root.resolve()
        command = [sys.executable, "-c", CHILD_CODE, str(root), *flags]
        if sandboxed:
            command = sandbox.command([Path(s) for s in solutions], project, memory=self.memory) + command
        # The instructor's secret never reaches a process that runs solutions.
        environment = processes.fork_friendly({k: v for k, v in os.environ.items() if k != "KATA_SECRET"})
        options = processes.popen_options()
        if solutions and not sandboxed:   # it runs learner code: as KATA_RUN_AS's user, if given
            options.update(processes.learner_user_options(environment))
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, cwd=root, env=environment, **options)
        except BaseException:
            if self.memory is not None:
                self.memory.remove()
            raise
        self.stopped = False    # stopped by the parent (not died by itself)
        self.retiring = False   # a zygote that said it will serve no further job
        with _LIVE_LOCK:
            _LIVE.add(self)
        # SimpleQueue: its put and get are C calls, where Queue's take Python locks (each event crosses threads).
        self.events: queue.SimpleQueue = queue.SimpleQueue()
        self.output_tail = ""
        self.output_job = ""    # a zygote's: the job whose output ``output_tail`` holds
        self.output_changed = threading.Condition()
        self.zygote = zygote
        threading.Thread(target=self._read_events, daemon=True).start()
        threading.Thread(target=self._drain_output, daemon=True).start()

    def _read_events(self) -> None:
        stream = self.process.stdout
        while True:
            try:
                line = read_line(stream)
            except (OSError, ValueError):
                break
            if not line:
                break
            at = time.monotonic()
            if not self.zygote:
                self.events.put(parse_event(line, at))
            elif line.startswith(b"Z "):
                event = parse_event(line[2:], at)
                event.control = True
                self.events.put(event)
            elif line.startswith(b"J "):
                self.events.put(parse_event(line[2:], at))
        self.events.put(None)   # end of stream: the child finished or died

    def _drain_output(self) -> None:
        # Keep only a short tail: a learner printing 50 MB must not fill memory or the report.
        stderr = cast(io.BufferedReader, self.process.stderr)   # stderr=PIPE, buffered: a BufferedReader
        for chunk in iter(lambda: stderr.read1(65536), b""):
            tail = self.output_tail + chunk.decode("utf-8", "replace")
            with self.output_changed:
                if self.zygote:
                    # A zygote marks where each job's output starts: keep only what follows the last
                    # mark (a learner can forge marks, but only to hide its own output).
                    marks = list(OUTPUT_MARK_PATTERN.finditer(tail))
                    if marks:
                        self.output_job, tail = marks[-1].group(1), tail[marks[-1].end():]
                self.output_tail = tail[-OUTPUT_TAIL:]
                self.output_changed.notify_all()

    def send(self, job: dict) -> None:
        """Send a job (one JSON line) to the child."""
        assert self.process.stdin is not None   # started with stdin=PIPE
        try:
            self.process.stdin.write((json.dumps(job) + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass   # the child already died; its end of stream will say so

    def next_event(self, timeout: float) -> Event | None:
        """The next event, None at end of stream, or raises queue.Empty after ``timeout``."""
        until = time.monotonic() + max(timeout, 0.0)
        while True:
            # Short waits: Ctrl-C (SIGINT) may reach another thread, and the main thread only
            # raises KeyboardInterrupt once it wakes up.
            try:
                return self.events.get(timeout=min(max(until - time.monotonic(), 0.0), WAKE_UP))
            except queue.Empty:
                if time.monotonic() >= until:
                    raise

    def alive(self) -> bool:
        """Whether the process still runs."""
        return self.process.poll() is None

    def stop(self, clean: bool = True) -> None:
        """Kill the child and everything it started."""
        self.stopped = True
        processes.kill_tree(self.process)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        assert self.process.stdin is not None   # started with stdin=PIPE
        try:
            self.process.stdin.close()
        except (OSError, ValueError):
            pass
        # stdout and stderr are left to their reader threads: closing a stream while a thread reads
        # it would wait for that read, which a process that escaped the kill can hold open forever.
        if self.memory is not None:
            self.memory.remove()
        with _LIVE_LOCK:
            _LIVE.discard(self)

    def death_reason(self) -> str:
        """How the child ended, in a few words."""
        try:
            return exit_reason(self.process.wait(timeout=2))
        except subprocess.TimeoutExpired:
            return "no answer"


def exit_reason(code: int) -> str:
    """How a process ended, from its exit code (negative: the signal that killed it)."""

    if code >= 0:
        return f"exit status {code}"
    try:
        return f"killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"killed by signal {-code}"


def stop_all() -> None:
    """Stop every child still running (grade.py is ending, perhaps on SIGTERM or Ctrl-C)."""
    with _LIVE_LOCK:
        live = list(_LIVE)
    for child in live:
        child.stop()


def can_fork() -> bool:
    """Whether a zygote may fork children: Linux only (forking a process that imported torch is
    not safe on macOS, and Windows has no fork)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork")


class Lane(Protocol):
    """Where a learner's kata jobs run, one after another, each in a process no earlier job has
    touched: a ``Zygote`` forks a fresh process per job (Linux); a ``SerialChild`` runs them in
    one process while it stays clean (macOS, Windows). Jobs may be submitted ahead: they run in
    the order submitted."""

    def start(self) -> None:
        """Start the process now (it loads torch while the caller goes on)."""

    def submit(self, job: dict) -> GradingChild:
        """Queue ``job``; the handle follows its events."""

    def serves(self, handle: GradingChild) -> bool:
        """Whether the jobs submitted after ``handle`` still run (its process was not replaced)."""

    def stop(self) -> None:
        """Stop whatever still runs."""


def learner_lane(solutions: Path, *, sandboxed: bool, project: Layout) -> Lane:
    """The lane that runs learner jobs on ``solutions`` on this system, with ``project``'s harness
    and kata specs (the tree being graded)."""
    if can_fork():
        return Zygote(sandboxed=sandboxed, solutions=(solutions,), project=project)
    return SerialChild(sandboxed=sandboxed, solutions=(solutions,), project=project)


class _OneProcessLane:
    """A lane that keeps one warm process and sends it every job, starting a fresh one when it is
    gone, with ``project``'s harness and kata specs: ``Zygote`` and ``SerialChild`` differ only in
    the process (``_CHILD``) and the handle a job gets (``_job``)."""

    _CHILD: dict = {}    # the options of the Child this lane keeps

    def __init__(self, *, project: Layout, sandboxed: bool = False, solutions: tuple = ()):
        self.sandboxed, self.solutions, self.project = sandboxed, tuple(solutions), project
        self.process: Child | None = None
        self.submitted = 0     # jobs sent to the current process
        self.deaths = 0        # jobs whose process died under them (not stopped by the parent)
        self.memory_stops = 0  # jobs the kernel stopped at the memory limit

    def start(self) -> None:
        """Start the process now if none runs (it loads torch while the caller goes on)."""
        if self.process is None or not self.process.alive() or getattr(self.process, "retiring", False):
            if self.process is not None:
                self.process.stop()
            self.process = Child(sandboxed=self.sandboxed, solutions=self.solutions, project=self.project, **self._CHILD)
            self.submitted = 0

    def submit(self, job: dict) -> GradingChild:
        """The handle of ``job``, sent to the current process (a fresh one if the last is gone)."""
        self.start()
        handle = self._job()
        handle.send(job)
        return handle

    def serves(self, handle: GradingChild) -> bool:
        """Whether the process that got ``handle``'s job still runs (and so the jobs sent after it)."""
        process = self.process
        # Only a job of this lane's own process can hold it: a job of another lane's never does.
        return isinstance(handle, (ForkedChild, SerialJob)) and process is not None and handle.process is process \
            and process.alive() and not getattr(process, "retiring", False)

    def _job(self) -> GradingChild:
        """The handle of the next job (it keeps the lane's current process)."""
        raise NotImplementedError

    def stop(self) -> None:
        """Stop the process and whatever it still runs."""
        if self.process is not None:
            self.process.stop()
            self.process = None


class Zygote(_OneProcessLane):
    """A warm process (torch imported, lazy parts loaded) that forks a fresh child for each job:
    grading pays the import once, yet every kata of every submission runs in a new process.

    A job that ends leaves nothing behind (the zygote kills every process its child started); a job
    that must be cut short (it hangs, or broke the protocol) is cancelled: the zygote kills it and
    all it started, and serves the next job. Only a zygote that does not answer takes the jobs
    queued in it along (the next job gets a new one). The zygote is not dumpable and its jobs hold
    no capabilities, so no job can read or write its memory (``/proc/PID/mem``, ptrace); so no job
    can see, signal or write into another's. Where the kernel allows, each job is also the first
    process of a pid namespace of its own, with its own user and IPC namespaces and keyrings, in a
    memory cgroup that counts all it holds (``child._serve_forks``); a zygote a job changed
    retires after that job. ``deaths`` counts the jobs whose zygote died under them (a caller may
    grade them again on a fresh one), ``memory_stops`` those the kernel stopped at the limit.
    """

    _CHILD = {"zygote": True}

    def _job(self) -> ForkedChild:
        return ForkedChild(self)


class ForkedChild:
    """One job of a zygote, with the interface of ``Child``: its end of stream is the zygote
    reporting that the forked process and all it started are gone."""

    def __init__(self, zygote: Zygote):
        assert zygote.process is not None   # Zygote.submit, its only maker, has just started it
        self.zygote, self.process = zygote, zygote.process
        self.status: int | Kind | None = None   # the job's wait status; Kind.RETIRED: the zygote would not run it
        self.job = None
        self.memory_limit = 0    # bytes: the kernel stopped the job at its memory limit
        self.orphaned = False    # the zygote died under the job

    @property
    def output_tail(self) -> str:
        """The end of what this job printed (the zygote's output after its mark for this job)."""
        process = self.process
        with process.output_changed:
            # The output pipe is read by a thread of its own: let it catch up with this job's mark.
            ours = process.output_changed.wait_for(lambda: process.output_job == self.job, timeout=0.5)
            return process.output_tail if ours else ""

    def send(self, job: dict) -> None:
        """Send the job to the zygote, which forks a fresh child for it."""
        self.job = job.get("job")
        self.process.send(job)

    def next_event(self, timeout: float) -> Event | None:
        """The job's next event; None once the zygote reports the job's end (or itself died)."""
        until = time.monotonic() + timeout
        while True:
            if self.status is not None:
                return None
            event = self.process.next_event(until - time.monotonic())
            if event is None:    # the zygote itself died
                if not self.process.stopped and not self.orphaned:
                    self.orphaned = True
                    self.zygote.deaths += 1
                return None
            if not event.control:
                return event
            if event.job != self.job:
                continue
            if event.kind == Kind.EXITED:
                self._ended(event.fields)
                return None
            if event.kind == Kind.RETIRED:   # a zygote that an earlier job changed: this job goes elsewhere
                self.status = Kind.RETIRED
                self.process.retiring = True
                return Event(Kind.RETIRED, {}, event.at, self.job)

    def _ended(self, fields: dict) -> None:
        """The zygote reported the job's end: its status, and what the zygote says with it."""
        self.status = fields.get("status", -1)
        limit = fields.get("memory_limit")
        if isinstance(limit, int) and limit > 0:
            self.memory_limit = limit
            self.zygote.memory_stops += 1
        if fields.get("retiring"):
            self.process.retiring = True

    def stop(self, clean: bool = True) -> None:
        """Wait briefly for the zygote to report the job's end (it follows the job's last event). A
        job that did not end ``clean`` (it hangs, or broke the protocol) is cancelled: the zygote
        kills it and all it started, and serves the next job. Only a zygote that does not report
        the end in time is itself stopped (a new one serves the next job)."""
        if not clean and self.status is None:
            self.process.send(cancel_order(self.job))
        until = time.monotonic() + CANCEL_TIME
        try:
            while self.status is None and time.monotonic() < until:
                if self.next_event(until - time.monotonic()) is None and self.status is None:
                    break   # the zygote itself is gone
        except queue.Empty:
            pass
        if (self.status is None or self.process.retiring) and self.zygote.process is self.process:
            self.zygote.stop()

    def death_reason(self) -> str:
        """How the forked child ended, as the zygote reported it."""
        if self.memory_limit:
            gib = f"{self.memory_limit / (1 << 30):g} GiB"
            return f"stopped at the memory limit of {gib} / 超出 {gib} 内存上限，被终止"
        if self.orphaned:
            return "the process it was forked from died"
        if not isinstance(self.status, int):
            return "no answer"
        return exit_reason(os.waitstatus_to_exitcode(self.status)) if hasattr(os, "waitstatus_to_exitcode") \
            else f"status {self.status}"


class SerialChild(_OneProcessLane):
    """Where a process that imported torch cannot be forked safely (macOS, Windows): one warm
    child runs the jobs one after another, in its own process, while no job changed what the
    next would see. After each job the child compares torch, NumPy, the harness and its threads
    with how they were before the first; a child that finds a change retires (it answers its next
    job ``retired`` and ends), and the jobs from there on go to a fresh child. A job cut short or
    judged malformed retires the child too."""

    _CHILD = {"serial": True}

    def _job(self) -> SerialJob:
        return SerialJob(self)


class SerialJob:
    """One job of a ``SerialChild``, with the interface of ``Child``. Its events are those that
    carry its id: whatever else arrives (a line an earlier job's thread left behind, with another
    id or none) is dropped, since it can be no one's answer. It ends with its ``done`` event, or
    with ``retired`` when the child will not run it."""

    def __init__(self, lane: SerialChild):
        assert lane.process is not None   # SerialChild.submit, its only maker, has just started it
        self.lane, self.process = lane, lane.process
        self.first = lane.submitted == 0     # a child retires only after a job: never at its first
        lane.submitted += 1
        self.ended = self.retired = False
        self.job = None

    @property
    def output_tail(self) -> str:
        """The end of what the child printed."""
        return self.process.output_tail

    def send(self, job: dict) -> None:
        """Queue the job in the child's input."""
        self.job = job.get("job")
        self.process.send(job)

    def next_event(self, timeout: float) -> Event | None:
        """The job's next event; None after its last, or when the child died."""
        until = time.monotonic() + timeout
        while not self.ended:
            event = self.process.next_event(until - time.monotonic())
            if event is None:
                return None
            if event.job != self.job:
                continue
            if event.kind == Kind.RETIRED and self.first:
                event = Event(Kind.MALFORMED, {"why": "a fresh child retired"}, event.at)
            self.ended = event.kind in (Kind.DONE, Kind.RETIRED)
            self.retired = event.kind == Kind.RETIRED
            return event
        return None

    def stop(self, clean: bool = True) -> None:
        """A job that did not end cleanly retires its child (the next job gets a fresh one)."""
        if not (self.ended and clean and not self.retired) and self.lane.process is self.process:
            self.lane.stop()

    def death_reason(self) -> str:
        """How the child ended."""
        return self.process.death_reason()
