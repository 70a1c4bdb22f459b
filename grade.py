#!/usr/bin/env python3
"""Grade the PyTorch pitfall katas.

    python grade.py [SELECTOR ...] [--solutions DIR] [--format FORMAT] [--lang en|zh]
    python grade.py watch [SELECTOR]       re-grade a kata every time its file is saved
    python grade.py hint FUNCTION [--level N]
    python grade.py reset SELECTOR         restore a stub (your file is backed up first)
    python grade.py freeze                 instructor: write the answer key from reference/
    python grade.py release OUT_DIR        instructor: write the student template (no reference/)
    python grade.py release --gradescope autograder.zip    instructor: Gradescope's autograder
    python grade.py release --classroom50 DIR   instructor: Classroom 50's template and autograder
    python grade.py release --codio DIR    instructor: the content of Codio's .guides/secure
    python grade.py batch DIR [--out FILE] instructor: grade every submission folder in DIR
    python grade.py check                  kata author: every kata complete and consistent
    python grade.py --help                 every command; `python grade.py COMMAND --help`: its options

SELECTOR is a lesson (lesson2, autograd), a kata (k05_devices, k05, devices) or a function
(k05_devices.add_bias, add_bias).
Learner code runs in a child process; this process only reads the results and keeps the score.
This file is only the bootstrap: the command line is ``kata_harness/commands/``, one module per
command (the parser in its ``__init__``).
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

import time  # noqa: E402 (after the project folder left the import path)

STARTED = time.monotonic()   # grading's --deadline counts from here


def _activation(root: str, windows: bool = os.name == "nt") -> str | None:
    """The command that activates the virtual environment ``.venv`` beside grade.py, by its absolute
    path, in the learner's shell (PowerShell on Windows, bash/zsh elsewhere); None when it has none."""
    import shlex

    if windows:
        script = os.path.join(root, ".venv", "Scripts", "Activate.ps1")
        return "& '" + script.replace("'", "''") + "'" if os.path.isfile(script) else None
    script = os.path.join(root, ".venv", "bin", "activate")
    return ". " + shlex.quote(script) if os.path.isfile(script) else None


def _torch_missing() -> bool:
    """True (after one clear line) when this interpreter cannot import torch: the learner's
    virtual environment is probably not active (the line names its activation by absolute path),
    lacks PyTorch, or was never made."""
    import importlib.util

    from kata_harness.content.messages import default_language, message

    if importlib.util.find_spec("torch") is not None:
        return False
    root = os.path.dirname(os.path.abspath(__file__))
    venv = os.path.join(root, ".venv")
    lang, python = default_language(), sys.executable
    if os.path.normcase(os.path.abspath(sys.prefix)) == os.path.normcase(venv):
        line = message("error.no_torch_in_venv", lang, python=python)
    else:
        command = _activation(root)
        line = message("error.no_torch", lang, python=python, command=command) if command else \
            message("error.no_torch_no_venv", lang, python=python, folder=root)
    print(line, file=sys.stderr)
    return True


def _end_on_signal() -> None:
    """SIGTERM (a CI timeout, `kill`) ends grade.py like Ctrl-C: every child is stopped first."""
    import signal

    def stop(signum, frame):
        raise SystemExit(128 + signum)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)
    # Ctrl-C always stops grade.py, even when a parent started it with SIGINT ignored.
    signal.signal(signal.SIGINT, signal.default_int_handler)


def main(argv: list[str]) -> int:
    """Parse the command line, then run the command; a usage error is printed here, once."""
    from kata_harness import commands
    from kata_harness.isolation import channel, processes

    commands.utf8_output()
    try:
        command = commands.parse(argv, STARTED)
        if command.light:   # hint, reset, report, export, merge: no torch, no children
            return command.run()
        if _torch_missing():
            return 3
        _end_on_signal()
        processes.become_subreaper()   # orphans of learner code come back here, and are killed below
        processes.hide_from_same_user()   # learner code cannot read this process's memory or environment
        try:
            return command.run()
        finally:
            channel.stop_all()
            processes.kill_orphans()
    except commands.UsageError as error:
        print(error, file=sys.stderr)
        return error.status


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:   # `python grade.py | head`: the reader left; that is fine
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
