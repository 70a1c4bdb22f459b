"""``grade.py check``: a kata author's proof that every kata is complete and consistent.

Modelled on rustlings' ``dev check``, it finds what would otherwise surface in front of a learner:

- every kata has its four files: a stub (``katas/``), a reference (``reference/``), a test module
  (``tests/test_*.py``) and a curriculum entry (``curriculum/*.toml``), under a ``kNN_topic`` name;
- the curriculum has no unknown keys (a ``hint = [...]`` that never shows, a ``titel``), names the
  same functions as the test module, and every ``pitfalls.KEY`` names something a difference can be
  found by: an aspect, a case label or a probe of that function (``pitfalls.devcie`` is never shown);
- every function has a bilingual title, a default pitfall and hints of three levels in both languages;
- the answer key is fresh (``AnswerKey.stale_katas``, the rule grading follows), holds every function
  and the current stubs, and the hidden key (if any) belongs to it;
- graded as grade.py grades (children, sandbox), the reference scores full marks, against itself and
  against the answer key, and every stub is ``todo``.

Problems are collected, never raised: one run lists them all, each naming its file and key.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..api import Processes
from ..aspects import ALWAYS_FOUND, ASPECTS
from ..content.curriculum import (
    DEFAULT_LESSON,
    LESSONS_FILE,
    did_you_mean,
    lint_kata,
    lint_lessons,
    load_kata,
    load_lessons,
    read_toml,
    tomllib,
)
from ..content.messages import shortened
from ..files import read_regular
from ..isolation import sandbox
from ..judging import answer_key, hidden
from ..judging.expectations import ANSWER_KEY, REFERENCE, Recorded, observe_reference
from ..judging.judge import grade
from ..judging.verdicts import Status, Verdict, verdict_for
from ..layout import ROOT, Layout
from ..observation.local import load_kata_spec
from ..outputs.explanations import explain

KATA_NAME = re.compile(r"k\d\d_\w+")   # what batch and the selectors expect (k05_devices)
MESSAGE_CUT = 300


@dataclass
class Report:
    """What ``run_checks`` found: ``problems`` (one line each, naming a file) and a one-line
    ``summary`` of what was checked."""

    problems: list = field(default_factory=list)
    summary: str = ""


def _parts(root: Path) -> dict:
    """{kata: {part: path}} for every kata any of the four folders mentions."""
    found: dict = {}
    for part, pattern, prefix in (("stub", "katas/k*.py", ""), ("reference", "reference/k*.py", ""),
                                  ("tests", "tests/test_k*.py", "test_"), ("curriculum", "curriculum/k*.toml", "")):
        for path in sorted(root.glob(pattern)):
            found.setdefault(path.stem[len(prefix):], {})[part] = path
    return dict(sorted(found.items()))


def _files(root: Path, parts: dict, problems: list) -> None:
    where = {"stub": "katas/{}.py", "reference": "reference/{}.py", "tests": "tests/test_{}.py",
             "curriculum": "curriculum/{}.toml"}
    for kata, present in parts.items():
        if not KATA_NAME.fullmatch(kata):
            problems.append(f"{kata}: a kata's name must look like kNN_topic (k05_devices): batch grading "
                            f"and the selectors read only such names")
        for part, pattern in where.items():
            if part not in present:
                problems.append(f"{pattern.format(kata)}: missing (kata {kata} needs a stub, a reference, a test "
                                f"module and a curriculum entry)")


def _curriculum(root: Path, parts: dict, problems: list) -> dict:
    """{kata: KataInfo} of the curriculum files that can be read, after linting every file (and the
    lessons file, whose lessons the katas name)."""
    katas = {}
    lessons = _lessons(root, problems)
    for kata, present in parts.items():
        path = present.get("curriculum")
        if path is None:
            continue
        shown = path.relative_to(root).as_posix()
        try:
            data = read_toml(path)   # parsed once: load_kata below reads the same bytes
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            problems.append(f"{shown}: not readable TOML: {error}")
            continue
        problems.extend(f"{shown}: {problem}" for problem in lint_kata(data, lessons))
        try:
            katas[kata] = load_kata(path, lessons)
        except (KeyError, TypeError, ValueError, AttributeError):
            continue   # what is wrong was reported just above
    return katas


def _lessons(root: Path, problems: list) -> list:
    """The lessons of ``curriculum/lessons.toml`` after linting it, each lesson's notes there in every
    language (the default lesson alone without the file)."""
    path = root / "curriculum" / LESSONS_FILE
    if not path.exists():
        return [DEFAULT_LESSON]
    shown = path.relative_to(root).as_posix()
    try:
        found = lint_lessons(read_toml(path))
        lessons = [] if found else load_lessons(path.parent)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        found, lessons = [f"not readable TOML: {error}"], []
    problems.extend(f"{shown}: {problem}" for problem in found)
    problems.extend(f"{shown}: {lesson.name}'s notes {notes} are missing" for lesson in lessons
                    for notes in lesson.notes.values() if not (root / notes).is_file())
    return lessons or [DEFAULT_LESSON]


def _specs(root: Path, katas: dict, parts: dict, problems: list) -> dict:
    """{kata: its test module's Kata}, after checking that it names the curriculum's functions and
    that every pitfall key names an aspect, a case label or a probe of its function."""
    specs = {}
    for kata, info in katas.items():
        if "tests" not in parts[kata]:
            continue
        shown = f"tests/test_{kata}.py"
        try:
            spec = load_kata_spec(kata, Layout(root).tests)
        except BaseException as error:   # an author's broken test module, reported like any problem
            problems.append(f"{shown}: cannot be imported: {type(error).__name__}: {error}")
            continue
        if getattr(spec, "name", None) != kata:
            problems.append(f"{shown}: its KATA is named {getattr(spec, 'name', None)!r}, not {kata!r}")
        problems.extend(_same_functions(kata, [f.name for f in info.functions], [f.name for f in spec.functions]))
        for function in info.functions:
            checked = spec.function(function.name)
            if checked is not None:
                problems.extend(_unused_pitfalls(kata, function, checked))
        specs[kata] = spec
    return specs


def _same_functions(kata: str, ours: list[str], theirs: list[str]) -> list[str]:
    """The functions only the curriculum or only the test module names."""
    shown = f"tests/test_{kata}.py"
    return [f"curriculum/{kata}.toml: [functions.{name}] is not checked by {shown}" for name in ours if name not in theirs] + \
        [f"{shown}: checks {name}, which has no [functions.{name}] in curriculum/{kata}.toml" for name in theirs
         if name not in ours]


def _unused_pitfalls(kata: str, function, checked) -> list[str]:
    """The pitfall keys of ``function`` that no aspect, case label or probe of its checks can ever find."""
    known = set(ALWAYS_FOUND) | set(checked.aspects) | {p.name for p in checked.probes} | \
        {c.label for c in checked.cases if c.label} | \
        {key for aspect in ASPECTS if aspect.name in checked.aspects for key in aspect.pitfalls}
    return [f"curriculum/{kata}.toml: `functions.{function.name}.pitfalls.{key}` is no aspect, case label or probe "
            f"of {function.qualified}{did_you_mean(key, sorted(known))}; it would never be shown"
            for key in function.pitfalls if key not in known]


def _definitions(root: Path, katas: dict, parts: dict, problems: list) -> None:
    """The stub and the reference define every function of the curriculum (read, never run)."""
    for kata, info in katas.items():
        for part, folder in (("stub", "katas"), ("reference", "reference")):
            path = parts[kata].get(part)
            if path is None:
                continue
            try:
                tree = ast.parse(read_regular(path).decode("utf-8"))
            except (OSError, UnicodeDecodeError, SyntaxError) as error:
                problems.append(f"{folder}/{kata}.py: cannot be read: {error}")
                continue
            defined = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
            problems.extend(f"{folder}/{kata}.py: no function `{function.name}`"
                            for function in info.functions if function.name not in defined)


def _answer_key(root: Path, katas: dict, problems: list):
    """The answer key when it is fresh for every kata (else None), after naming what is out of date."""

    freeze = "run `python grade.py freeze`"
    key = answer_key.load(Layout(root).answer_key)
    if key is None:
        problems.append(f"tests/answer_key.dat: missing or unreadable: {freeze}")
        return None
    stale = key.staleness(root)
    for kata, why in stale.items():
        if why != answer_key.REFERENCE_CHANGED:
            problems.append(f"tests/answer_key.dat: out of date for {kata} ({why}): {freeze}")
    if answer_key.REFERENCE_CHANGED in stale.values():   # one line, not one per kata
        problems.append(f"tests/answer_key.dat: out of date for every kata ({answer_key.REFERENCE_CHANGED} since "
                        f"the freeze): {freeze}")
    names = {info.qualified for kata in katas.values() for info in kata.functions}
    problems.extend(f"tests/answer_key.dat: has no {name}: {freeze}" for name in sorted(names - set(key.expected)))
    problems.extend(f"tests/answer_key.dat: holds {name}, which the curriculum does not have: {freeze}"
                    for name in sorted(set(key.expected) - names) if name.split(".")[0] in katas)
    for kata in katas:
        stub = Layout(root).katas / f"{kata}.py"
        if stub.is_file() and key.stubs.get(kata) != stub.read_text(encoding="utf-8"):
            problems.append(f"tests/answer_key.dat: its copy of katas/{kata}.py is not the current stub "
                            f"(`grade.py reset` restores that copy): {freeze}")
    header = hidden.read_header(root)
    if header is not None and header.get("answer_key") != hidden.public_digest(Layout(root).answer_key):
        problems.append(f"{Layout.HIDDEN_KEY}: belongs to another answer key: run "
                        f"`KATA_SECRET=... python grade.py freeze`")
    return None if stale or names - set(key.expected) else key


def _first_lines(verdict, info, folder: str) -> str:
    """The learner's message for ``verdict`` on one line, what went wrong first (the call it was
    found on, often long, last), cut to ``MESSAGE_CUT`` characters."""

    explained = explain(verdict, info, "en", solutions=folder)
    text = " | ".join(filter(None, [explained.differed.replace("\n", " "), explained.called and
                                    f"called: {explained.called}"]))
    return shortened(text, MESSAGE_CUT)


def _grading(root: Path, functions: list, key, problems: list, processes: Processes) -> None:
    """Grade as grade.py does: the referee observes the reference once; the reference and the stubs
    are graded against that, and what it observed is judged against the answer key."""

    boxed = sandbox.mode() == sandbox.BUBBLEWRAP
    lanes = {folder: processes.lanes(root / folder, sandboxed=boxed, project=Layout(root)) for folder in ("reference", "katas")}
    try:
        for lane in lanes.values():
            lane.start()   # they import torch while the referee observes (the slow part, done once)
        _grade_passes(root, functions, key, problems, lanes, processes)
    finally:
        for lane in lanes.values():
            lane.stop()


def _grade_passes(root: Path, functions: list, key, problems: list, lanes: dict, processes: Processes) -> None:
    """``_grading``'s passes: the reference against itself, the stubs, the referee's observations
    against the key."""

    observed = observe_reference(functions, Layout(root), referee=processes.referee)
    for name, verdict in observed.verdicts.items():
        problems.append(f"reference/{name.split('.')[0]}.py: `{name.split('.', 1)[1]}` cannot be observed: "
                        f"{_reason_text(verdict)}")
    functions = [f for f in functions if f.qualified in observed.expected]
    live = Recorded(observed.expected, REFERENCE)

    def graded(folder: str, source) -> dict:
        return grade(functions, root / folder, source, lane=lanes[folder]).verdicts

    verdicts = graded("reference", live)
    failing = set()
    for info in functions:
        verdict = verdicts[info.qualified]
        if verdict.status != Status.PASSED:
            failing.add(info.qualified)
            problems.append(f"reference/{info.kata}.py: `{info.name}` does not score full marks against itself "
                            f"({Status(verdict.status).value}: {_first_lines(verdict, info, 'reference')})")
    verdicts = graded("katas", live)
    for info in functions:
        verdict = verdicts[info.qualified]
        # A stub judged against a failing reference is not todo either; that is the reference's problem.
        if verdict.status != Status.TODO and info.qualified not in failing:
            status = Status(verdict.status).value
            problems.append(f"katas/{info.kata}.py: `{info.name}` is not a stub: it is graded {status}, "
                            f"where a stub only raises NotImplementedError (status todo)")
    if key is not None:
        problems += against_the_key(functions, observed.expected, key, root)


def against_the_key(functions: list, observed: dict, key, root: Path) -> list[str]:
    """The problems of an answer key that does not give the reference full marks: what the referee
    observed now (``observed``: {function: its expected record}) judged against what ``key``
    recorded, as a learner's observations are, so that the reference scores full marks against
    the key exactly when these pass."""
    problems = []
    for info, recorded in Recorded(key.expected, ANSWER_KEY, key.stale_katas(root)).collect(functions, float("inf")):
        verdict = recorded if isinstance(recorded, Verdict) else \
            verdict_for(recorded, observed[info.qualified]["observations"])
        if verdict.status != Status.PASSED:
            problems.append(f"tests/answer_key.dat: the reference does not score full marks against it: "
                            f"{info.qualified} ({Status(verdict.status).value}: "
                            f"{_first_lines(verdict, info, 'reference')})")
    return problems


def run_checks(root: Path = ROOT, *, grading: bool = True, processes: Processes | None = None) -> Report:
    """Every check of ``grade.py check`` on the project at ``root`` (grading with the children of
    this harness, whose project is ``ROOT``, made by ``processes``); ``grading=False`` skips grading
    the reference and the stubs."""
    report = Report()
    problems = report.problems
    parts = _parts(root)
    _files(root, parts, problems)
    katas = _curriculum(root, parts, problems)
    specs = _specs(root, katas, parts, problems)
    _definitions(root, katas, parts, problems)
    key = _answer_key(root, katas, problems)
    complete = [kata for kata in katas if len(parts[kata]) == 4 and kata in specs]
    functions = [info for kata in complete for info in katas[kata].functions if specs[kata].function(info.name)]
    if grading and functions:
        _grading(root, functions, key, problems, processes or Processes())
    count = sum(len(info.functions) for info in katas.values())
    report.summary = (f"{len(parts)} katas, {count} functions: files, curriculum, pitfalls, hints, answer key"
                      + (", reference full marks, stubs todo" if grading else "; grading skipped (--quick)"))
    return report


def run(args, *, started: float, processes: Processes | None = None) -> int:
    """``grade.py check``: the kata author's proof that every kata is complete and consistent
    (``check.run_checks``); exit status 1 with one line per problem, else OK."""
    report = run_checks(ROOT, grading=not args.quick, processes=processes)
    if report.problems:
        print(f"check: {len(report.problems)} problems / 发现 {len(report.problems)} 个问题")
        for problem in report.problems:
            print(f"  - {problem}")
        return 1
    print(f"check: OK ({report.summary}) / 检查通过")
    return 0


def _reason_text(verdict) -> str:
    """Why a function of the reference could not be observed (its error, else its message key)."""
    return str(verdict.reason.fields.get("error", verdict.reason.key)) if verdict.reason else "?"
