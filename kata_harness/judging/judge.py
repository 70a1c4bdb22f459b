"""grade.py's parent side: run the grading children, follow what they send, survive what they do.

This module never imports torch or learner code; it follows the protocol only. Each kata is a job
of its own, run in a process no other job touched (``channel.Lane``). The parent trusts
nothing the learner child sends: the job fixes the exact order of events (``importing`` its
kata, then for each function ``start`` and ``observed`` or ``missing``, then ``done``),
and anything else (a malformed, foreign, extra, missing or out-of-order event) costs the
function being graded. What a function's observations are worth is ``verdicts.verdict_for``'s to
decide (compared with the expected ones, and complete: every device, case and field they have).
A child that hangs past a function's time limit is killed (no event can extend the limit); one
that dies costs the function it was running; in both cases a fresh child grades what is left.
"""

from __future__ import annotations

import queue
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum, auto
from pathlib import Path

from ..content.curriculum import FunctionInfo
from ..isolation.channel import GradingChild, Lane
from ..isolation.protocol import Event, Kind, Mode, new_job
from ..records import Expected, Reason
from .verdicts import Status, Verdict, public_cases, verdict_for

ZYGOTE_RETRIES = 2         # times a kata is graded again when the zygote died under one of its jobs
FUNCTION_TIMEOUT = 5.0     # seconds for one function's cases on all devices (a spec may allow more)
STARTUP_TIMEOUT = 120.0    # importing torch and observing the reference, on a slow machine
_ERROR_KEYS = ("error.no_file", "error.syntax", "error.import")


@dataclass
class Grading:
    """Everything grade.py learns in one run: verdicts per function and what was expected."""

    verdicts: dict[str, Verdict] = field(default_factory=dict)    # by qualified name
    expected: dict[str, Expected] = field(default_factory=dict)   # what the reference did
    durations: dict[str, float] = field(default_factory=dict)     # seconds its checks took
    # Whether a job was cut short (a hang, a crash, a protocol violation) or met the deadline:
    # then some verdicts were decided by how a process ended, not by what it observed.
    interrupted: bool = False
    # The katas a job of which lost its process from outside (the zygote it was forked from died
    # under it): nothing the kata did, so the caller grades them again (``ZYGOTE_RETRIES``).
    orphaned: set[str] = field(default_factory=set)

    def undecided(self, functions: list[FunctionInfo]) -> list[FunctionInfo]:
        """The ``functions`` that have no verdict yet."""
        return [f for f in functions if f.qualified not in self.verdicts]


class Ending(Enum):
    """How following one job ended: it sent ``done``; it was cut short (it hung, died or broke the
    protocol: what it was doing is charged); its process retired without running it (nothing is
    charged); the grading's deadline came."""

    DONE = auto()
    CUT_SHORT = auto()
    RETIRED = auto()
    DEADLINE = auto()


DONE, CUT_SHORT, RETIRED, DEADLINE = Ending.DONE, Ending.CUT_SHORT, Ending.RETIRED, Ending.DEADLINE


@dataclass
class _Run:
    """One learner job on its way: the lane it was sent to, the handle that follows its events, the
    job, and its functions."""

    lane: Lane
    handle: GradingChild
    job: dict
    functions: list[FunctionInfo]


def _submit(lane: Lane, functions: list[FunctionInfo], extras: dict | None, solutions: Path) -> _Run:
    job = new_job(Mode.LEARNER, functions, extras, solutions=solutions)
    return _Run(lane, lane.submit(job), job, list(functions))


def dealt_to(index: int, lanes: int) -> int:
    """The lane that the ``index``-th kata goes to: dealt there and back (0 1 1 0 0 1 ... for two
    lanes), not in turn. Later katas cost more (the training loops come last), so in turn the
    last lane would get the dearer of every pair: with a full grade's 42 katas that left one
    lane about a third more work than the other, and the grade waiting for it alone at its end."""
    lap, place = divmod(index, lanes)
    return place if lap % 2 == 0 else lanes - 1 - place


