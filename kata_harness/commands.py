"""What each grade.py subcommand does, once ``cli`` has parsed its command line.

Each handler is thin: it reads its options, asks the module that owns the work (``grading`` and
``formats`` for a grade, ``answer_key`` and ``hidden`` for freeze, ``reset``, ``release``,
``batch``, ``watch``, ``check``) and prints. A refusal is raised as ``cli.UsageError``, which
grade.py prints once. Heavy modules are imported inside the handlers: ``hint`` and ``reset``
answer without importing anything that starts a child or loads torch.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from .cli import UsageError
from .curriculum import ROOT, UnknownSelector, load_curriculum, resolve, whole_kata
from .messages import default_language, message, pick


def select(selectors: list[str], lang: str):
    """The curriculum and the functions ``selectors`` name (all when there are none); raises
    ``UsageError`` naming the selector and the valid katas when a selector names nothing."""
    katas = load_curriculum()
    try:
        return katas, resolve(selectors, katas)
    except UnknownSelector as error:
        names = ", ".join(k.name for k in katas)
        raise UsageError(message("grade.unknown_selector", lang, selector=error.selector, katas=names)) from None


def solutions_dir(name: str) -> Path:
    """``--solutions DIR``: a folder here (absolute, or relative to the current folder) when there
    is one, else a folder of the project (``katas``, ``reference``) wherever grade.py runs from."""
    path = Path(name)
    if path.is_absolute() or (Path.cwd() / path).is_dir():
        return path.resolve()
    return ROOT / path


def existing_solutions(name: str, lang: str) -> Path:
    """The solutions folder; raises ``UsageError`` when there is no such folder."""
    solutions = solutions_dir(name)
    if not solutions.is_dir():
        raise UsageError(message("error.no_file", lang, file=name))
    return solutions


def read_secret(path: str | None, command: str):
    """The instructor's secret (``hidden.read_secret``: ``--secret-file`` or ``KATA_SECRET``; None
    when there is none); raises ``UsageError`` when the secret file cannot be read."""
    from . import hidden

    try:
        return hidden.read_secret(path)
    except OSError as error:
        raise UsageError(f"{command}: cannot read the secret file: {error}") from None


def expectations_for(against: str | None, lang: str, *, official: bool = False):
    """The one source of expected results (``expectations.open_source``); raises ``UsageError``
    when there is none."""
    from .expectations import NoExpectations, open_source

    try:
        return open_source(ROOT, against, official=official)
    except NoExpectations as missing:
        raise UsageError(message(str(missing), lang)) from None


def grade(args, *, started: float) -> int:
    """``grade.py [grade] [SELECTOR ...]``: grade the selected functions and print the result in
    ``--format``."""
    from . import formats, hidden, integrity, sandbox
    from .channel import learner_lane
    from .grading import FUNCTION_TIMEOUT, Grading
    from .grading import grade as run_grading
    from .report import Reason, Status, Verdict

    lang = args.lang or default_language()
    katas, functions = select(args.selectors, lang)
    solutions = existing_solutions(args.solutions, lang)
    secret = read_secret(args.secret_file, "grade.py")
    expected = expectations_for(args.against, lang, official=hidden.is_official(secret, args.format))
    boxed = sandbox.mode() == sandbox.BUBBLEWRAP

    # The learner's side imports torch (the slow part) while this process decides the hidden cases
    # (it may decrypt the hidden key) and checks the grading files; it reads its jobs once torch is in.
    lane = learner_lane(solutions, sandboxed=boxed)
    lane.start()
    cases = hidden.prepare(secret, args.format in hidden.OFFICIAL_FORMATS, functions, expected)
    cases.attach(expected)
    if cases.error:   # official grading that cannot happen: 0 points, never a silent practice grade
        lane.stop()
        checked = integrity.check(secret=secret)
        grading = Grading(verdicts={f.qualified: Verdict(Status.ERROR, reason=Reason(cases.error, {}))
                                    for f in functions})
    else:
        expected.start(functions)
        checked = integrity.check(secret=secret)
        # Leave a second to stop the children and print, counted from grade.py's start.
        remaining = args.deadline - (time.monotonic() - started) - 1.0
        try:
            grading = run_grading(functions, solutions, expected, lane=lane, extras=cases.extras,
                                  function_timeout=args.timeout or FUNCTION_TIMEOUT, deadline=max(remaining, 0.1))
        finally:
            expected.stop()
            lane.stop()
    shown = args.solutions.rstrip("/")
    doc = formats.document(katas, functions, grading, lang=lang, solutions=shown, graded_against=expected.name,
                           integrity=checked)
    doc["sandbox"] = sandbox.BUBBLEWRAP if boxed else sandbox.NONE
    doc["official"] = cases.official
    doc["hidden_checks_not_run"] = cases.not_run
    # A secret problem is named on every test (a wrong secret also fails the manifest's signature).
    tampered = None if checked.ok or cases.error else formats.integrity_text(checked, lang)
    print(formats.render_as(args.format, doc, katas, functions, grading, lang=lang, solutions=solutions, shown=shown,
                            integrity=checked, tampered=tampered, visibility=args.visibility,
                            wall_time=time.monotonic() - started, colour=formats.use_colour(sys.stdout)))
    return 0


def watch(args, *, started: float) -> int:
    """``grade.py watch [SELECTOR ...]``: re-grade a kata every time its file is saved, against
    the source ``--against`` chooses."""
    from . import formats, hidden, integrity, sandbox
    from .watch import Display, Watcher
    from .watch import watch as run_watch

    lang = args.lang or default_language()
    katas, functions = select(args.selectors, lang)
    solutions = existing_solutions(args.solutions, lang)
    expected = expectations_for(args.against, lang)
    # Watching is practice: the hidden checks never run here, and the report says how many there are.
    cases = hidden.prepare(None, False, functions, expected)
    display = Display(lang, args.solutions.rstrip("/"), integrity.check(), colour=formats.use_colour(sys.stdout),
                      hidden_not_run=cases.not_run)
    watcher = Watcher(katas, functions, solutions, expected, display, sandboxed=sandbox.mode() == sandbox.BUBBLEWRAP)
    return run_watch(watcher, interval=args.interval, use_events=not args.poll)


def hint(args, *, started: float) -> int:
    """``grade.py hint FUNCTION [--level N]``: one hint, by level; says so when there are no more."""
    lang = args.lang or default_language()
    _, functions = select([args.function], lang)
    info = functions[0]
    levels = len(info.hints)
    if not levels:
        raise UsageError(message("hint.none", lang, function=info.qualified))
    if args.level > levels:
        raise UsageError(message("hint.no_more", lang, function=info.qualified, levels=levels))
    section = f"（{info.section}）" if lang == "zh" else f" ({info.section})"
    colon = "：" if lang == "zh" else ": "
    print(f"{info.qualified} — {pick(info.title, lang)}{section}")
    print(f"{message('hint', lang)} {args.level}/{levels}{colon}{info.hint(args.level, lang)}")
    return 0


def reset(args, *, started: float) -> int:
    """``grade.py reset SELECTOR``: restore the stub of a function or a whole kata (after a backup)."""
    from . import answer_key
    from .reset import NoStub, ResetError, reset_selection

    lang = args.lang or default_language()
    katas, functions = select([args.selector], lang)
    key = answer_key.load()
    restoring = reset_selection(functions, whole=whole_kata(args.selector, katas) is not None,
                                solutions=solutions_dir(args.solutions), stubs=key.stubs if key else {})
    try:
        for saved, what in restoring:
            if saved is not None:
                print(message("reset.backup", lang, path=os.path.relpath(saved)))
            print(message("reset.done", lang, what=what))
    except NoStub as missing:
        raise UsageError(message("reset.no_stub", lang, kata=missing.kata)) from None
    except ResetError as error:
        raise UsageError(message("reset.refused", lang, error=str(error))) from None
    return 0


def freeze(args, *, started: float) -> int:
    """``grade.py freeze``: record the reference's observations into the answer key (and, with the
    instructor's secret, those of the hidden cases into the encrypted hidden key)."""
    from . import answer_key, hidden

    secret = read_secret(args.secret_file, "freeze")
    if not (ROOT / "reference").is_dir():
        raise UsageError(message("error.no_reference", "en"))
    if secret is None and (ROOT / hidden.HIDDEN_KEY_NAME).exists():
        # A new public key would leave the hidden key behind; official grading would then refuse.
        raise UsageError(f"freeze: {hidden.HIDDEN_KEY_NAME} exists, so freeze needs the secret it was made with: "
                         f"KATA_SECRET=... python grade.py freeze (or delete it to give up hidden cases)")
    katas = load_curriculum()
    try:
        key, size = answer_key.freeze(katas)
        print(f"answer key: {len(key.expected)} functions in {len(katas)} katas, torch {key.torch_version}, "
              f"{size // 1024} KiB -> {answer_key.KEY_PATH.relative_to(ROOT)}")
        if secret:
            cases, functions, size = hidden.freeze_key(secret, resolve([], katas), key.expected)
            print(f"hidden key: {cases} hidden cases of {functions} functions, encrypted, {size // 1024} KiB -> "
                  f"{hidden.HIDDEN_KEY_NAME}")
    except answer_key.FreezeError as failed:
        print("\n".join(failed.lines), file=sys.stderr)
        return 1
    return 0


