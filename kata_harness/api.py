"""The project's own Python API: one grading run, settled once, and what grading it gives.

Every command that grades (``grade``, ``watch``, ``check``, ``batch``) and every self-test that
checks a grading builds one ``GradingRun``: the functions, the solutions folder, the language,
the source of expected results, the secret, whether the grade is official, the sandbox, the time
limits, and the factories of the processes learner code and the reference run in. It is built
from keyword arguments (``settle``) or from a parsed command line (``from_args``), and every
choice in it is made there, once: nothing downstream decides again.

    >>> from kata_harness import api
    >>> run = api.settle(["k01"], solutions="reference", lang="en")      # doctest: +SKIP
    >>> result = api.grade_submission(run)                               # doctest: +SKIP
    >>> result.doc["score"], result.render("markdown")                  # doctest: +SKIP

``grade_submission`` grades one folder of solutions and returns a ``Result``: the JSON document
and everything each ``--format`` prints. A refusal (an unknown kata, a folder that is not there,
no source of expected results, an unreadable secret file) raises ``UsageError``.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from .content.curriculum import FunctionInfo, KataInfo, UnknownSelector, closest_selector, lessons_of, load_curriculum, resolve
from .content.messages import default_language, message
from .isolation import channel, sandbox
from .isolation.processes import available_memory, usable_cores
from .judging import hidden, integrity, judge
from .judging.expectations import NoExpectations, Recorded, Referee, Source, open_source, source_name
from .judging.hidden import HiddenCases
from .judging.integrity import Integrity
from .judging.judge import FUNCTION_TIMEOUT, Grading
from .judging.verdicts import Status, Verdict
from .layout import LAYOUT, Layout
from .outputs import render as rendering
from .outputs.document import HowItRan, document
from .outputs.text import integrity_text
from .records import Reason
from .usage import UsageError

DEADLINE = 600.0   # seconds within which grade.py prints a complete result (``--deadline``)
# A second learner lane imports torch again (about one lazy floor of CPU): it pays for that in wall
# time only where it takes half of this many katas' jobs off the first lane, on a core of its own,
# with room for a second warm process and its jobs (a grading container with little memory has none).
SIDE_BY_SIDE_KATAS = 12
SIDE_BY_SIDE_MEMORY = 2 << 30   # bytes
LaneFactory = Callable[..., channel.Lane]   # (solutions folder, *, sandboxed, project) -> the lane its jobs run on


@dataclass(frozen=True)
class Processes:
    """Where a run's code runs: ``lanes`` makes the learner's lane for a solutions folder of a
    project (``channel.learner_lane``: a zygote on Linux, a serial child elsewhere), ``referee`` the
    child that observes a project's reference for one job (``referee(project=...)``). grade.py
    starts fresh ones for every run; the self-tests pass factories of warm ones they keep for a
    whole test run."""

    lanes: LaneFactory = channel.learner_lane
    referee: Referee = channel.Child


class _FromEnvironment(Enum):
    """``settle``'s default secret: ``--secret-file`` if given, else the ``KATA_SECRET`` variable."""

    SECRET = "the KATA_SECRET variable"


FROM_ENVIRONMENT = _FromEnvironment.SECRET


