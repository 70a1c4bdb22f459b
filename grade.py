#!/usr/bin/env python3
"""Grade the PyTorch pitfall katas.

    python grade.py [SELECTOR ...] [--solutions DIR] [--format FORMAT] [--lang en|zh]
    python grade.py watch [SELECTOR]       re-grade a kata every time its file is saved
    python grade.py hint FUNCTION [--level N]
    python grade.py reset SELECTOR         restore a stub (your file is backed up first)
    python grade.py freeze                 instructor: write the answer key from reference/
    python grade.py release OUT_DIR        instructor: write the student template (no reference/)
    python grade.py release --gradescope autograder.zip    instructor: Gradescope's autograder
    python grade.py batch DIR [--out FILE] instructor: grade every submission folder in DIR

SELECTOR is a kata (k05_devices, k05, devices) or a function (k05_devices.add_bias).
Learner code runs in a child process; this process only reads the results and keeps the score.
"""

from __future__ import annotations

import os
import sys


def _load_harness() -> None:
    """Import ``kata_harness`` from this file's folder, from source only, with that folder off the
    import path: a student's repository may hold an ``argparse.py`` beside grade.py, or a planted
    ``.pyc`` in ``kata_harness/__pycache__``, and neither must run here (``os`` and ``sys`` were loaded
    by the interpreter before this folder was on the path). An installed copy is never used either."""
    import importlib.machinery
    import importlib.util

    root = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != root]
    sys.dont_write_bytecode = True
    package = os.path.join(root, "kata_harness")

    class SourceOnly(importlib.machinery.SourceFileLoader):
        def get_code(self, fullname):
            path = self.get_filename(fullname)
            return compile(self.get_data(path), path, "exec", dont_inherit=True)

    class HarnessFinder:
        def find_spec(self, name, path=None, target=None):
            if name != "kata_harness" and not name.startswith("kata_harness."):
                return None
            base = os.path.join(package, *name.split(".")[1:])
            file, search = (os.path.join(base, "__init__.py"), [base]) if os.path.isdir(base) else (base + ".py", None)
            if not os.path.isfile(file):
                return None
            return importlib.util.spec_from_file_location(name, file, loader=SourceOnly(name, file),
                                                          submodule_search_locations=search)

    sys.meta_path.insert(0, HarnessFinder())


_load_harness()

import argparse  # noqa: E402 (after the project folder left the import path)
import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

STARTED = time.monotonic()

from kata_harness.catalog import ROOT, UnknownSelector, load_curriculum, resolve  # noqa: E402
from kata_harness.text import LANGUAGES, default_language, message, pick  # noqa: E402


def _grading_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="grade.py", description="Grade the PyTorch pitfall katas.")
    parser.add_argument("selectors", nargs="*", metavar="SELECTOR",
                        help="a kata (k05_devices, k05, devices) or a function (k05_devices.add_bias)")
    parser.add_argument("--solutions", default="katas", metavar="DIR",
                        help="folder of solutions to grade (default: katas; 'reference' checks the reference)")
    parser.add_argument("--format", choices=("text", "json", "classroom", "gradescope", "markdown", "workflow"),
                        default="text",
                        help="text for people; json (grade.py's own schema); classroom (GitHub Classroom's "
                             "grading reporter); gradescope (results.json); markdown (a summary, as in GitHub's "
                             "job summary); workflow (the Classroom workflow's one JSON: classroom, text, markdown)")
    parser.add_argument("--visibility", choices=("visible", "after_published", "after_due_date", "hidden"),
                        default="visible", help="gradescope: when students see the results (default visible)")
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help="en or zh (default: KATA_LANG, then locale)")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="time limit per function (default 5)")
    parser.add_argument("--deadline", type=float, default=600.0, metavar="SECONDS",
                        help="a complete result is printed before this many seconds; what is not graded "
                             "by then is an error (default 600)")
    parser.add_argument("--against", choices=("reference", "answer-key"), default=None,
                        help="what to compare with (default: reference/ when present, else the answer key)")
    _secret_option(parser)
    return parser


def _secret_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--secret-file", metavar="PATH", default=None,
                        help="instructor: a file holding the secret for hidden cases (default: the KATA_SECRET "
                             "variable); with it, grading is official")


