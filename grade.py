#!/usr/bin/env python3
"""Grade the PyTorch pitfall katas.

    python grade.py [SELECTOR ...] [--solutions DIR] [--format text|json|classroom|gradescope] [--lang en|zh]
    python grade.py watch [SELECTOR]       re-grade a kata every time its file is saved
    python grade.py hint FUNCTION [--level N]
    python grade.py reset SELECTOR         restore a stub (your file is backed up first)
    python grade.py freeze                 instructor: write the answer key from reference/
    python grade.py release OUT_DIR        instructor: write the student template (no reference/)
    python grade.py batch DIR [--out FILE] instructor: grade every submission folder in DIR

SELECTOR is a kata (k03_devices, k03, devices) or a function (k03_devices.add_bias).
Learner code runs in a child process; this process only reads the results and keeps the score.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

STARTED = time.monotonic()

from kata_harness.catalog import ROOT, UnknownSelector, load_curriculum, resolve  # noqa: E402 (after the clock starts)
from kata_harness.text import LANGUAGES, default_language, message, pick  # noqa: E402


def _grading_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="grade.py", description="Grade the PyTorch pitfall katas.")
    parser.add_argument("selectors", nargs="*", metavar="SELECTOR",
                        help="a kata (k03_devices, k03, devices) or a function (k03_devices.add_bias)")
    parser.add_argument("--solutions", default="katas", metavar="DIR",
                        help="folder of solutions to grade (default: katas; 'reference' checks the reference)")
    parser.add_argument("--format", choices=("text", "json", "classroom", "gradescope"), default="text",
                        help="text for people; json (grade.py's own schema); classroom (GitHub Classroom's "
                             "grading reporter); gradescope (results.json)")
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help="en or zh (default: KATA_LANG, then locale)")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="time limit per function (default 5)")
    parser.add_argument("--deadline", type=float, default=600.0, metavar="SECONDS",
                        help="a complete result is printed before this many seconds; what is not graded "
                             "by then is an error (default 600)")
    parser.add_argument("--against", choices=("reference", "answer-key"), default=None,
                        help="what to compare with (default: reference/ when present, else the answer key)")
    return parser


def _hint_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="grade.py hint", description="Show a hint for one function.")
    parser.add_argument("function", help="k01_creation.filled or just filled")
    parser.add_argument("--level", type=int, default=1, help="1: a nudge, 2: the API to use, 3: nearly the answer")
    parser.add_argument("--lang", choices=LANGUAGES, default=None)
    return parser


def _utf8_output() -> None:
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


def grade_command(argv: list[str]) -> int:
    """The default command: grade the selected functions and print the result."""
    from kata_harness import answer_key, formats, integrity, official
    from kata_harness.grading import FUNCTION_TIMEOUT, Child, grade

    args = _grading_parser().parse_args(argv)
    reference = ROOT / "reference"
    against = args.against or ("reference" if reference.is_dir() else "answer-key")
    # Start the children (they import torch, the slow part) while this process reads the curriculum.
    learner = Child()
    referee = Child() if against == "reference" else None
    try:
        lang = args.lang or default_language()
        katas, functions = _select(args.selectors, lang)
        if functions is None:
            return 2
        solutions = _existing_solutions(args.solutions, lang)
        if solutions is None:
            return 2
        key = None
        if against == "answer-key":
            key = answer_key.load()
            if key is None:
                print(message("error.no_key", lang), file=sys.stderr)
                return 2
        # Leave a second to stop the children and print, counted from this process's start.
        remaining = args.deadline - (time.monotonic() - STARTED) - 1.0
        grading = grade(functions, solutions, reference=reference, key=key, learner=learner, referee=referee,
                        function_timeout=args.timeout or FUNCTION_TIMEOUT, deadline=max(remaining, 0.1))
    finally:
        learner.stop()
        if referee:
            referee.stop()
    shown = args.solutions.rstrip("/")
    checked = integrity.check()
    doc = formats.document(katas, functions, grading, lang=lang, solutions=shown, graded_against=against,
                           integrity=checked)
    infos = {f.qualified: f for f in functions}
    tampered = None if checked.ok else formats.integrity_text(checked, lang)
    if args.format == "json":
        print(json.dumps(doc, ensure_ascii=False, indent=1))
    elif args.format == "classroom":
        print(json.dumps(official.classroom(doc, infos, grading, solutions=solutions, shown=shown,
                                            tampered=tampered), ensure_ascii=False))
    elif args.format == "gradescope":
        print(json.dumps(official.gradescope(doc, infos, grading, tampered=tampered), ensure_ascii=False, indent=1))
    else:
        print(formats.text(doc, katas, grading, lang=lang, solutions=shown, integrity=checked,
                           colour=formats.use_colour(sys.stdout)))
    return 0


def freeze(argv: list[str]) -> int:
    """``grade.py freeze``: record the reference's observations into the answer key."""
    import torch  # only for its version: the observing happens in the referee child

    from kata_harness import answer_key
    from kata_harness.grading import observe_reference

    argparse.ArgumentParser(prog="grade.py freeze", description=freeze.__doc__).parse_args(argv)
    katas = load_curriculum()
    functions = resolve([], katas)
    observed = observe_reference(functions, ROOT / "reference")
    if observed.verdicts:
        for name, verdict in observed.verdicts.items():
            print(f"{name}: {verdict.reason[1].get('error', verdict.reason[0])}", file=sys.stderr)
        print("freeze: the reference could not be observed; the answer key was not written", file=sys.stderr)
        return 1
    key = answer_key.AnswerKey(
        torch_version=torch.__version__, reference=answer_key.reference_digest(),
        katas={kata.name: answer_key.kata_digest(kata.name) for kata in katas},
        expected={name: {k: v for k, v in event.items() if k not in ("event", "_at")}
                  for name, event in observed.expected.items()},
        stubs={kata.name: (ROOT / "katas" / f"{kata.name}.py").read_text(encoding="utf-8") for kata in katas},
    )
    size = answer_key.write(key)
    print(f"answer key: {len(key.expected)} functions in {len(katas)} katas, torch {key.torch_version}, "
          f"{size // 1024} KiB -> {answer_key.KEY_PATH.relative_to(ROOT)}")
    return 0