@dataclass(frozen=True, kw_only=True)
class GradingRun:
    """One grading, settled: the tree it grades (``project``: its curriculum, kata specs, keys,
    manifest and harness), what is graded (``functions`` of ``katas``, from ``solutions``, shown
    to the learner as ``shown``), in which language, against which source (``against``:
    ``reference`` or ``answer-key``), whether it counts (``official``, with the instructor's
    ``secret`` for the hidden cases), how learner code runs (``sandbox``), its time limits (per
    function; ``deadline``: seconds from ``started`` within which the whole result is printed, or
    None), the output format and Gradescope's visibility, and the ``processes`` it runs in."""

    project: Layout
    katas: tuple[KataInfo, ...]
    functions: tuple[FunctionInfo, ...]
    solutions: Path
    shown: str
    lang: str
    against: str
    official: bool
    secret: str | None = field(default=None, repr=False)
    sandbox: sandbox.Mode = sandbox.NONE
    function_timeout: float = FUNCTION_TIMEOUT
    deadline: float | None = None
    output_format: str = "text"
    visibility: str = "visible"
    started: float = field(default_factory=time.monotonic)
    processes: Processes = field(default_factory=Processes, compare=False)

    @property
    def sandboxed(self) -> bool:
        """Whether learner code runs under bubblewrap."""
        return self.sandbox == sandbox.BUBBLEWRAP

    def expectations(self) -> Source:
        """A fresh source of expected results for one grading (``against``; the live reference is
        observed by a child of ``processes.referee``)."""
        try:
            return open_source(self.project.root, self.against, official=self.official, referee=self.processes.referee)
        except NoExpectations as missing:
            raise UsageError(message(str(missing), self.lang)) from None

    def lane(self, solutions: Path | None = None) -> channel.Lane:
        """The learner's lane for ``solutions`` (default: this run's), sandboxed as the run is, with
        the run's project's kata specs."""
        return self.processes.lanes(solutions or self.solutions, sandboxed=self.sandboxed, project=self.project)

    def lanes_beside(self, lane: channel.Lane, source: Source) -> list[channel.Lane]:
        """The learner's lanes to grade beside ``lane``, started now: one more where the machine has
        a core to spare for it, so that the katas' jobs run two at a time; none where a referee
        observes on that core (``source.observing``), where the run has under ``SIDE_BY_SIDE_KATAS``
        katas (the second import of torch would cost more than it saves), where fewer than two
        CPUs' worth of time (``usable_cores``: a container's quota counts) or under
        ``SIDE_BY_SIDE_MEMORY`` of free memory are there, or where the lanes' factory keeps one
        lane for this folder (the self-tests' warm lanes)."""
        if source.observing or len({f.kata for f in self.functions}) < SIDE_BY_SIDE_KATAS or usable_cores() < 2:
            return []
        free = available_memory()
        if free is not None and free < SIDE_BY_SIDE_MEMORY:
            return []
        other = self.lane()
        if other is lane:
            return []
        other.start()
        return [other]

    def hidden_cases(self, source: Source) -> HiddenCases:
        """This run's hidden cases (none in practice), given to ``source``."""
        cases = hidden.prepare(self.secret, self.official, list(self.functions), source, root=self.project.root)
        cases.give_to(source)
        return cases

    def time_left(self) -> float | None:
        """Seconds left to grade in, leaving one to stop the children and print (None: no deadline)."""
        if self.deadline is None:
            return None
        return max(self.deadline - (time.monotonic() - self.started) - 1.0, 0.1)

    def replace(self, **changes) -> GradingRun:
        """This run with ``changes`` (another solutions folder, say)."""
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True, kw_only=True)
class Result:
    """What grading one run gave: its ``grading`` (a verdict per function), the JSON ``doc``, the
    ``integrity`` check of the grading files, the problem every official format reports instead of
    a score (``tampered``), and the run's wall time. ``render`` prints it in any format."""

    run: GradingRun
    grading: Grading
    doc: dict
    integrity: Integrity
    tampered: str | None
    wall_time: float

    @property
    def katas(self) -> list[KataInfo]:
        """The curriculum the run graded from."""
        return list(self.run.katas)

    @property
    def functions(self) -> list[FunctionInfo]:
        """The functions graded."""
        return list(self.run.functions)

    def render(self, output_format: str | None = None, *, colour: bool = False) -> str:
        """What ``grade.py --format FORMAT`` prints for this result (default: the run's format)."""
        return rendering.render(self, output_format or self.run.output_format, colour=colour)