class _Queue:
    """The learner jobs of one grading, in the order they are followed: each kata's job is submitted
    at once (the learner's side works while the expected results are collected), the katas dealt
    to the ``lanes`` there and back (``dealt_to``; side by side, each lane runs its own jobs one
    after another), and a job whose process is gone is sent again, with every job queued after it
    on its lane, to that lane's fresh process."""

    def __init__(self, lanes: Sequence[Lane], katas: list[list[FunctionInfo]], extras: dict | None, solutions: Path):
        self.extras, self.solutions = extras, solutions
        self.runs = deque(_submit(lanes[dealt_to(index, len(lanes))], chosen, extras, solutions)
                          for index, chosen in enumerate(katas))

    def next_run(self) -> _Run:
        """The next job to follow, sent again (with those after it on its lane) if its process is gone."""
        if not self.runs[0].lane.serves(self.runs[0].handle):
            self.requeue(self.runs[0].lane)
        return self.runs.popleft()

    def requeue(self, lane: Lane) -> None:
        """The process ``lane``'s queued jobs were sent to is gone: send them again, in order."""
        self.runs = deque(_submit(lane, run.functions, self.extras, self.solutions) if run.lane is lane else run
                          for run in self.runs)

    def again(self, run: _Run, todo: list[FunctionInfo]) -> None:
        """``run`` was cut short with ``todo`` still undecided: a fresh process of its lane grades them, last."""
        if not run.lane.serves(run.handle):
            self.requeue(run.lane)
        self.runs.append(_submit(run.lane, todo, self.extras, self.solutions))


def grade(functions: list[FunctionInfo], solutions: Path, expected, *, lane: Lane,
          function_timeout: float = FUNCTION_TIMEOUT, deadline: float | None = None,
          extras: dict | None = None, beside: Sequence[Lane] = ()) -> Grading:
    """Grade ``functions`` from ``solutions`` against ``expected`` (an ``expectations`` source);
    always returns a verdict for every function, whatever the learner code does.

    Each kata is one job on ``lane`` (or, with lanes ``beside`` it, on the one ``dealt_to`` deals it
    to: their processes run side by side, on cores of their own), so each runs in a process no other
    kata touched: whatever one kata does (patch torch or the harness, leave threads, crash, send
    nonsense) costs only its own functions. A job cut short (a hang, a crash, a violation) is
    charged to the function it was running, and a fresh process grades the rest of that kata later;
    a kata whose job lost its process from outside is named in ``orphaned`` (its caller grades it
    again). Jobs are followed in the order they were queued (each event's time is when it arrived,
    so a job followed later keeps its exact time limits). ``extras``: official grading's hidden
    cases (see ``_job``); ``expected`` must hold them too."""
    result = Grading()
    stop_at = time.monotonic() + deadline if deadline else float("inf")
    lanes: list[Lane] = []
    for each in (lane, *beside):
        if all(each is not kept for kept in lanes):   # a lane given twice is one lane
            lanes.append(each)
    queued = _Queue(lanes, by_kata(functions), extras, solutions)
    _collect_expected(expected, functions, stop_at, result)
    while queued.runs and time.monotonic() < stop_at:
        run = queued.next_run()
        todo = result.undecided(run.functions)
        ending = _follow_job(run, todo, result, function_timeout, stop_at)
        if ending == DEADLINE:
            break
        if ending != DONE and todo:
            queued.again(run, todo)
    _out_of_time(result.undecided(functions), result)
    return result


def by_kata(functions: list[FunctionInfo]) -> list[list[FunctionInfo]]:
    """``functions`` grouped by kata, in order: one learner job each."""
    katas: dict[str, list[FunctionInfo]] = {}
    for info in functions:
        katas.setdefault(info.kata, []).append(info)
    return list(katas.values())


def _follow_job(run: _Run, todo: list[FunctionInfo], result: Grading, function_timeout: float, stop_at: float) -> Ending:
    """Follow one job to its end and stop it; returns how it ended. A job cut short between
    functions, having decided nothing, is charged its next function, so that every restart makes
    progress."""
    left = len(todo)
    ending = _follow_learner(run, todo, result, function_timeout, stop_at)
    _end_job(run, ending, result)
    if ending == CUT_SHORT and todo and len(todo) == left:
        _charge_the_next(run, todo, result)
    return ending


def _end_job(run: _Run, ending: Ending, result: Grading) -> None:
    """Stop a job's handle once followed to its ``ending``. A job that did not end cleanly retires
    its process and leaves the grading ``interrupted`` (not one its process would not run: that
    job did nothing)."""
    clean = ending == DONE and not _malformed(run.functions, result)
    if not clean and ending != RETIRED:
        result.interrupted = True
    if getattr(run.handle, "orphaned", False):
        result.orphaned.update(f.kata for f in run.functions)
    run.handle.stop(clean=clean)


def _out_of_time(undecided: list[FunctionInfo], result: Grading) -> None:
    """The functions still ``undecided`` at the deadline err, and the grading was interrupted."""
    for info in undecided:
        result.verdicts[info.qualified] = Verdict(Status.ERROR, reason=Reason("error.deadline", {}))
        result.interrupted = True


