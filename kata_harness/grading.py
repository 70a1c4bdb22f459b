"""grade.py's parent side: run the grading child, judge what it observes, survive what it does.

This module never imports torch or learner code. The child streams observations; the parent
compares them (``harness.report.judge``) and records one verdict per function. A child that
hangs past a function's time limit is killed; a child that dies (segfault, ``os._exit``) costs
the function it was running; in both cases a fresh child grades what is left.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from .answer_key import AnswerKey
from .catalog import ROOT, FunctionInfo
from .compare import Tolerance
from .report import Verdict, judge

FUNCTION_TIMEOUT = 5.0     # seconds for one function's cases on all devices (a spec may allow more)
STARTUP_TIMEOUT = 120.0    # importing torch and observing the reference, on a slow machine
OUTPUT_TAIL = 2000         # characters of the child's raw output kept to explain a crash

# The child's import path: no current folder (a stray torch.py there must not shadow torch), and the
# project root last, only to find the harness.
_CHILD_CODE = ("import sys; sys.path[:] = [p for p in sys.path if p not in ('', sys.argv[2])]; "
               "sys.path.append(sys.argv[2]); from kata_harness.child import main; main(sys.argv)")


def exit_reason(code: int) -> str:
    """How a process ended, from its exit code (negative: the signal that killed it)."""
    if code >= 0:
        return f"exit status {code}"
    try:
        return f"killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"killed by signal {-code}"


class Child:
    """One grading child process, with a reader thread for its events and one for its output."""

    def __init__(self, warm: bool = False, zygote: bool = False):
        """``warm``: also load what torch loads lazily on first use (meta kernels, optimizers), for a
        child kept in reserve (watch mode) rather than one needed at once. ``zygote``: a warm
        process that forks a fresh child per job (see ``Zygote``)."""
        read_end, write_end = os.pipe()
        flags = (["--warm"] if warm else []) + (["--zygote"] if zygote else [])
        self.process = subprocess.Popen(
            [sys.executable, "-c", _CHILD_CODE, str(write_end), str(ROOT)] + flags,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            pass_fds=(write_end,), cwd=ROOT, start_new_session=True,
        )
        os.close(write_end)
        self.events: queue.Queue = queue.Queue()
        self.output_tail = ""
        threading.Thread(target=self._read_events, args=(read_end,), daemon=True).start()
        threading.Thread(target=self._drain_output, daemon=True).start()

    def _read_events(self, fd: int) -> None:
        with os.fdopen(fd, "r", encoding="utf-8", errors="replace") as stream:
            for line in stream:
                try:
                    event = json.loads(line)
                except json.JSONDecodeError:
                    continue   # garbage written to our pipe by learner code is ignored
                if isinstance(event, dict):
                    event["_at"] = time.monotonic()
                    self.events.put(event)
        self.events.put(None)  # end of stream: the child finished or died

    def _drain_output(self) -> None:
        # Keep only a short tail: a learner printing 50 MB must not fill memory or the report.
        for chunk in iter(lambda: self.process.stdout.read1(65536), b""):
            self.output_tail = (self.output_tail + chunk.decode("utf-8", "replace"))[-OUTPUT_TAIL:]

    def send(self, job: dict) -> None:
        """Send a job (one JSON line) to the child."""
        try:
            self.process.stdin.write((json.dumps(job) + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            pass   # the child already died; its end of stream will say so

    def next_event(self, timeout: float):
        """The next event, None at end of stream, or raises queue.Empty after ``timeout``."""
        return self.events.get(timeout=max(timeout, 0.0))

    def stop(self) -> None:
        """Kill the child and everything it started."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.process.kill()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    def death_reason(self) -> str:
        """How the child ended, in a few words."""
        try:
            return exit_reason(self.process.wait(timeout=2))
        except subprocess.TimeoutExpired:
            return "no answer"


class Zygote:
    """A warm process (torch imported, lazy parts loaded) that forks a fresh child for each job:
    batch grading pays the import once, yet every submission still runs in a new process."""

    def __init__(self):
        self.process = Child(zygote=True)

    def fork(self) -> "ForkedChild":
        """A fresh child for one job."""
        return ForkedChild(self.process)

    def stop(self) -> None:
        """Stop the zygote."""
        self.process.stop()