def release(args, *, started: float) -> int:
    """``grade.py release [OUT_DIR] [--gradescope ZIP] [--classroom50 DIR] [--codio DIR] [--max-hint-level N]``:
    write the student template and the platforms' graders asked for, and check what was written."""
    from .release import ReleaseError, classroom50_release, codio_release, gradescope_release
    from .release import release as write_template

    secret = read_secret(args.secret_file, "release")
    official = " (in official grading too, with the hidden cases)" if secret else ""
    capped = "" if args.max_hint_level is None else f"; hints capped at level {args.max_hint_level}"
    steps = []
    if args.out_dir:
        steps.append((lambda: write_template(Path(args.out_dir), force=args.force, secret=secret,
                                             max_hint_level=args.max_hint_level),
                      f"student template written to {args.out_dir} and checked: stubs score 0, the reference scores "
                      f"full marks{official}{capped}"))
    if args.gradescope:
        steps.append((lambda: gradescope_release(Path(args.gradescope), force=args.force, visibility=args.visibility,
                                                 lang=args.lang, secret=secret),
                      f"Gradescope autograder written to {args.gradescope} and checked: graded as Gradescope would "
                      f"grade it, the reference scores full marks{official}"))
    if args.classroom50:
        steps.append((lambda: classroom50_release(Path(args.classroom50), force=args.force, secret=secret,
                                                  max_hint_level=args.max_hint_level, lang=args.lang),
                      f"Classroom 50 template and autograder written to {args.classroom50}/template and "
                      f"{args.classroom50}/autograder and checked: run as Classroom 50's runner runs it, the "
                      f"reference scores full marks (public cases){capped}"))
    if args.codio:
        steps.append((lambda: codio_release(Path(args.codio), force=args.force, lang=args.lang, secret=secret),
                      f"Codio secure folder written to {args.codio} and checked: run as a Codio code test, the "
                      f"reference scores 100 %{official}"))
    for write, done in steps:
        try:
            problems = write()
        except ReleaseError as error:
            raise UsageError(f"release: {error}") from None
        if problems:
            for problem in problems:
                print(f"release: {problem}", file=sys.stderr)
            return 1
        print(done)
    return 0