def _read_secret(path: str | None, command: str):
    """The instructor's secret (``hidden.read_secret``); False (after one clear line) when the
    secret file cannot be read."""
    from kata_harness import hidden

    try:
        return hidden.read_secret(path)
    except OSError as error:
        print(f"{command}: cannot read the secret file: {error}", file=sys.stderr)
        return False


def _hint_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="grade.py hint", description="Show a hint for one function.")
    parser.add_argument("function", help="k01_creation.filled or just filled")
    parser.add_argument("--level", type=int, default=1, help="1: a nudge, 2: the API to use, 3: nearly the answer")
    parser.add_argument("--lang", choices=LANGUAGES, default=None)
    return parser


def _utf8_output() -> None:
    if os.name == "nt":   # colour codes work on legacy Windows consoles once colorama has set them up
        try:
            import colorama
            colorama.just_fix_windows_console()
        except (ImportError, AttributeError):
            pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(encoding="utf-8", errors="replace")
        except (AttributeError, ValueError):
            pass


def _unknown(selector: str, katas, lang: str) -> int:
    names = ", ".join(k.name for k in katas)
    print(message("grade.unknown_selector", lang, selector=selector, katas=names), file=sys.stderr)
    return 2


def _select(selectors: list[str], lang: str):
    """The curriculum and the functions ``selectors`` name; no functions (after one clear line
    on standard error) when a selector names nothing."""
    katas = load_curriculum()
    try:
        return katas, resolve(selectors, katas)
    except UnknownSelector as error:
        _unknown(error.selector, katas, lang)
        return katas, None


def hint(argv: list[str]) -> int:
    """``grade.py hint FUNCTION [--level N]``: one hint, by level."""
    args = _hint_parser().parse_args(argv)
    lang = args.lang or default_language()
    _, functions = _select([args.function], lang)
    if functions is None:
        return 2
    info = functions[0]
    levels = len(info.hints)
    if not 1 <= args.level <= levels:
        print(f"{info.qualified}: {levels} hint levels (1-{levels}) / 共 {levels} 级提示（1-{levels}）", file=sys.stderr)
        return 2
    print(f"{info.qualified} — {pick(info.title, lang)} ({info.section})")
    print(f"{message('hint', lang)} {args.level}/{levels}: {info.hint(args.level, lang)}")
    return 0


def _solutions_dir(name: str) -> Path:
    path = Path(name)
    if path.is_absolute() or (Path.cwd() / path).is_dir():
        return path.resolve()
    return ROOT / path


def _existing_solutions(name: str, lang: str) -> Path | None:
    """The solutions folder, or None (after one clear line) when there is no such folder."""
    solutions = _solutions_dir(name)
    if solutions.is_dir():
        return solutions
    print(message("error.no_file", lang, file=name), file=sys.stderr)
    return None


def _expectations(against, lang: str, *, official: bool = False):
    """The source of expected results, or None (after one clear line) when there is none."""
    from kata_harness.expectations import NoExpectations, choose

    try:
        return choose(against, official=official)
    except NoExpectations as missing:
        print(message(str(missing), lang), file=sys.stderr)
        return None