def release(argv: list[str]) -> int:
    """``grade.py release OUT_DIR [--force]``: write the student template and check it."""
    from kata_harness.release import ReleaseError
    from kata_harness.release import release as write_template

    parser = argparse.ArgumentParser(prog="grade.py release", description=release.__doc__)
    parser.add_argument("out_dir", metavar="OUT_DIR")
    parser.add_argument("--force", action="store_true", help="replace the contents of a non-empty OUT_DIR")
    args = parser.parse_args(argv)
    out = Path(args.out_dir)
    try:
        problems = write_template(out, force=args.force)
    except ReleaseError as error:
        print(f"release: {error}", file=sys.stderr)
        return 2
    if problems:
        for problem in problems:
            print(f"release: {problem}", file=sys.stderr)
        return 1
    print(f"student template written to {out} and checked: stubs score 0, the reference scores full marks")
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
    from kata_harness import answer_key, formats, integrity
    from kata_harness.watch import Watcher
    from kata_harness.watch import watch as run_watch

    parser = argparse.ArgumentParser(prog="grade.py watch", description=watch.__doc__)
    parser.add_argument("selectors", nargs="*", metavar="SELECTOR")
    parser.add_argument("--solutions", default="katas", metavar="DIR")
    parser.add_argument("--lang", choices=LANGUAGES, default=None)
    parser.add_argument("--interval", type=float, default=1.0, metavar="SECONDS",
                        help="how often files are also polled (file events may not arrive on network drives, WSL)")
    parser.add_argument("--poll", action="store_true", help="poll only, without file events")
    args = parser.parse_args(argv)
    lang = args.lang or default_language()
    katas, functions = _select(args.selectors, lang)
    if functions is None:
        return 2
    solutions = _existing_solutions(args.solutions, lang)
    if solutions is None:
        return 2
    reference = ROOT / "reference"
    key = None if reference.is_dir() else answer_key.load()
    if not reference.is_dir() and key is None:
        print(message("error.no_key", lang), file=sys.stderr)
        return 2
    watcher = Watcher(katas, functions, solutions, lang=lang, shown=args.solutions.rstrip("/"), reference=reference,
                      key=key, integrity=integrity.check(), colour=formats.use_colour(sys.stdout))
    return run_watch(watcher, interval=args.interval, use_inotify=not args.poll)


def batch(argv: list[str]) -> int:
    """``grade.py batch DIR [--out FILE.csv|FILE.json] [-j N]``: grade every submission folder in DIR."""
    from kata_harness import answer_key
    from kata_harness.batch import default_jobs, run_batch
    from kata_harness.grading import FUNCTION_TIMEOUT, observe_reference

    parser = argparse.ArgumentParser(prog="grade.py batch", description=batch.__doc__)
    parser.add_argument("directory", metavar="DIR", help="one subfolder per submission (a repository or its katas/)")
    parser.add_argument("--out", default="gradebook.csv", metavar="FILE",
                        help="the gradebook: .csv (default gradebook.csv) or .json")
    parser.add_argument("-j", "--jobs", type=int, default=default_jobs(), metavar="N",
                        help="parallel workers (default: the number of CPUs)")
    parser.add_argument("--timeout", type=float, default=FUNCTION_TIMEOUT, metavar="SECONDS")
    args = parser.parse_args(argv)
    directory = Path(args.directory)
    if not directory.is_dir():
        print(f"batch: {directory} is not a folder", file=sys.stderr)
        return 2
    if not any(p.is_dir() and not p.name.startswith(".") for p in directory.iterdir()):
        print(f"batch: {directory} holds no submission folders", file=sys.stderr)
        return 2
    functions = resolve([], load_curriculum())
    reference = ROOT / "reference"
    key = None if reference.is_dir() else answer_key.load()
    if not reference.is_dir() and (key is None or key.stale_katas()):
        print(message("error.no_key", "en"), file=sys.stderr)
        return 2

    def expected() -> dict:
        if key is not None:
            return key.expected
        observed = observe_reference(functions, reference)
        for name, verdict in observed.verdicts.items():   # those functions are graded as errors
            print(f"batch: the reference could not be observed for {name}", file=sys.stderr)
        return observed.expected

    run_batch(directory, Path(args.out), functions, expected, jobs=args.jobs, function_timeout=args.timeout)
    return 0


def main(argv: list[str]) -> int:
    """Dispatch to a subcommand, or grade."""
    _utf8_output()
    commands = {"hint": hint, "freeze": freeze, "release": release, "reset": reset, "watch": watch, "batch": batch}
    if argv and argv[0] in commands:
        return commands[argv[0]](argv[1:])
    return grade_command(argv)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:   # `python grade.py | head`: the reader left; that is fine
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