def _collect_expected(expected, functions: list[FunctionInfo], stop_at: float, result: Grading) -> None:
    """Record what each function must do (or the verdict already decided where that is unknown)."""
    for info, outcome in expected.collect(list(functions), stop_at):
        if isinstance(outcome, Verdict):
            result.verdicts[info.qualified] = outcome
        else:
            result.expected[info.qualified] = outcome


def _charge_the_next(run: _Run, todo: list[FunctionInfo], result: Grading) -> None:
    """Nothing was charged (the process died between functions): charge the next one, so that
    every restart makes progress."""
    reason = Reason("error.crash", {"reason": run.handle.death_reason()})
    _finish(todo[0], Verdict(Status.ERROR, reason=reason), todo, result)


def _malformed(functions: list[FunctionInfo], result: Grading) -> bool:
    """Whether a job's observations broke the protocol (a patched observer, for one): its process
    must not serve another job."""
    return any(result.verdicts[f.qualified].reason_key == "error.protocol" for f in functions if f.qualified in result.verdicts)


@dataclass(frozen=True)
class Step:
    """One step of a learner job, in the order the job must take them: importing a kata's module
    (``function`` None), or grading one of its functions."""

    kata: str
    function: FunctionInfo | None = None


class _Plan:
    """The steps a learner job must take, in order, the one it is in (``working``: the step whose
    first event arrived, None between steps), and its clock: when the last accepted event arrived
    (``since``) and how long the next may take (``limit``)."""

    def __init__(self, functions: list[FunctionInfo], since: float):
        self.steps: list[Step] = []
        for kata in dict.fromkeys(f.kata for f in functions):
            self.steps.append(Step(kata))
            self.steps += [Step(kata, f) for f in functions if f.kata == kata]
        self.position = 0
        self.working: Step | None = None
        self.since, self.limit = since, STARTUP_TIMEOUT
        self.started = since     # when the current function's "start" arrived
        self.usable: tuple = ()  # the devices the child said it can use, before learner code ran

    def due(self) -> Step | None:
        """The step whose events come next (None: only ``done`` is due)."""
        return self.steps[self.position] if self.position < len(self.steps) else None

    def advance(self) -> None:
        """The step due is done: the next one is due."""
        self.position += 1
        self.working = None

    def skip_kata(self, kata: str) -> None:
        """Every step of ``kata`` is done (its module could not be graded)."""
        while (step := self.due()) is not None and step.kata == kata:
            self.position += 1
        self.working = None


def _follow_learner(run: _Run, todo: list[FunctionInfo], result: Grading, function_timeout: float,
                    stop_at: float) -> Ending:
    """Follow one learner job's events to its end, deciding the functions in ``todo`` (those of the
    job that are still undecided). Returns how it ended: ``DONE``; ``CUT_SHORT`` when the process
    hung, died or misbehaved (what it was doing is charged); ``RETIRED`` when the process would
    not run the job (nothing is charged); ``DEADLINE``."""
    child, job = run.handle, run.job
    plan = _Plan(run.functions, time.monotonic())
    while True:
        try:
            event = child.next_event(min(plan.since + plan.limit, stop_at) - time.monotonic())
        except queue.Empty:
            if time.monotonic() >= stop_at:
                return DEADLINE
            return _blamed(plan, Reason("error.timeout", {"seconds": plan.limit}), todo, result)
        if event is None:
            if not todo:
                return CUT_SHORT
            return _blamed(plan, Reason("error.crash", {"reason": child.death_reason()}), todo, result,
                           child.output_tail[-300:])
        if event.at - plan.since > plan.limit:   # it answered, but too late
            return _blamed(plan, Reason("error.timeout", {"seconds": plan.limit}), todo, result)
        if event.kind == Kind.RETIRED and event.job == job["job"] and plan.position == 0:
            return RETIRED
        problem = _violation(event, job, plan)
        if problem:
            return _blamed(plan, Reason("error.protocol", {"what": problem}), todo, result)
        if event.kind == Kind.DONE:
            return DONE
        plan.since, plan.limit = event.at, function_timeout
        _accept(event, plan, todo, result, function_timeout)