def grade_command(argv: list[str]) -> int:
    """The default command: grade the selected functions and print the result."""
    from kata_harness import formats, hidden, integrity, official, sandbox, summary
    from kata_harness.channel import Child
    from kata_harness.grading import FUNCTION_TIMEOUT, Grading, grade
    from kata_harness.report import Status, Verdict

    args = _grading_parser().parse_args(argv)
    lang = args.lang or default_language()
    katas, functions = _select(args.selectors, lang)
    if functions is None:
        return 2
    solutions = _existing_solutions(args.solutions, lang)
    if solutions is None:
        return 2
    secret = _read_secret(args.secret_file, "grade.py")
    if secret is False:
        return 2
    expected = _expectations(args.against, lang, official=hidden.is_official(secret, args.format))
    if expected is None:
        return 2
    boxed = sandbox.mode() == sandbox.BUBBLEWRAP

    def spawn() -> Child:
        return Child(sandboxed=boxed, solutions=(solutions,))

    # The children import torch (the slow part) while this process decides the hidden cases (it may
    # decrypt the hidden key) and checks the grading files; a child reads its job once torch is in.
    learner = spawn()
    cases = hidden.prepare(secret, args.format in hidden.OFFICIAL_FORMATS, functions, expected)
    cases.attach(expected)
    if cases.error:   # official grading that cannot happen: 0 points, never a silent practice grade
        learner.stop()
        checked = integrity.check(secret=secret)
        grading = Grading(verdicts={f.qualified: Verdict(Status.ERROR, reason=(cases.error, {})) for f in functions})
    else:
        expected.start(functions)
        checked = integrity.check(secret=secret)
        # Leave a second to stop the children and print, counted from this process's start.
        remaining = args.deadline - (time.monotonic() - STARTED) - 1.0
        try:
            grading = grade(functions, solutions, expected, spawn=spawn, learner=learner, extras=cases.extras,
                            function_timeout=args.timeout or FUNCTION_TIMEOUT, deadline=max(remaining, 0.1))
        finally:
            expected.stop()
    shown = args.solutions.rstrip("/")
    doc = formats.document(katas, functions, grading, lang=lang, solutions=shown, graded_against=expected.name,
                           integrity=checked)
    doc["sandbox"] = sandbox.BUBBLEWRAP if boxed else sandbox.NONE
    doc["official"] = cases.official
    doc["hidden_checks_not_run"] = cases.not_run
    infos = {f.qualified: f for f in functions}
    # A secret problem is named on every test (a wrong secret also fails the manifest's signature).
    tampered = None if checked.ok or cases.error else formats.integrity_text(checked, lang)
    if args.format == "json":
        print(json.dumps(doc, ensure_ascii=False, indent=1))
    elif args.format == "classroom":
        print(json.dumps(official.classroom(doc, infos, grading, solutions=solutions, shown=shown,
                                            tampered=tampered), ensure_ascii=False))
    elif args.format == "gradescope":
        print(json.dumps(official.gradescope(doc, infos, tampered=tampered, visibility=args.visibility,
                                             summary=summary.markdown(doc, katas, lang=lang, warning=tampered,
                                                                      details=False),
                                             wall_time=time.monotonic() - STARTED), ensure_ascii=False, indent=1))
    elif args.format == "markdown":
        print(summary.markdown(doc, katas, lang=lang, warning=tampered))
    elif args.format == "workflow":   # one grading, three views: the reporter's result, the log, the job summary
        print(json.dumps({"classroom": official.classroom(doc, infos, grading, solutions=solutions, shown=shown,
                                                          tampered=tampered),
                          "text": formats.text(doc, katas, grading, lang=lang, solutions=shown, integrity=checked),
                          "markdown": summary.markdown(doc, katas, lang=lang, warning=tampered)}, ensure_ascii=False))
    else:
        print(formats.text(doc, katas, grading, lang=lang, solutions=shown, integrity=checked,
                           colour=formats.use_colour(sys.stdout)))
        if not boxed:
            print(message("sandbox.none", lang))
    return 0


def freeze(argv: list[str]) -> int:
    """``grade.py freeze``: record the reference's observations into the answer key (and, with the
    instructor's secret, those of the hidden cases into the encrypted hidden key)."""
    import torch  # only for its version: the observing happens in the referee child

    from kata_harness import answer_key, hidden
    from kata_harness.grading import observe_reference

    parser = argparse.ArgumentParser(prog="grade.py freeze", description=freeze.__doc__)
    _secret_option(parser)
    args = parser.parse_args(argv)
    secret = _read_secret(args.secret_file, "freeze")
    if secret is False:
        return 2
    if not (ROOT / "reference").is_dir():
        print(message("error.no_reference", "en"), file=sys.stderr)
        return 2
    if secret is None and (ROOT / hidden.HIDDEN_KEY_NAME).exists():
        # A new public key would leave the hidden key behind; official grading would then refuse.
        print(f"freeze: {hidden.HIDDEN_KEY_NAME} exists, so freeze needs the secret it was made with: "
              f"KATA_SECRET=... python grade.py freeze (or delete it to give up hidden cases)", file=sys.stderr)
        return 2
    katas = load_curriculum()
    functions = resolve([], katas)
    observed = observe_reference(functions, ROOT / "reference")
    if not _observed_all(observed):
        return 1
    key = answer_key.AnswerKey(
        torch_version=torch.__version__, reference=answer_key.reference_digest(),
        katas={kata.name: answer_key.kata_digest(kata.name) for kata in katas},
        expected=observed.expected,
        stubs={kata.name: (ROOT / "katas" / f"{kata.name}.py").read_text(encoding="utf-8") for kata in katas},
    )
    size = answer_key.write(key)
    print(f"answer key: {len(key.expected)} functions in {len(katas)} katas, torch {key.torch_version}, "
          f"{size // 1024} KiB -> {answer_key.KEY_PATH.relative_to(ROOT)}")
    return _freeze_hidden(secret, functions, observed.expected) if secret else 0