def batch(args, *, started: float) -> int:
    """``grade.py batch DIR [--out FILE.csv|FILE.json] [-j N]``: grade every submission folder in DIR."""
    from . import hidden, repository, sandbox
    from .batch import default_jobs, expected_table, run_batch, sandbox_mode
    from .grading import FUNCTION_TIMEOUT

    secret = read_secret(args.secret_file, "batch")
    directory = Path(args.directory)
    if not directory.is_dir():
        raise UsageError(f"batch: {directory} is not a folder")
    if not any(p.is_dir() and not p.name.startswith(".") for p in directory.iterdir()):
        raise UsageError(f"batch: {directory} holds no submission folders")
    if args.at is not None and repository.is_date(args.at):
        try:
            repository.parse_date(args.at)
        except ValueError:
            raise UsageError(f"batch: --at {args.at}: not a date (write 2026-12-01 or 2026-12-01T09:00Z)") from None
    mode = sandbox_mode(args.no_sandbox)
    if mode == sandbox.NONE and not args.no_sandbox:
        raise UsageError(message("batch.no_sandbox", "en"))
    functions = resolve([], load_curriculum())
    source = expectations_for(args.against, "en")
    if source.stale:   # a gradebook must not hold errors that are the key's fault
        raise UsageError(message("error.stale_key", "en"))
    cases = hidden.prepare(secret, False, functions, source)
    if cases.error:
        raise UsageError(f"batch: {message(cases.error, 'en')}")
    cases.attach(source)
    if not cases.official and cases.not_run:
        print(f"batch: {hidden.HIDDEN_KEY_NAME} exists but KATA_SECRET is not set: only the public cases are "
              f"graded ({cases.not_run} hidden cases left out)", file=sys.stderr)
    run_batch(directory, Path(args.out), functions, lambda: expected_table(source, functions),
              jobs=default_jobs() if args.jobs is None else args.jobs,
              function_timeout=FUNCTION_TIMEOUT if args.timeout is None else args.timeout,
              sandboxed=mode == sandbox.BUBBLEWRAP, extras=cases.extras, at=args.at)
    return 0


def check(args, *, started: float) -> int:
    """``grade.py check``: the kata author's proof that every kata is complete and consistent
    (``check.run_checks``); exit status 1 with one line per problem, else OK."""
    from .check import run_checks

    report = run_checks(ROOT, grading=not args.quick)
    if report.problems:
        print(f"check: {len(report.problems)} problems / 发现 {len(report.problems)} 个问题")
        for problem in report.problems:
            print(f"  - {problem}")
        return 1
    print(f"check: OK ({report.summary}) / 检查通过")
    return 0