def _accept(event: Event, plan: _Plan, pending: list[FunctionInfo], result: Grading, function_timeout: float) -> None:
    """Take an event the plan allowed: record a verdict or move the plan on."""
    step = plan.due()
    assert step is not None   # _violation lets through only ``done`` once every step is taken
    info = step.function
    if event.kind == Kind.IMPORTING:
        plan.working = step
        plan.position += 1
        plan.usable = tuple(event.fields["devices"])
    elif event.kind == Kind.KATA_ERROR:
        key, fields = event.fields["reason"]
        for victim in [f for f in pending if f.kata == step.kata]:
            _finish(victim, Verdict(Status.ERROR, reason=Reason(key, fields)), pending, result)
        plan.skip_kata(step.kata)
    elif event.kind == Kind.START:
        assert info is not None   # _violation let a "start" through only where a function is due
        plan.working = step
        plan.started = event.at
        plan.limit = time_limit(result.expected.get(info.qualified, {}), function_timeout)
    elif event.kind == Kind.MISSING:
        assert info is not None
        _finish(info, Verdict(Status.ERROR, reason=Reason("error.not_found", {})), pending, result)
        plan.advance()
    elif event.kind == Kind.OBSERVED:
        assert info is not None
        result.durations[info.qualified] = event.at - plan.started
        if info in pending:
            _finish(info, verdict_for(result.expected[info.qualified], event.fields["observations"], plan.usable),
                    pending, result)
        plan.advance()


def _violation(event: Event, job: dict, plan: _Plan) -> str | None:
    """Why ``event`` is not the one the job expects next (None when it is)."""
    if event.kind == Kind.MALFORMED:
        return event.fields.get("why", str(Kind.MALFORMED))
    if event.job != job["job"]:
        return "an event of another job"
    step = plan.due()
    if step is None:
        return None if event.kind == Kind.DONE else f"'{event.kind}' after the last function"
    info = step.function
    if info is None:
        return _not_importing(event, step.kata)
    if plan.working == step:
        return _not_observations(event, step.kata, info)
    if event.kind == Kind.KATA_ERROR and plan.working == Step(step.kata):
        return _malformed_kata_error(event.fields.get("reason"))
    if event.kind != Kind.START or (event.fields.get("kata"), event.fields.get("function")) != (step.kata, info.name):
        return f"'{event.kind}' where 'start {info.qualified}' was due"
    return None


def _not_importing(event: Event, kata: str) -> str | None:
    """Why ``event`` is not the ``importing`` of ``kata``, with the devices the child can use."""
    if event.kind != Kind.IMPORTING or event.fields.get("kata") != kata:
        return f"'{event.kind}' where 'importing {kata}' was due"
    devices = event.fields.get("devices")
    if not isinstance(devices, list) or not all(isinstance(d, str) for d in devices):
        return "an import without the devices it can use"
    return None


def _not_observations(event: Event, kata: str, info: FunctionInfo) -> str | None:
    """Why ``event`` is not the observations (or the ``missing``) of the function being graded."""
    if event.kind not in (Kind.OBSERVED, Kind.MISSING) or \
            (event.fields.get("kata"), event.fields.get("function")) != (kata, info.name):
        return f"'{event.kind}' where the observations of {info.qualified} were due"
    if event.kind == Kind.OBSERVED and not isinstance(event.fields.get("observations"), dict):
        return "observations that are not a table"
    return None


def _malformed_kata_error(reason) -> str | None:
    """Why a kata error's reason is not one a child may send (a known key and plain fields)."""
    well_formed = isinstance(reason, list) and len(reason) == 2 and reason[0] in _ERROR_KEYS and \
        isinstance(reason[1], dict) and all(isinstance(v, (str, int)) for v in reason[1].values())
    return None if well_formed else "a malformed kata error"


def time_limit(expected: Expected, function_timeout: float) -> float:
    """Seconds a function may take on all its cases: its spec's limit (or the default), stretched
    in proportion when official grading adds hidden cases."""
    limit = expected.get("timeout") or function_timeout
    public = public_cases(expected)
    cases = max((len(obs) for obs in expected.get("observations", {}).values()), default=0)
    return limit * cases / public if public and cases > public else limit


def _finish(info: FunctionInfo, verdict: Verdict, pending: list, result: Grading) -> None:
    """Record ``verdict`` for ``info`` if it is still undecided (in ``pending``)."""
    if info in pending:
        result.verdicts[info.qualified] = verdict
        pending.remove(info)


def _blamed(plan: _Plan, reason: Reason, pending: list, result: Grading, printed: str = "") -> Ending:
    """Charge a hang, a crash or a violation to what the learner child was doing: one function,
    one kata's import, or (between functions) the next function due. Returns ``CUT_SHORT``: the
    process must be replaced."""
    working = plan.working
    if working is None:
        victims = pending[:1]
    elif working.function is None:
        victims = [f for f in pending if f.kata == working.kata]
    else:
        victims = [working.function] if working.function in pending else pending[:1]
    for info in victims:
        _finish(info, Verdict(Status.ERROR, reason=reason, printed=printed), pending, result)
    return CUT_SHORT