def _observed_all(observed, key: str = "the answer key") -> bool:
    """True when the referee observed every function (else, after one line per failure, False)."""
    for name, verdict in observed.verdicts.items():
        print(f"{name}: {verdict.reason[1].get('error', verdict.reason[0])}", file=sys.stderr)
    if observed.verdicts:
        print(f"freeze: the reference could not be observed; {key} was not written", file=sys.stderr)
    return not observed.verdicts


def _freeze_hidden(secret: str, functions, public: dict) -> int:
    """Observe the reference on the hidden cases the secret gives and write the encrypted hidden key."""
    from kata_harness import hidden
    from kata_harness.grading import observe_reference

    extras = {name: hidden.extras_for(event["plan"], secret, name) for name, event in public.items()}
    extras = {name: pairs for name, pairs in extras.items() if pairs}
    observed = observe_reference([f for f in functions if f.qualified in extras], ROOT / "reference", extras)
    if not _observed_all(observed, "the hidden key"):
        return 1
    # The public cases come first, as in grading; the key keeps what follows them.
    hidden_observations = {name: {device: cases[public[name]["plan"]["public"]:]
                                  for device, cases in observed.expected[name]["observations"].items()}
                           for name in extras}
    failing = sorted(name for name, devices in hidden_observations.items()
                     if any("raised" in case for cases in devices.values() for case in cases))
    if failing:   # a hidden case the reference fails on would cost every student its points
        print(f"freeze: the reference raises on hidden cases of {', '.join(failing)}; the hidden key was not written",
              file=sys.stderr)
        return 1
    size = hidden.write_key(secret, extras, hidden_observations)
    print(f"hidden key: {sum(map(len, extras.values()))} hidden cases of {len(extras)} functions, encrypted, "
          f"{size // 1024} KiB -> {hidden.HIDDEN_KEY_NAME}")
    return 0


def release(argv: list[str]) -> int:
    """``grade.py release [OUT_DIR] [--gradescope ZIP]``: write the student template, Gradescope's
    autograder, or both, and check what was written."""
    from kata_harness.official import VISIBILITIES
    from kata_harness.release import ReleaseError, gradescope_release
    from kata_harness.release import release as write_template

    parser = argparse.ArgumentParser(prog="grade.py release", description=release.__doc__)
    parser.add_argument("out_dir", metavar="OUT_DIR", nargs="?", help="the student template (without reference/)")
    parser.add_argument("--force", action="store_true", help="replace the contents of a non-empty OUT_DIR, or ZIP")
    parser.add_argument("--gradescope", metavar="ZIP",
                        help="write Gradescope's autograder zip (it holds reference/: upload it, never share it)")
    parser.add_argument("--visibility", choices=VISIBILITIES, default="visible",
                        help="Gradescope: when students see their results (default visible)")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="Gradescope: the language of the feedback")
    _secret_option(parser)
    args = parser.parse_args(argv)
    if not args.out_dir and not args.gradescope:
        parser.error("give OUT_DIR, --gradescope ZIP, or both")
    secret = _read_secret(args.secret_file, "release")
    if secret is False:
        return 2
    try:
        problems = write_template(Path(args.out_dir), force=args.force, secret=secret) if args.out_dir else []
        if args.gradescope and not problems:
            problems = gradescope_release(Path(args.gradescope), force=args.force, visibility=args.visibility,
                                          lang=args.lang, secret=secret)
    except ReleaseError as error:
        print(f"release: {error}", file=sys.stderr)
        return 2
    if problems:
        for problem in problems:
            print(f"release: {problem}", file=sys.stderr)
        return 1
    official = " (in official grading too, with the hidden cases)" if secret else ""
    if args.out_dir:
        print(f"student template written to {args.out_dir} and checked: stubs score 0, the reference scores full "
              f"marks{official}")
    if args.gradescope:
        print(f"Gradescope autograder written to {args.gradescope} and checked: graded as Gradescope would grade "
              f"it, the reference scores full marks{official}")
    return 0