def select(selectors: Sequence[str], lang: str, project: Layout) -> tuple[list[KataInfo], list[FunctionInfo]]:
    """``project``'s curriculum and the functions ``selectors`` name (all when there are none); raises
    ``UsageError`` naming the selector and the valid katas when a selector names nothing."""
    katas = load_curriculum(project.curriculum)
    try:
        return katas, resolve(list(selectors), katas)
    except UnknownSelector as error:
        meant = closest_selector(error.selector, katas)
        suggestion = message("grade.did_you_mean", lang, name=meant) if meant else ""
        lessons = ("，" if lang == "zh" else ", ").join(
            _lesson_range(lesson, [k for k in katas if k.lesson == lesson], lang) for lesson in lessons_of(katas))
        raise UsageError(message("grade.unknown_selector", lang, selector=error.selector, suggestion=suggestion,
                                 katas=lessons)) from None


def _lesson_range(lesson, katas: list[KataInfo], lang: str) -> str:
    """``lesson2 (autograd): k22 to k32``: a lesson and its katas by their first and last numbers, so
    that a typo's answer is one short line however many katas there are."""
    pack = (f"（{lesson.pack}）" if lang == "zh" else f" ({lesson.pack})") if lesson.pack else ""
    name = lesson.name + pack   # Chinese text takes full-width parentheses
    if not katas:
        return name
    first, last = katas[0].number, katas[-1].number
    if first == last:
        return message("grade.kata_one", lang, lesson=name, first=first)
    return message("grade.kata_range", lang, lesson=name, first=first, last=last)


def solutions_dir(name: str | Path, project: Layout) -> Path:
    """``--solutions DIR``: a folder here (absolute, or relative to the current folder) when there
    is one, else a folder of ``project`` (``katas``, ``reference``) wherever grade.py runs from."""
    path = Path(name)
    if path.is_absolute() or (Path.cwd() / path).is_dir():
        return path.resolve()
    return project.root / path


def read_secret(secret_file: str | None, command: str = "grade.py") -> str | None:
    """The instructor's secret (``hidden.read_secret``: ``secret_file`` or ``KATA_SECRET``; None when
    there is none); raises ``UsageError`` when the secret file cannot be read."""
    try:
        return hidden.read_secret(secret_file)
    except OSError as error:
        raise UsageError(f"{command}: cannot read the secret file: {error}") from None


def settle(selectors: Sequence[str] = (), *, solutions: str | Path = "katas", lang: str | None = None,
           against: str | None = None, secret: str | None | _FromEnvironment = FROM_ENVIRONMENT,
           secret_file: str | None = None, output_format: str = "text", sandboxed: bool | None = None,
           function_timeout: float | None = None, deadline: float | None = None, visibility: str = "visible",
           processes: Processes | None = None, started: float | None = None, command: str = "grade.py",
           root: Path | None = None) -> GradingRun:
    """A ``GradingRun`` from keyword arguments, every choice made here: the tree graded (``root``:
    a project, a student template or a copy of one; default: the project this harness belongs to,
    as grade.py grades the folder it sits in), the language (``KATA_LANG``,
    then the locale, by default), the solutions folder (it must exist), the secret (``secret_file``
    or ``KATA_SECRET`` by default; None: practice whatever the environment holds), whether the
    grade is official (a secret, or a format that records a grade), the source of expected results,
    and the sandbox (bubblewrap where it works, unless ``sandboxed=False``). Raises ``UsageError``."""
    lang = lang or default_language()
    project = LAYOUT if root is None else Layout(Path(root).resolve())
    katas, functions = select(selectors, lang, project)
    folder = solutions_dir(solutions, project)
    if not folder.is_dir():
        raise UsageError(message("error.no_file", lang, file=str(solutions)))
    if secret is FROM_ENVIRONMENT:
        secret = read_secret(secret_file, command)
    official = hidden.is_official(secret, output_format)
    try:
        chosen = source_name(project.root, against, official=official)
    except NoExpectations as missing:
        raise UsageError(message(str(missing), lang)) from None
    return GradingRun(project=project, katas=tuple(katas), functions=tuple(functions), solutions=folder,
                      shown=str(solutions).rstrip("/"), lang=lang, against=chosen, official=official, secret=secret,
                      sandbox=sandbox.mode(sandboxed is not False), output_format=output_format, visibility=visibility,
                      function_timeout=function_timeout or FUNCTION_TIMEOUT, deadline=deadline,
                      started=time.monotonic() if started is None else started, processes=processes or Processes())


