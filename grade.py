#!/usr/bin/env python3
"""Grade the PyTorch pitfall katas.

    python grade.py [SELECTOR ...] [--solutions DIR] [--format text|json] [--lang en|zh]
    python grade.py hint FUNCTION [--level N]

SELECTOR is a kata (k03_devices, k03, devices) or a function (k03_devices.add_bias).
Learner code runs in a child process; this process only reads the results and keeps the score.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from harness.catalog import ROOT, UnknownSelector, load_curriculum, resolve
from harness.text import LANGUAGES, default_language, message, pick


def _grading_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="grade.py", description="Grade the PyTorch pitfall katas.")
    parser.add_argument("selectors", nargs="*", metavar="SELECTOR",
                        help="a kata (k03_devices, k03, devices) or a function (k03_devices.add_bias)")
    parser.add_argument("--solutions", default="katas", metavar="DIR",
                        help="folder of solutions to grade (default: katas; 'reference' checks the reference)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help="en or zh (default: KATA_LANG, then locale)")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="time limit per function (default 5)")
    parser.add_argument("--deadline", type=float, default=600.0, metavar="SECONDS",
                        help="bound for the whole run; what is not graded by then is an error (default 600)")
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


def hint(argv: list[str]) -> int:
    """``grade.py hint FUNCTION [--level N]``: one hint, by level."""
    args = _hint_parser().parse_args(argv)
    lang = args.lang or default_language()
    katas = load_curriculum()
    try:
        functions = resolve([args.function], katas)
    except UnknownSelector as error:
        return _unknown(error.selector, katas, lang)
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


def grade_command(argv: list[str]) -> int:
    """The default command: grade the selected functions and print the result."""
    from harness.grading import FUNCTION_TIMEOUT, Child, grade
    from harness import formats

    args = _grading_parser().parse_args(argv)
    # Start both children (they import torch, the slow part) while this process reads the curriculum.
    learner, referee = Child(), Child()
    try:
        lang = args.lang or default_language()
        katas = load_curriculum()
        try:
            functions = resolve(args.selectors, katas)
        except UnknownSelector as error:
            return _unknown(error.selector, katas, lang)
        solutions = _solutions_dir(args.solutions)
        if not solutions.is_dir():
            print(message("error.no_file", lang, file=args.solutions), file=sys.stderr)
            return 2
        reference = ROOT / "reference"
        grading = grade(functions, solutions, reference, learner=learner, referee=referee,
                        function_timeout=args.timeout or FUNCTION_TIMEOUT, deadline=args.deadline)
    finally:
        learner.stop()
        referee.stop()
    shown = args.solutions.rstrip("/")
    doc = formats.document(katas, functions, grading, lang=lang, solutions=shown)
    if args.format == "json":
        print(json.dumps(doc, ensure_ascii=False, indent=1))
    else:
        print(formats.text(doc, katas, grading, lang=lang, solutions=shown))
    return 0


def main(argv: list[str]) -> int:
    _utf8_output()
    if argv and argv[0] == "hint":
        return hint(argv[1:])
    return grade_command(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