def reset(argv: list[str]) -> int:
    """``grade.py reset SELECTOR``: restore the stub of a function or a whole kata (after a backup)."""
    from kata_harness import answer_key
    from kata_harness.reset import ResetError, backup, restore_functions

    parser = argparse.ArgumentParser(prog="grade.py reset", description=reset.__doc__)
    parser.add_argument("selector", help="a kata (k01, creation, k01_creation) or a function (k01_creation.filled)")
    parser.add_argument("--solutions", default="katas", metavar="DIR")
    parser.add_argument("--lang", choices=LANGUAGES, default=None)
    args = parser.parse_args(argv)
    lang = args.lang or default_language()
    katas, functions = _select([args.selector], lang)
    if functions is None:
        return 2
    key = answer_key.load()
    stubs = key.stubs if key else {}
    whole_kata = "." not in args.selector and any(args.selector in (k.name, k.number, k.topic) for k in katas)
    solutions = _solutions_dir(args.solutions)
    for kata in dict.fromkeys(f.kata for f in functions):
        if kata not in stubs:
            print(message("reset.no_stub", lang, kata=kata), file=sys.stderr)
            return 2
        path = solutions / f"{kata}.py"
        names = [f.name for f in functions if f.kata == kata]
        try:
            current = path.read_text(encoding="utf-8") if path.exists() else None
            restored = stubs[kata] if whole_kata or current is None else \
                restore_functions(current, stubs[kata], names, str(path))
        except ResetError as error:
            print(message("reset.refused", lang, error=str(error)), file=sys.stderr)
            return 2
        if current is not None:
            print(message("reset.backup", lang, path=os.path.relpath(backup(path))))
        path.write_text(restored, encoding="utf-8")
        what = kata if whole_kata else ", ".join(f"{kata}.{n}" for n in names)
        print(message("reset.done", lang, what=what))
    return 0


def watch(argv: list[str]) -> int:
    """``grade.py watch [SELECTOR]``: re-grade a kata every time its file is saved."""
    from kata_harness import formats, integrity, sandbox
    from kata_harness.watch import Watcher
    from kata_harness.watch import watch as run_watch

    parser = argparse.ArgumentParser(prog="grade.py watch", description=watch.__doc__)
    parser.add_argument("selectors", nargs="*", metavar="SELECTOR")
    parser.add_argument("--solutions", default="katas", metavar="DIR")
    parser.add_argument("--lang", choices=LANGUAGES, default=None)
    parser.add_argument("--interval", type=float, default=1.0, metavar="SECONDS",
                        help="how often files are also polled (file events may not arrive on network drives, WSL)")
    parser.add_argument("--poll", action="store_true", help="poll only, without file events")
    parser.add_argument("--against", choices=("reference", "answer-key"), default=None)
    args = parser.parse_args(argv)
    lang = args.lang or default_language()
    katas, functions = _select(args.selectors, lang)
    if functions is None:
        return 2
    solutions = _existing_solutions(args.solutions, lang)
    if solutions is None:
        return 2
    expected = _expectations(args.against, lang)
    if expected is None:
        return 2
    watcher = Watcher(katas, functions, solutions, lang=lang, shown=args.solutions.rstrip("/"), expected=expected,
                      integrity=integrity.check(), colour=formats.use_colour(sys.stdout),
                      sandboxed=sandbox.mode() == sandbox.BUBBLEWRAP)
    return run_watch(watcher, interval=args.interval, use_events=not args.poll)