class ForkedChild:
    """One job of a zygote, with the interface of ``Child``: its end of stream is the zygote
    reporting that the forked process exited."""

    def __init__(self, zygote: Child):
        self.zygote = zygote
        self.pid = None
        self.status = None

    @property
    def output_tail(self) -> str:
        return self.zygote.output_tail

    def send(self, job: dict) -> None:
        self.zygote.send(job)

    def next_event(self, timeout: float):
        until = time.monotonic() + timeout
        while True:
            event = self.zygote.next_event(until - time.monotonic())
            if event is None:
                return None   # the zygote itself died
            if event.get("event") == "forked":
                self.pid = event["pid"]
            elif event.get("event") == "exited":
                self.status = event["status"]
                return None
            else:
                return event

    def stop(self) -> None:
        """Kill the forked process if it still runs, and wait for the zygote to see it exit."""
        until = time.monotonic() + 10
        while self.status is None and time.monotonic() < until:
            if self.pid is not None:
                try:
                    os.killpg(self.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                if self.next_event(0.5) is None and self.status is None:
                    return   # the zygote is gone
            except queue.Empty:
                continue

    def death_reason(self) -> str:
        return "no answer" if self.status is None else exit_reason(os.waitstatus_to_exitcode(self.status))


@dataclass
class Grading:
    """Everything grade.py learns in one run: verdicts per function and what was expected."""

    verdicts: dict = field(default_factory=dict)      # qualified name -> Verdict
    expected: dict = field(default_factory=dict)      # qualified name -> reference event
    durations: dict = field(default_factory=dict)     # qualified name -> seconds its checks took


def grade(functions: list[FunctionInfo], solutions: Path, *, reference: Path | None = None,
          key: AnswerKey | None = None, expected: dict | None = None, function_timeout: float = FUNCTION_TIMEOUT,
          deadline: float | None = None, learner: Child | None = None, referee: Child | None = None,
          spawn=Child) -> Grading:
    """Grade ``functions`` from ``solutions`` against ``reference``, the answer ``key``, or
    ``expected`` observations from an earlier run; always returns a verdict for every function,
    whatever the learner code does. ``spawn`` makes a fresh learner child (after a crash).

    With a reference, two children work side by side: the referee observes the reference (it
    never sees learner code) while the learner child observes the solutions (it never loads the
    reference).
    """
    result = Grading()
    pending = list(functions)
    by_name = {f.qualified: f for f in functions}
    stop_at = time.monotonic() + deadline if deadline else float("inf")
    learner = learner or spawn()
    learner.send({"mode": "learner", "functions": [[f.kata, f.name] for f in pending], "solutions": str(solutions)})
    if expected is not None:
        for info in list(pending):
            if info.qualified in expected:
                result.expected[info.qualified] = expected[info.qualified]
            else:
                _finish(info, Verdict("error", reason=("error.reference", {"error": "not observed"})), pending, result)
    elif key is not None:
        _expected_from_key(key, pending, result)
    else:
        referee = referee or Child()
        referee.send({"mode": "reference", "functions": [[f.kata, f.name] for f in pending],
                      "reference": str(reference)})
        _collect_expected(referee, pending, result, stop_at)
        referee.stop()
    while pending and time.monotonic() < stop_at:
        left = len(pending)
        failed = _follow_learner(learner, pending, by_name, result, function_timeout, stop_at)
        learner.stop()
        if not failed:
            break
        if len(pending) == left and pending:
            # The child died between functions: charge the next one, so every restart makes progress.
            _finish(pending[0], Verdict("error", reason=("error.crash", {"reason": learner.death_reason()})),
                    pending, result)
        learner = spawn()
        learner.send({"mode": "learner", "functions": [[f.kata, f.name] for f in pending],
                      "solutions": str(solutions)})
    learner.stop()
    for info in pending:
        result.verdicts.setdefault(info.qualified, Verdict("error", reason=("error.deadline", {})))
    return result


def observe_reference(functions: list[FunctionInfo], reference: Path) -> Grading:
    """Only the referee's side: the reference's observations (``expected``) and the functions it
    could not observe (``verdicts``). What ``grade.py freeze`` records."""
    result = Grading()
    referee = Child()
    try:
        referee.send({"mode": "reference", "functions": [[f.kata, f.name] for f in functions],
                      "reference": str(reference)})
        _collect_expected(referee, list(functions), result, float("inf"))
    finally:
        referee.stop()
    return result


def _expected_from_key(key: AnswerKey, pending: list, result: Grading) -> None:
    stale = set(key.stale_katas())
    for info in list(pending):
        event = key.expected.get(info.qualified)
        if info.kata in stale:
            _finish(info, Verdict("error", reason=("error.stale_key", {})), pending, result)
        elif event is None:
            _finish(info, Verdict("error", reason=("error.not_in_key", {})), pending, result)
        else:
            recorded = set(event["observations"])
            result.expected[info.qualified] = {**event, "skipped": [d for d in event["devices"] if d not in recorded]}


def _collect_expected(referee: Child, pending: list, result: Grading, stop_at: float) -> None:
    """Read the referee's observations of the reference; functions it cannot observe are errors."""
    limit_at = min(time.monotonic() + STARTUP_TIMEOUT, stop_at)
    problem = "no answer"
    while True:
        try:
            event = referee.next_event(limit_at - time.monotonic())
        except queue.Empty:
            problem = f"no answer within {STARTUP_TIMEOUT:g} s"
            break
        if event is None:
            problem = referee.death_reason()
            break
        kind = event.get("event")
        if kind == "expected":
            result.expected[f"{event['kata']}.{event['function']}"] = event
        elif kind == "expected_error":
            for info in [f for f in pending if f.kata == event["kata"] and event["function"] in (None, f.name)]:
                _finish(info, Verdict("error", reason=("error.reference", {"error": event["error"]})), pending, result)
        elif kind == "done":
            break
    for info in [f for f in pending if f.qualified not in result.expected]:
        _finish(info, Verdict("error", reason=("error.reference", {"error": problem})), pending, result)


def _follow_learner(child, pending, by_name, result, function_timeout, stop_at) -> bool:
    """Follow one learner child's events. Returns True when it hung or died with work left.

    Events carry their arrival time, so a function is timed from its "start" to its answer even
    when the events were read later (while the referee was still being waited for).
    """
    current = None            # ("kata", name) or ("function", qualified) being worked on
    limit = STARTUP_TIMEOUT
    since = started = time.monotonic()
    while True:
        try:
            event = child.next_event(min(since + limit, stop_at) - time.monotonic())
        except queue.Empty:
            if time.monotonic() >= stop_at:
                return False
            _blame(current, ("error.timeout", {"seconds": limit}), pending, by_name, result)
            return True
        if event is None:
            if not pending:
                return False
            reason = ("error.crash", {"reason": child.death_reason()})
            _blame(current, reason, pending, by_name, result, child.output_tail[-300:])
            return True
        if event["_at"] - since > limit:   # it answered, but too late
            _blame(current, ("error.timeout", {"seconds": limit}), pending, by_name, result)
            return True
        kind = event.get("event")
        since, limit = event["_at"], STARTUP_TIMEOUT
        if kind == "importing":
            current, limit = ("kata", event["kata"]), function_timeout
        elif kind == "kata_error":
            key, fields = event["reason"]
            for info in [f for f in pending if f.kata == event["kata"]]:
                _finish(info, Verdict("error", reason=(key, fields)), pending, result)
        elif kind == "start":
            qualified = f"{event['kata']}.{event['function']}"
            current = ("function", qualified)
            started = event["_at"]
            limit = result.expected.get(qualified, {}).get("timeout") or function_timeout
        elif kind == "missing":
            info = by_name.get(f"{event['kata']}.{event['function']}")
            if info in pending:
                _finish(info, Verdict("error", reason=("error.not_found", {})), pending, result)
        elif kind == "observed":
            qualified = f"{event['kata']}.{event['function']}"
            info, expected = by_name.get(qualified), result.expected.get(qualified)
            result.durations[qualified] = event["_at"] - started
            if info in pending and expected:
                verdict = judge(expected["checks"], Tolerance(expected["rtol"], expected["atol"]),
                                event["observations"], expected["observations"])
                verdict.skipped = expected.get("skipped", [])
                _finish(info, verdict, pending, result)
            current = None
        elif kind == "done":
            if pending:   # a "done" with work left was written by learner code: treat it as a crash
                _blame(current, ("error.crash", {"reason": "stopped early"}), pending, by_name, result)
            return bool(pending)


def _finish(info: FunctionInfo, verdict: Verdict, pending: list, result: Grading) -> None:
    result.verdicts[info.qualified] = verdict
    if info in pending:
        pending.remove(info)


def _blame(current, reason, pending, by_name, result, printed="") -> None:
    """Charge a hang or a crash to what the learner child was doing: one function or one kata's import."""
    if current is None:
        return
    what, name = current
    victims = [f for f in pending if f.kata == name] if what == "kata" else [by_name[name]]
    for info in victims:
        _finish(info, Verdict("error", reason=reason, printed=printed), pending, result)
