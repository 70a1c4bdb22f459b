"""grade.py's command line: its subcommands, their options, and the one usage error.

grade.py keeps only its bootstrap (loading this package safely, the torch check, signals, the
process reaper); everything a user types is defined here. Each subcommand is an argparse
subparser; the options several of them share (``--lang``, ``--solutions``, ``--format``,
``--against``, ``--secret-file``, ...) come from one parent parser each, so that they read and
behave the same everywhere. Grading is the default subcommand: ``python grade.py``,
``python grade.py k01`` and ``python grade.py --format json`` grade, as ``python grade.py grade
...`` does. A word that names a subcommand is that subcommand when it comes first; a kata or a
function of the same name is still reachable as ``kNN_kata.function``.

Every refusal (a bad option, an unknown kata, a folder that is not there) is a ``UsageError``,
raised wherever it is found and printed once, by grade.py, with exit status 2.

Each subcommand is one module of this package (``grade``, ``watch``, ``hint``, ``reset``, ``freeze``,
``release``, ``batch``, ``report``, ``export``, ``merge``, ``check``) with a ``run(args, *, started)``;
it checks its options and hands the work to the room that does it (``batch.engine``,
``platforms.student``, ``platforms.gradescope``, ``api``, ...);
``Command.run`` imports only the one asked for, so ``hint``, ``reset``, ``report``, ``export`` and
``merge`` answer without loading anything that starts a child or torch.
"""

from __future__ import annotations

import argparse
import importlib  # only the subcommand asked for: hint and reset must not load the heavy ones
import os
import sys
from dataclasses import dataclass
from typing import Any

from ..content.messages import LANGUAGES, default_language, message
from ..isolation.processes import RUN_AS_VARIABLE, check_learner_user
from ..isolation.sandbox import available
from ..layout import ROOT
from ..usage import UsageError

AGAINST = ("reference", "answer-key")
FORMATS = ("text", "json", "classroom", "gradescope", "markdown", "workflow")
VISIBILITIES = ("visible", "after_published", "after_due_date", "hidden")   # Gradescope's own words
# Subcommands that need neither torch nor a child process: they answer at once, even where the
# learner's environment is not active.
LIGHT = ("hint", "reset", "report", "export", "merge")
GRADING = ("grade", "watch", "check", "batch")   # the subcommands that start learner lanes and referees
__all__ = ["UsageError", "Command", "parse", "build_parser", "utf8_output"]
class Parser(argparse.ArgumentParser):
    """argparse, except that an error is raised as a ``UsageError`` instead of printed here and
    exiting: grade.py prints it once, after stopping whatever had started."""

    subcommands: dict[str, argparse.ArgumentParser]   # name -> its parser (set by build_parser)

    def error(self, message: str):
        """Raise the usage line and ``message`` as one ``UsageError``."""
        raise UsageError(f"{self.format_usage().rstrip()}\n{self.prog}: error: {message}")
def _parent(*adders) -> Parser:
    """A parent parser holding the options ``adders`` add (one shared definition per option)."""
    parent = Parser(add_help=False)
    for add in adders:
        add(parent)
    return parent
def _lang(parser) -> None:
    parser.add_argument("--lang", choices=LANGUAGES, default=None,
                        help="language of the messages: en or zh (default: KATA_LANG, then the locale)")
def _solutions(parser) -> None:
    parser.add_argument("--solutions", default="katas", metavar="DIR",
                        help="folder of solutions to grade (default: katas; 'reference' checks the reference)")
def _against(parser) -> None:
    parser.add_argument("--against", choices=AGAINST, default=None,
                        help="what to compare with (default: reference/ when present, else the answer key)")
def _secret(parser) -> None:
    parser.add_argument("--secret-file", metavar="PATH", default=None,
                        help="instructor: a file holding the secret for hidden cases (default: the KATA_SECRET "
                             "variable); with it, grading is official")
def _timeout(parser) -> None:
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="time limit per function (default 5)")
def _format(parser) -> None:
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text for people; json (grade.py's own schema); classroom (the autograding "
                             "reporter's format, practice); gradescope (results.json, official); markdown (a summary, "
                             "as in GitHub's job summary); workflow (the practice workflow's one JSON: classroom, "
                             "text, markdown)")
def _visibility(parser) -> None:
    parser.add_argument("--visibility", choices=VISIBILITIES, default="visible",
                        help="Gradescope: when students see their results (default visible)")