def batch(argv: list[str]) -> int:
    """``grade.py batch DIR [--out FILE.csv|FILE.json] [-j N]``: grade every submission folder in DIR."""
    from kata_harness import hidden, sandbox
    from kata_harness.batch import default_jobs, run_batch, sandbox_mode
    from kata_harness.grading import FUNCTION_TIMEOUT

    parser = argparse.ArgumentParser(prog="grade.py batch", description=batch.__doc__)
    parser.add_argument("directory", metavar="DIR", help="one subfolder per submission (a repository or its katas/)")
    parser.add_argument("--out", default="gradebook.csv", metavar="FILE",
                        help="the gradebook: .csv (default gradebook.csv) or .json")
    parser.add_argument("-j", "--jobs", type=int, default=default_jobs(), metavar="N",
                        help="parallel workers (default: the number of CPUs)")
    parser.add_argument("--timeout", type=float, default=FUNCTION_TIMEOUT, metavar="SECONDS")
    parser.add_argument("--against", choices=("reference", "answer-key"), default=None)
    parser.add_argument("--no-sandbox", action="store_true",
                        help="grade without bubblewrap (submissions can then reach this machine's files)")
    _secret_option(parser)
    args = parser.parse_args(argv)
    secret = _read_secret(args.secret_file, "batch")
    if secret is False:
        return 2
    directory = Path(args.directory)
    if not directory.is_dir():
        print(f"batch: {directory} is not a folder", file=sys.stderr)
        return 2
    if not any(p.is_dir() and not p.name.startswith(".") for p in directory.iterdir()):
        print(f"batch: {directory} holds no submission folders", file=sys.stderr)
        return 2
    mode = sandbox_mode(args.no_sandbox)
    if mode == sandbox.NONE and not args.no_sandbox:
        print(message("batch.no_sandbox", "en"), file=sys.stderr)
        return 2
    functions = resolve([], load_curriculum())
    source = _expectations(args.against, "en")
    if source is None:
        return 2
    if getattr(source, "stale", None):
        print(message("error.stale_key", "en"), file=sys.stderr)
        return 2
    cases = hidden.prepare(secret, False, functions, source)
    if cases.error:
        print(f"batch: {message(cases.error, 'en')}", file=sys.stderr)
        return 2
    cases.attach(source)
    if not cases.official and cases.not_run:
        print(f"batch: {hidden.HIDDEN_KEY_NAME} exists but KATA_SECRET is not set: only the public cases are "
              f"graded ({cases.not_run} hidden cases left out)", file=sys.stderr)

    def expected() -> dict:
        table = {}
        for info, outcome in source.collect(list(functions), float("inf")):
            if isinstance(outcome, dict):
                table[info.qualified] = outcome
            else:   # those functions are graded as errors
                print(f"batch: no expected result for {info.qualified}", file=sys.stderr)
        return table

    run_batch(directory, Path(args.out), functions, expected, jobs=args.jobs, function_timeout=args.timeout,
              sandboxed=mode == sandbox.BUBBLEWRAP, extras=cases.extras)
    return 0


def _torch_missing() -> bool:
    """True (after one clear line) when this interpreter cannot import torch: the learner's
    virtual environment is probably not active."""
    import importlib.util

    if importlib.util.find_spec("torch") is not None:
        return False
    print(message("error.no_torch", default_language(), python=sys.executable), file=sys.stderr)
    return True


def _end_on_signal() -> None:
    """SIGTERM (a CI timeout, `kill`) ends grade.py like Ctrl-C: every child is stopped first."""
    import signal

    def stop(signum, frame):
        raise SystemExit(128 + signum)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)


def main(argv: list[str]) -> int:
    """Dispatch to a subcommand, or grade."""
    from kata_harness import channel, processes

    _utf8_output()
    commands = {"hint": hint, "freeze": freeze, "release": release, "reset": reset, "watch": watch, "batch": batch}
    command = commands.get(argv[0]) if argv else None
    if command in (hint, reset):
        return command(argv[1:])
    if "-h" not in argv and "--help" not in argv and _torch_missing():
        return 3
    _end_on_signal()
    processes.become_subreaper()   # orphans of learner code come back here, and are killed below
    processes.hide_from_same_user()   # learner code cannot read this process's memory or environment
    try:
        return command(argv[1:]) if command else grade_command(argv)
    finally:
        channel.stop_all()
        processes.kill_orphans()


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:   # `python grade.py | head`: the reader left; that is fine
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
