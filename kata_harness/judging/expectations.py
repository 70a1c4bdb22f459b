"""Where expected observations come from: the live reference, the answer key, or a record.

Every command that grades (grade, watch, batch, freeze) and the pytest plugin ask
``open_source`` for one source, chosen by one rule and judged stale by one rule
(``AnswerKey.stale_katas``); each source yields, for every function, either its expected
observations or the error verdict that explains why there are none.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Protocol

from ..content.curriculum import FunctionInfo
from ..isolation.channel import Child, GradingChild
from ..isolation.protocol import Kind, Mode, new_job
from ..layout import Layout
from ..records import Expected, Reason
from . import answer_key
from .judge import STARTUP_TIMEOUT, Grading
from .verdicts import Status, Verdict

REFERENCE = "reference"
ANSWER_KEY = "answer-key"


class NoExpectations(Exception):
    """Neither a reference nor a usable answer key: the message key says which."""


class Source(Protocol):
    """What every source of expected results offers: its ``name`` (``reference`` or ``answer-key``,
    the JSON's ``graded_against``), the katas it is out of date for (``stale``), and the three steps
    of a grading: ``start``, ``collect``, ``stop``. ``with_hidden`` gives it official grading's
    hidden cases."""

    name: str
    stale: frozenset[str]

    def start(self, functions: list[FunctionInfo]) -> None: ...

    def collect(self, pending: list[FunctionInfo], stop_at: float) -> Iterator[tuple[FunctionInfo, Expected | Verdict]]: ...

    def stop(self) -> None: ...

    def with_hidden(self, extras: dict, observations: dict | None) -> None: ...

    @property
    def observing(self) -> bool:
        """Whether a child observes the expected results now (it takes a core of its own)."""
        ...


class Referee(Protocol):
    """Makes the child that observes ``project``'s reference for one job, with that project's
    harness and kata specs (``channel.Child`` by default)."""

    def __call__(self, *, project: Layout) -> GradingChild: ...


class LiveReference:
    """``project``'s reference solutions, observed by a referee child of that project (it never sees
    learner code), which ``referee`` makes (a fresh ``Child`` by default). ``extras``: official grading's hidden cases,
    observed after the public ones. ``known``, when given, finds the events the referee would send
    that are already known ({"kata.function": event}: ``AnswerKey.standing_in``); those functions
    are not observed again, and where every function is known no referee starts (no second import
    of torch beside the learner's)."""

    name = REFERENCE
    stale: frozenset[str] = frozenset()   # the reference itself is never out of date

    def __init__(self, project: Layout, extras: dict | None = None, *, referee: Referee = Child,
                 known: Callable[[], dict] | None = None):
        self.project = project
        self.folder = project.reference
        self.extras = extras or {}
        self.make_referee = referee
        self.find_known = known
        self.known: dict | None = None   # found at the start (not before: the learner's lane starts first)
        self.referee: GradingChild | None = None
        self.job: dict | None = None

    def with_hidden(self, extras: dict, observations: dict | None) -> None:
        """Observe official grading's hidden cases ({function: [[case index, seed], ...]}) too, after the
        public ones (the reference observes them: recorded ``observations`` play no part here)."""
        self.extras = extras

    def start(self, functions: list[FunctionInfo]) -> None:
        """Start observing now (torch's import overlaps with the learner child's) what is not known."""
        if self.known is None:
            self.known = self.find_known() if self.find_known is not None else {}
        unknown = [f for f in functions if not self._known(f)]
        if unknown:
            self.referee = self.make_referee(project=self.project)
            self.job = new_job(Mode.REFERENCE, unknown, self.extras, reference=self.folder)
            self.referee.send(self.job)

    @property
    def observing(self) -> bool:
        """Whether a referee observes what is not known (from ``start`` until its results are read)."""
        return self.referee is not None

    def _known(self, info: FunctionInfo) -> dict | None:
        """The known event of ``info`` (None: the referee observes it; always so with hidden cases)."""
        return None if self.extras.get(info.qualified) else (self.known or {}).get(info.qualified)

    def collect(self, pending: list[FunctionInfo], stop_at: float):
        """(function, expected fields or error Verdict) for every function in ``pending``."""
        if self.known is None:
            self.start(pending)
        assert self.known is not None   # start() found it
        for info in pending:
            if (event := self._known(info)) is not None:
                yield info, event
        pending = [info for info in pending if self._known(info) is None]
        if not pending:
            return
        if self.referee is None:
            self.start(pending)
        assert self.referee is not None and self.job is not None   # start() set both
        wanted = {f.qualified: f for f in pending}
        try:
            found, problem = self._read(self.referee, wanted, min(time.monotonic() + STARTUP_TIMEOUT, stop_at))
        finally:
            self.referee.stop()
            self.referee = None
        for name, info in wanted.items():
            yield info, found.get(name) or Verdict(Status.ERROR, reason=Reason("error.reference", {"error": problem}))

    def _read(self, referee: GradingChild, wanted: dict, limit_at: float) -> tuple[dict, str]:
        """The referee's answers until its ``done``: ({function: expected fields or error Verdict}, what
        went wrong when it stopped early)."""
        assert self.job is not None   # set with the referee
        found: dict[str, dict | Verdict] = {}
        while True:
            try:
                event = referee.next_event(limit_at - time.monotonic())
            except queue.Empty:
                return found, f"no answer within {STARTUP_TIMEOUT:g} s"
            if event is None:
                return found, referee.death_reason()
            if event.job != self.job["job"]:
                continue
            if event.kind == Kind.DONE:
                return found, "no answer"
            found.update(_answers(event, wanted))

    def stop(self) -> None:
        """Stop the referee if it still runs."""
        if self.referee is not None:
            self.referee.stop()
            self.referee = None


def _answers(event, wanted: dict) -> dict:
    """What one referee event says: the expected fields of a function, or an error Verdict for each
    function it could not observe."""
    fields = event.fields
    if event.kind == Kind.EXPECTED:
        name = f"{fields.get('kata')}.{fields.get('function')}"
        return {name: fields} if name in wanted else {}
    if event.kind == Kind.EXPECTED_ERROR:
        failed = Verdict(Status.ERROR, reason=Reason("error.reference", {"error": str(fields.get("error"))}))
        return {name: failed for name, info in wanted.items()
                if info.kata == fields.get("kata") and fields.get("function") in (None, info.name)}
    return {}


class Recorded:
    """Expected observations already known: an answer key's, or those of an earlier run.
    ``hidden``: the hidden cases' observations ({"kata.function": {device: [...]}}, decrypted from
    the hidden key), appended to the public ones in official grading."""

    def __init__(self, expected: dict, name: str = ANSWER_KEY, stale: Iterable[str] = (), hidden: dict | None = None):
        self.expected, self.name, self.stale = expected, name, frozenset(stale)
        self.hidden = hidden or {}

    def with_hidden(self, extras: dict, observations: dict | None) -> None:
        """Append the decrypted ``observations`` of official grading's hidden cases to the public ones
        (``extras`` are the cases themselves, which the learner's child is given separately)."""
        if observations is not None:
            self.hidden = observations

    observing = False   # nothing to observe: it is all recorded

    def start(self, functions) -> None:
        """Nothing to start."""

    def lookup(self, info: FunctionInfo):
        """The recorded event of one function, or the error Verdict that says why there is none
        (its kata is stale, or the key lacks it)."""
        event = self.expected.get(info.qualified)
        if info.kata in self.stale:
            return Verdict(Status.ERROR, reason=Reason("error.stale_key", {}))
        if event is None:
            return Verdict(Status.ERROR, reason=Reason("error.not_in_key", {}))
        return event

    def collect(self, pending: list[FunctionInfo], stop_at: float):
        """(function, expected fields or error Verdict) for every function in ``pending``."""
        for info in list(pending):
            event = self.lookup(info)
            if isinstance(event, Verdict):
                yield info, event
            else:
                extra = self.hidden.get(info.qualified, {})
                observations = {device: cases + extra.get(device, []) for device, cases in event["observations"].items()}
                yield info, {**event, "observations": observations,
                             "skipped": [d for d in event["devices"] if d not in observations]}

    def stop(self) -> None:
        """Nothing to stop."""



def source_name(root: Path, against: str | None = None, *, official: bool = False) -> str:
    """Which source of expected results grading under ``root`` uses: ``against`` where it is given,
    else the live reference where ``reference/`` exists, else the answer key. A student template
    never grades officially against a ``reference/`` found in it (a student could have written
    one). Raises ``NoExpectations`` (with a message key) when the one chosen is not there."""
    reference = Layout(root).reference
    if official and Layout(root).in_template():
        against = ANSWER_KEY
    against = against or (REFERENCE if reference.is_dir() else ANSWER_KEY)
    if against == REFERENCE and not reference.is_dir():
        raise NoExpectations("error.no_reference")
    if against == ANSWER_KEY and not Layout(root).answer_key.is_file():
        raise NoExpectations("error.no_key")
    return against


def open_source(root: Path, against: str | None = None, *, official: bool = False, referee: Referee = Child):
    """The one source of expected results under ``root`` that ``source_name`` chooses: the live
    reference, observed by the child ``referee`` makes, or the answer key, whose stale katas follow
    ``AnswerKey.stale_katas``. Raises ``NoExpectations`` (with a message key)."""
    if source_name(root, against, official=official) == REFERENCE:
        return LiveReference(Layout(root), referee=referee, known=lambda: answer_key.recorded_reference(root))
    key = answer_key.load(Layout(root).answer_key)
    if key is None:
        raise NoExpectations("error.no_key")
    return Recorded(key.expected, ANSWER_KEY, key.stale_katas(root))


def observe_reference(functions: list[FunctionInfo], project: Layout, extras: dict | None = None, *,
                      referee: Referee = Child) -> Grading:
    """Only the referee's side: ``project``'s reference's observations (``expected``, with the hidden cases
    ``extras`` asks for after the public ones) and the functions it could not observe
    (``verdicts``). What ``grade.py freeze`` records."""
    result = Grading()
    source = LiveReference(project, extras, referee=referee)
    source.start(functions)
    for info, outcome in source.collect(list(functions), float("inf")):
        if isinstance(outcome, Verdict):
            result.verdicts[info.qualified] = outcome
        else:
            result.expected[info.qualified] = outcome
    return result