def _positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not 1 or more")
    return value
def _not_negative(text: str) -> int:
    """An argparse type: a whole number of at least 0."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is below 0")
    return value
SELECTOR_HELP = "a lesson (lesson2, autograd), a kata (k05_devices, k05, devices) or a function (k05_devices.add_bias, add_bias)"
def build_parser() -> Parser:
    """The whole command line: one subparser per subcommand, sharing the parent parsers."""
    lang, solutions, against = _parent(_lang), _parent(_solutions), _parent(_against)
    secret, timeout, formats, visibility = _parent(_secret), _parent(_timeout), _parent(_format), _parent(_visibility)
    parser = Parser(prog="grade.py", formatter_class=argparse.RawDescriptionHelpFormatter,
                    description="Grade the PyTorch pitfall katas. With no COMMAND, grade: "
                                "python grade.py [SELECTOR ...] [options].",
                    epilog="SELECTOR is " + SELECTOR_HELP + ".\n"
                           "`python grade.py COMMAND --help` shows the options of one command.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")

    grade = commands.add_parser("grade", parents=[solutions, formats, visibility, lang, timeout, against, secret],
                                prog="grade.py [grade]", help="grade the selected katas (the default command)",
                                description="Grade the selected katas and print the result.")
    grade.add_argument("selectors", nargs="*", metavar="SELECTOR", help=SELECTOR_HELP)
    grade.add_argument("--deadline", type=float, default=600.0, metavar="SECONDS",
                       help="a complete result is printed before this many seconds; what is not graded "
                            "by then is an error (default 600)")

    watch = commands.add_parser("watch", parents=[solutions, lang, against], help="re-grade a kata on every save",
                                description="Re-grade a kata every time its file is saved.")
    watch.add_argument("selectors", nargs="*", metavar="SELECTOR", help=SELECTOR_HELP)
    watch.add_argument("--interval", type=float, default=None, metavar="SECONDS",
                       help="how often files are also polled (default 0.05: a save is seen within that, also "
                            "where file events do not arrive: network drives, WSL)")
    watch.add_argument("--poll", action="store_true", help="poll only, without file events")

    hint = commands.add_parser("hint", parents=[lang], help="show a hint for one function, by level",
                               description="Show a hint for one function.")
    hint.add_argument("function", help="k01_creation.filled or just filled")
    hint.add_argument("--level", type=_positive, default=1,
                      help="1: a nudge, 2: the API to use, 3: nearly the answer")

    reset = commands.add_parser("reset", parents=[lang],
                                help="restore a stub in katas/ (your file is backed up first)",
                                description="Restore the stub of a function or a whole kata in katas/ (after a "
                                            "backup, with the command that copies it back).")
    reset.add_argument("selector", help="a kata (k01, creation, k01_creation) or a function (k01_creation.filled)")
    reset.add_argument("--solutions", default=None, help=argparse.SUPPRESS)   # refused: reset writes katas/ only

    commands.add_parser("freeze", parents=[secret], help="instructor: write the answer key from reference/",
                        description="Record the reference's observations into the answer key (and, with the "
                                    "instructor's secret, those of the hidden cases into the encrypted hidden key).")

    release = commands.add_parser("release", parents=[visibility, secret],
                                  help="instructor: write the student template and/or a platform's grader",
                                  description="Write the student template, Gradescope's autograder, Classroom 50's "
                                              "template and autograder, Codio's secure folder, or several of them, "
                                              "and check what was written.")
    release.add_argument("out_dir", metavar="OUT_DIR", nargs="?", help="the student template (without reference/)")
    release.add_argument("--force", action="store_true", help="replace what is already at a target")
    release.add_argument("--gradescope", metavar="ZIP",
                         help="write Gradescope's autograder zip (it holds reference/: upload it, never share it)")
    release.add_argument("--classroom50", metavar="DIR",
                         help="write Classroom 50's DIR/template (the assignment's template repository) and "
                              "DIR/autograder (for CLASSROOM/autograders/ASSIGNMENT/: public cases, no reference)")
    release.add_argument("--codio", metavar="DIR",
                         help="write the content of a Codio assignment's .guides/secure/ folder (it holds "
                              "reference/ and the secret: never share it)")
    release.add_argument("--lang", choices=LANGUAGES, default="en",
                         help="Gradescope, Classroom 50, Codio: the language of the feedback")
    release.add_argument("--max-hint-level", type=_not_negative, default=None, metavar="N",
                         help="the template's curriculum keeps hint levels 1 to N only (0: no hints)")

    batch = commands.add_parser("batch", parents=[timeout, against, secret, lang],
                                help="instructor: grade every submission folder in DIR",
                                description="Grade every submission folder in DIR into one gradebook.")
    batch.add_argument("directory", metavar="DIR", help="one subfolder per submission (a repository or its katas/)")
    batch.add_argument("--out", default="gradebook.csv", metavar="FILE",
                       help="the gradebook: .csv (default gradebook.csv) or .json")
    batch.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                       help="parallel workers (default: the number of CPUs)")
    batch.add_argument("--no-sandbox", action="store_true",
                       help="grade without bubblewrap (submissions can then reach this machine's files)")
    batch.add_argument("--at", metavar="TAG|DATE", default=None,
                       help="with --record: the deadline (a date: each student's last submission the record lists "
                            "by then) or a tag (graded only if the record names its commit); without one, a tag (or the "
                            "last tag matching a pattern such as 'submit/*') or the last commit on the default branch "
                            "before a date (2026-12-01T09:00Z): tags and commit dates are the student's to set")
    batch.add_argument("--report", metavar="FILE.html", default=None,
                       help="also write the class report: which pitfalls the class fell into, one page to open in a "
                            "browser (in --lang); `grade.py report` draws it again from a JSON gradebook")
    _term_options(batch)

    report = commands.add_parser("report", parents=[lang], help="instructor: the class report of a JSON gradebook",
                                 description="Draw the class report (scores, each function's standing, the pitfalls "
                                             "the class fell into, what to teach next) from a JSON gradebook of "
                                             "grade.py batch, as one self-contained HTML page.")
    report.add_argument("gradebook", metavar="GRADEBOOK.json", help="a gradebook written by grade.py batch --out FILE.json")
    report.add_argument("--out", default="class-report.html", metavar="FILE.html",
                        help="the page to write (default class-report.html)")

    export = commands.add_parser("export", help="instructor: a JSON gradebook's scores for Canvas or Moodle",
                                 description="Write a JSON gradebook's scores as a learning platform imports them: "
                                             "your own Canvas gradebook export with one assignment column filled "
                                             "(--canvas, --column), or Moodle's email,grade rows (--moodle).")
    export.add_argument("gradebook", metavar="GRADEBOOK.json", help="a gradebook written by grade.py batch --out FILE.json")
    export.add_argument("--canvas", metavar="CANVAS_EXPORT.csv", default=None,
                        help="your Canvas gradebook export (Grades -> Export -> Export Entire Gradebook)")
    export.add_argument("--column", metavar="NAME", default=None,
                        help="with --canvas: the assignment column to fill (found as NAME or NAME (id); added if absent)")
    export.add_argument("--moodle", action="store_true", help="write email,grade (or idnumber,grade) for Moodle's CSV import")
    export.add_argument("--out", required=True, metavar="FILE.csv", help="the file to write")

    merge = commands.add_parser("merge", parents=[lang], help="instructor: one gradebook from the shards of a class",
                                description="Merge the JSON gradebooks of `grade.py batch --shard K/N` into the "
                                            "gradebook one unsharded run writes (and, if asked, its report and feedback).")
    merge.add_argument("shards", metavar="SHARD.json", nargs="+", help="the shards' JSON gradebooks")
    merge.add_argument("--out", required=True, metavar="FILE", help="the gradebook: .csv or .json")
    merge.add_argument("--report", metavar="FILE.html", default=None, help="also write the class report")
    merge.add_argument("--feedback", metavar="DIR", default=None, help="also write each student's feedback into DIR")

    check = commands.add_parser("check", help="kata author: check that every kata is complete and consistent",
                                description="Check every kata: stub, reference, tests and curriculum exist; "
                                            "the curriculum has no unknown keys, its pitfalls name aspects, case "
                                            "labels or probes, its hints have three levels in both languages; the "
                                            "answer key is fresh; the reference scores full marks and every stub "
                                            "is todo. Exit status 1 and a list of problems when something is wrong.")
    check.add_argument("--quick", action="store_true",
                       help="skip grading the reference and the stubs (the slow part)")
    parser.subcommands = dict(commands.choices)   # name -> its parser, for the checks argparse cannot express
    return parser
def _term_options(batch) -> None:
    """batch's options for the instructor's term: feedback, the roster, the record of submissions
    and the late policy, a shard of the class."""
    batch.add_argument("--feedback", metavar="DIR", default=None,
                       help="also write each student's feedback: DIR/<submission>.md and .html (in --lang)")
    batch.add_argument("--roster", metavar="ROSTER.csv", default=None,
                       help="who each submission is: a CSV with the columns submission,student,email,id (more allowed)")
    batch.add_argument("--record", metavar="FILE", default=None,
                       help="the instructor's record of submissions, which decides what is graded and when it was "
                            "submitted: a CSV with submission,submitted_at[,commit], or Classroom 50's scores.json; "
                            "with --at DATE, each student's last submission by that deadline")
    batch.add_argument("--extensions", metavar="FILE", default=None,
                       help="per-student deadlines: a CSV with deadline and submission (or the roster's email, id or student)")
    batch.add_argument("--late", metavar="CUTOFF=FACTOR", action="append", default=None,
                       help="a late rule, as many as wanted: a submission after the deadline (--at DATE) and by CUTOFF "
                            "keeps FACTOR of its points (--late 2026-12-03T23:59Z=0.8); after the last cutoff, none")
    batch.add_argument("--shard", metavar="K/N", default=None,
                       help="grade part K of N of the class (every submission is in exactly one part) into a JSON "
                            "gradebook for `grade.py merge`")


@dataclass
class Command:
    """A parsed command line: the subcommand, its options, and when grade.py started."""

    name: str
    args: argparse.Namespace
    started: float

    @property
    def light(self) -> bool:
        """Whether it needs neither torch nor child processes (then grade.py skips that set-up)."""
        return self.name in LIGHT

    def run(self, processes=None) -> int:
        """Run the subcommand; returns its exit status (a refusal raises ``UsageError``).
        ``processes`` (an ``api.Processes``): where the commands that grade start their learner
        lanes and referees (default: fresh processes)."""
        module = importlib.import_module(f"{__name__}.{self.name}")
        if self.name in GRADING:
            return module.run(self.args, started=self.started, processes=processes)
        return module.run(self.args, started=self.started)
def parse(argv: list[str], started: float) -> Command:
    """The command ``argv`` asks for; raises ``UsageError`` for a bad command line, and exits
    (status 0) after printing the help it asks for. Whatever does not start with a subcommand
    (nothing, a selector, an option) is the grade command."""
    parser = build_parser()
    if not argv or (argv[0] not in parser.subcommands and argv[0] not in ("-h", "--help")):
        argv = ["grade", *argv]
    args = parser.parse_args(argv)
    misplaced = next((word for word in getattr(args, "selectors", None) or () if word in parser.subcommands), None)
    if args.command == "grade" and misplaced:   # `grade.py --lang zh hint add_bias`: a command after an option
        rest = [word for word in argv[1:] if word != misplaced]
        raise UsageError(message("grade.command_first", args.lang or default_language(), command=misplaced,
                                 line=" ".join(["python grade.py", misplaced, *rest])))
    if args.command == "release" and not args.out_dir:
        if not (args.gradescope or args.classroom50 or args.codio):
            parser.subcommands["release"].error("give OUT_DIR, --gradescope ZIP, --classroom50 DIR or --codio DIR "
                                                "(or several)")
        if args.max_hint_level is not None and not args.classroom50:
            parser.subcommands["release"].error("--max-hint-level caps the student template: give OUT_DIR or "
                                                "--classroom50 DIR")
    unsandboxed = not available() or getattr(args, "no_sandbox", False)   # learner code runs as KATA_RUN_AS's user
    if os.environ.get(RUN_AS_VARIABLE) and args.command not in LIGHT and unsandboxed:
        try:
            check_learner_user(ROOT)   # one that cannot run grading stops us before any grading
        except LookupError as error:
            raise UsageError(str(error)) from None
    return Command(args.command, args, started)


def utf8_output() -> None:
    """Print UTF-8 (Chinese messages, the progress bar) whatever the console's code page, with
    colours working on legacy Windows consoles."""
    if os.name == "nt":   # colour codes work on legacy Windows consoles once colorama has set them up
        try:
            import colorama  # deferred: Windows only, an optional dependency
            colorama.just_fix_windows_console()
        except (ImportError, AttributeError):
            pass
    stream: Any   # whatever sys.stdout and sys.stderr are now: reconfigure is TextIOWrapper's
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(encoding="utf-8", errors="replace")
        except (AttributeError, ValueError):
            pass
