"""A fake lane and fake grading children for the judge's unit tests: scripted events, no process.

The judge (``kata_harness.judging.judge.grade``) queues one job per kata on a ``Lane`` and reads
each job's events through the ``GradingChild`` protocol. ``FakeLane`` gives every job it is sent
a ``FakeChild`` that replays the script written for that job's kata (the next unused one; a kata
without one left answers correctly), and ``FakeClock`` stands in for the judge's clock, so that a
child's silence costs exactly the time the judge was willing to wait, and costs it at once.

A script is a list of steps: ``Send`` (an event of this job, or of another), ``Line`` (a raw line,
parsed as the channel parses what a child writes), ``Silence`` (nothing comes: the judge's wait runs
out), ``Die`` (the job's process ends) and ``LaneDies`` (the lane's own process ends, so that no
job queued on it will run). After its last step a script's child ends its stream, as a process
that exited does.
"""

from __future__ import annotations

import copy
import queue
from collections import deque
from dataclasses import dataclass, field

from kata_harness.isolation.protocol import Event, Kind, parse_event
from kata_harness.records import Expected

THIS_JOB = object()      # Send's default job: the id of the job being replayed
CORRECT = object()       # an observed event's default observations: the expected ones (a correct answer)


class FakeClock:
    """A monotonic clock that moves only when a fake child says time passed."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        """The judge's ``time.monotonic()`` while a test runs."""
        return self.now

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass (never backwards)."""
        self.now += max(seconds, 0.0)


@dataclass
class Send:
    """An event of the job (``job``: another job's id, for a foreign one), arriving ``after``
    seconds after the step before, whatever the judge waited for it."""

    kind: str
    fields: dict = field(default_factory=dict)
    after: float = 0.01
    job: object = THIS_JOB


@dataclass
class Line:
    """A raw line from the child, made an event as the channel makes one (``parse_event``)."""

    raw: bytes
    after: float = 0.01


@dataclass
class Silence:
    """Nothing comes: the judge's wait runs out."""


@dataclass
class Die:
    """The job's process ends (its end of stream), having printed ``output``."""

    reason: str = "killed by SIGSEGV"
    output: str = ""


@dataclass
class LaneDies:
    """The lane's process ends here (a zygote killed, a serial child gone): no job queued on it
    will run. The script goes on with its next step."""


def importing(kata: str, devices=("cpu", "meta")) -> Send:
    """The child says it imports ``kata`` and which devices it can use."""
    return Send(Kind.IMPORTING, {"kata": kata, "devices": list(devices)})


def start(kata: str, function: str) -> Send:
    """The child starts observing ``kata.function``."""
    return Send(Kind.START, {"kata": kata, "function": function})


def observed(kata: str, function: str, observations=CORRECT, after: float = 0.01) -> Send:
    """The child's observations of ``kata.function`` (by default exactly the expected ones)."""
    return Send(Kind.OBSERVED, {"kata": kata, "function": function, "observations": observations}, after)


def missing(kata: str, function: str) -> Send:
    """The learner's module has no such function."""
    return Send(Kind.MISSING, {"kata": kata, "function": function})


def kata_error(kata: str, key: str, fields: dict) -> Send:
    """The learner's module could not be read or imported (``key``: an ``error.*`` message key)."""
    return Send(Kind.KATA_ERROR, {"kata": kata, "reason": [key, fields]})


def done() -> Send:
    """The job's last event."""
    return Send(Kind.DONE)


def answered(kata: str, functions: list[str]) -> list:
    """The steps of a correct answer for ``functions`` of ``kata``, up to ``done``."""
    steps: list = [importing(kata)]
    for name in functions:
        steps += [start(kata, name), observed(kata, name)]
    return steps + [done()]


def event_of(step: Send, job: dict, expected: dict[str, Expected], at: float) -> Event:
    """The event ``step`` stands for in ``job``, with the expected observations where it says CORRECT."""
    fields = dict(step.fields)
    if fields.get("observations") is CORRECT:
        fields["observations"] = copy.deepcopy(expected[f"{fields['kata']}.{fields['function']}"]["observations"])
    return Event(step.kind, fields, at, job["job"] if step.job is THIS_JOB else step.job)


class FakeChild:
    """One job's handle: replays its script; records what the judge asked of it."""

    def __init__(self, lane: FakeLane, job: dict, script: list, process: int):
        self.lane, self.job, self.process = lane, job, process
        self.script = deque(script)
        self.waits: list[float] = []     # each timeout the judge gave next_event, in order
        self.stopped: bool | None = None  # stop()'s clean flag (None: never stopped)
        self.exited = False              # the job's process ended by itself (it said so)
        self.reason = "exit status 0"
        self.output_tail = ""

    @property
    def functions(self) -> list[str]:
        """The job's functions, qualified."""
        return [f"{kata}.{name}" for kata, name in self.job["functions"]]

    def send(self, job: dict) -> None:
        """Jobs are given to the constructor; the judge never sends one itself."""
        raise AssertionError("the judge sends jobs through the lane")

    def next_event(self, timeout: float) -> Event | None:
        """The script's next event; None at its end or at ``Die``; raises ``queue.Empty`` at
        ``Silence`` once the clock has moved by ``timeout``."""
        self.waits.append(timeout)
        while self.script:
            step = self.script.popleft()
            if isinstance(step, LaneDies):
                self.lane.replace()
                continue
            if isinstance(step, Silence):
                self.lane.clock.advance(timeout)
                raise queue.Empty
            if isinstance(step, Die):
                self.exited, self.reason, self.output_tail = True, step.reason, step.output
                return None
            self.lane.clock.advance(step.after)
            if isinstance(step, Line):
                return parse_event(step.raw, self.lane.clock.now)
            return event_of(step, self.job, self.lane.expected, self.lane.clock.now)
        self.exited = True
        return None

    def stop(self, clean: bool = True) -> None:
        """As a zygote's job does: a job that neither ended by itself nor ended cleanly takes the
        lane's process with it."""
        self.stopped = clean
        if not clean and not self.exited and self.lane.process == self.process:
            self.lane.replace()

    def death_reason(self) -> str:
        """How the job's process ended."""
        return self.reason


class FakeLane:
    """A lane whose jobs replay scripts: ``scripts`` maps a kata to the scripts of its jobs, in the
    order they are submitted. ``expected``: the records a correct answer's observations copy."""

    def __init__(self, clock: FakeClock, expected: dict[str, Expected], scripts: dict[str, list[list]] | None = None):
        self.clock, self.expected = clock, expected
        self.scripts = {kata: deque(jobs) for kata, jobs in (scripts or {}).items()}
        self.process = 1              # the number of the process that runs the jobs now
        self.children: list[FakeChild] = []   # every job submitted, in order
        self.started = self.stopped = False

    def start(self) -> None:
        """Nothing to start."""
        self.started = True

    def submit(self, job: dict) -> FakeChild:
        """A handle for ``job``, replaying its kata's next script (a correct answer when none is left)."""
        kata = job["functions"][0][0]
        waiting = self.scripts.get(kata)
        script = waiting.popleft() if waiting else answered(kata, [name for _, name in job["functions"]])
        child = FakeChild(self, job, script, self.process)
        self.children.append(child)
        return child

    def serves(self, handle) -> bool:
        """Whether ``handle``'s job went to the process that runs now."""
        return isinstance(handle, FakeChild) and handle.process == self.process

    def replace(self) -> None:
        """The process ended: the jobs sent to it will never run, and the next job gets a new one."""
        self.process += 1

    def stop(self) -> None:
        """Nothing to stop."""
        self.stopped = True

    def jobs(self) -> list[list[str]]:
        """The functions of every job submitted, in order."""
        return [child.functions for child in self.children]

    def followed(self) -> list[FakeChild]:
        """The jobs whose events the judge read."""
        return [child for child in self.children if child.waits]


RETIRE = "retire"   # a SerialProcess's reply: it answers the job ``retired`` and ends


class SerialProcess:
    """A stand-in for the process of a ``channel.SerialChild`` (one warm child running job after
    job): it answers each job it is sent with its next reply, a script of ``Send`` steps for that
    job (by default a correct answer), or ``RETIRE``. Its events share one stream, as a real
    child's do, so a step sent with another job's id is a stray line of an earlier job."""

    def __init__(self, clock: FakeClock, expected: dict[str, Expected], replies: list | None = None):
        self.clock, self.expected = clock, expected
        self.replies = deque(replies or [])
        self.events: deque = deque()
        self.ended = False
        self.jobs: list[dict] = []
        self.output_tail = ""

    def send(self, job: dict) -> None:
        """Queue the events that answer ``job``."""
        self.jobs.append(job)
        reply = self.replies.popleft() if self.replies else None
        if reply == RETIRE:
            self.events.append(Event(Kind.RETIRED, {}, 0.0, job["job"]))
            self.events.append(None)   # a retired child ends
            return
        if reply is None:
            kata = job["functions"][0][0]
            reply = answered(kata, [name for _, name in job["functions"]])
        self.events.extend(event_of(step, job, self.expected, 0.0) for step in reply)

    def next_event(self, timeout: float) -> Event | None:
        """The next event of the stream (stamped now); None once the process ended."""
        if self.events:
            event = self.events.popleft()
            if event is None:
                self.ended = True
                return None
            self.clock.advance(0.01)
            event.at = self.clock.now
            return event
        if self.ended:
            return None
        self.clock.advance(timeout)
        raise queue.Empty

    def alive(self) -> bool:
        """Whether the process runs."""
        return not self.ended

    def stop(self) -> None:
        """End the process."""
        self.ended = True

    def death_reason(self) -> str:
        """How it ended."""
        return "exit status 0"