def from_args(args, *, started: float | None = None, processes: Processes | None = None,
              practice: bool = False, root: Path | None = None) -> GradingRun:
    """A ``GradingRun`` from a parsed command line (grade's, watch's, check's or batch's options;
    those a command lacks take their defaults) for the tree at ``root`` (default: this harness's
    project). ``practice``: no secret is read (watch)."""
    return settle(getattr(args, "selectors", ()), solutions=getattr(args, "solutions", "katas"), lang=args.lang,
                  against=getattr(args, "against", None), secret=None if practice else FROM_ENVIRONMENT,
                  secret_file=getattr(args, "secret_file", None), output_format=getattr(args, "format", "text"),
                  sandboxed=not getattr(args, "no_sandbox", False), function_timeout=getattr(args, "timeout", None),
                  deadline=getattr(args, "deadline", None), visibility=getattr(args, "visibility", "visible"),
                  processes=processes, started=started, command=f"grade.py {getattr(args, 'command', None) or 'grade'}",
                  root=root)


def graded_again(grading: Grading, run: GradingRun, lane: channel.Lane, extras: dict | None) -> Grading:
    """``grading`` with every kata whose job lost its zygote under it (killed from outside: nothing
    the kata did) graded again on a fresh one, at most ``judge.ZYGOTE_RETRIES`` times, as batch
    does, against what the first grading expected (no second referee). A kata whose own code ends
    its process is no such kata: that is charged, once."""
    for _ in range(judge.ZYGOTE_RETRIES):
        again = [f for f in run.functions if f.kata in grading.orphaned and f.qualified in grading.expected]
        if not again:
            break
        expected = Recorded({f.qualified: grading.expected[f.qualified] for f in again}, name=run.against)
        retry = judge.grade(again, run.solutions, expected, lane=lane, extras=extras,
                            function_timeout=run.function_timeout, deadline=run.time_left())
        grading = dataclasses.replace(grading, verdicts={**grading.verdicts, **retry.verdicts},
                                      durations={**grading.durations, **retry.durations}, orphaned=retry.orphaned)
    return grading


def grade_submission(run: GradingRun) -> Result:
    """Grade ``run`` and return its ``Result``: a verdict for every function whatever the learner
    code does, the JSON document, and every format's printout."""
    source = run.expectations()
    # The learner's side imports torch (the slow part) while this process decides the hidden cases
    # (it may decrypt the hidden key) and checks the grading files; it reads its jobs once torch is in.
    lane = run.lane()
    lane.start()
    cases = run.hidden_cases(source)
    if cases.error:   # official grading that cannot happen: 0 points, never a silent practice grade
        lane.stop()
        checked = integrity.check(run.project.root, secret=run.secret)
        grading = Grading(verdicts={f.qualified: Verdict(Status.ERROR, reason=Reason(cases.error, {}))
                                    for f in run.functions})
    else:
        source.start(list(run.functions))   # the referee imports torch too, while the files are checked
        beside = run.lanes_beside(lane, source)
        checked = integrity.check(run.project.root, secret=run.secret)
        try:
            grading = judge.grade(list(run.functions), run.solutions, source, lane=lane, beside=beside,
                                  extras=cases.extras, function_timeout=run.function_timeout, deadline=run.time_left())
            grading = graded_again(grading, run, lane, cases.extras)
        finally:
            source.stop()
            for each in (lane, *beside):
                each.stop()
    ran = HowItRan(run.sandbox.value, cases.official, cases.not_run)
    doc = document(list(run.katas), list(run.functions), grading, lang=run.lang, solutions=run.shown,
                   graded_against=source.name, integrity=checked, ran=ran)
    # A secret problem is named on every test (a wrong secret also fails the manifest's signature).
    tampered = None if checked.ok or cases.error else integrity_text(checked, run.lang)
    return Result(run=run, grading=grading, doc=doc, integrity=checked, tampered=tampered,
                  wall_time=time.monotonic() - run.started)
