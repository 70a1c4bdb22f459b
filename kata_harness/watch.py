"""``grade.py watch``: re-grade a kata each time its file is saved.

A learner child is always kept in reserve, torch imported and warmed up, so that a save costs
only the checks of that kata. Each re-grade still runs in a fresh process (the reserve is used
once, and the next one starts while the learner reads the verdict), so learner code never
lingers between runs. File events come from inotify where the system has it; the files are
also polled, which covers network drives and WSL, where events do not arrive.
"""

from __future__ import annotations

import ctypes
import os
import select
import sys
import time
from pathlib import Path

from . import formats
from .catalog import FunctionInfo, KataInfo
from .grading import Child, Grading, grade
from .integrity import Integrity
from .text import message

_IN_MODIFY, _IN_CLOSE_WRITE, _IN_MOVED_TO, _IN_CREATE = 0x2, 0x8, 0x80, 0x100


class FileEvents:
    """Wakes up when a file in ``folder`` is written (inotify), or after ``interval`` seconds."""

    def __init__(self, folder: Path, interval: float, use_inotify: bool = True):
        self.interval = interval
        self.fd = None
        if use_inotify and sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
                mask = _IN_MODIFY | _IN_CLOSE_WRITE | _IN_MOVED_TO | _IN_CREATE
                if fd >= 0 and libc.inotify_add_watch(fd, str(folder).encode(), mask) >= 0:
                    self.fd = fd
            except (OSError, AttributeError):
                self.fd = None

    @property
    def mode(self) -> str:
        return "inotify" if self.fd is not None else "polling"

    def wait(self) -> None:
        """Return after a file event (then a short pause, as editors write in bursts) or a poll tick."""
        if self.fd is None:
            time.sleep(self.interval)
            return
        ready, _, _ = select.select([self.fd], [], [], self.interval)
        if ready:
            time.sleep(0.02)
            try:
                while os.read(self.fd, 65536):
                    pass
            except BlockingIOError:
                pass


def _stamp(path: Path):
    try:
        info = path.stat()
        return info.st_mtime_ns, info.st_size
    except OSError:
        return None


class Watcher:
    """Keeps the verdicts of every watched function and re-grades one kata at a time."""

    def __init__(self, katas: list[KataInfo], functions: list[FunctionInfo], solutions: Path, *, lang: str,
                 shown: str, reference: Path, key, integrity: Integrity, colour: bool, out=sys.stdout):
        self.katas, self.functions, self.solutions = katas, functions, solutions
        self.lang, self.shown, self.reference, self.key = lang, shown, reference, key
        self.integrity, self.colour, self.out = integrity, colour, out
        self.grading = Grading()
        self.spare: Child | None = None

    def _learner(self) -> Child:
        child, self.spare = self.spare or Child(warm=True), None
        return child

    def _refill(self) -> None:
        if self.spare is None:
            self.spare = Child(warm=True)

    def grade_all(self) -> None:
        """Grade every watched function (the first run)."""
        result = grade(self.functions, self.solutions, reference=self.reference, key=self.key,
                       learner=self._learner())
        self.grading = result
        self._refill()
        self._show(self.functions)

    def regrade(self, kata: str) -> None:
        """Grade one kata again with a warm child, against the expected observations already known."""
        chosen = [f for f in self.functions if f.kata == kata]
        result = grade(chosen, self.solutions, expected=self.grading.expected, learner=self._learner())
        self.grading.verdicts.update(result.verdicts)
        self.grading.durations.update(result.durations)
        self._refill()
        self._show(chosen)

    def _show(self, shown: list[FunctionInfo]) -> None:
        every = formats.document(self.katas, self.functions, self.grading, lang=self.lang, solutions=self.shown)
        part = formats.document(self.katas, shown, self.grading, lang=self.lang, solutions=self.shown)
        body = formats.text(part, self.katas, self.grading, lang=self.lang, solutions=self.shown,
                            integrity=self.integrity, colour=self.colour, summary=False, next_from=every)
        print(f"\n── {time.strftime('%H:%M:%S')} " + "─" * 40, file=self.out)
        print(body, file=self.out)
        print(formats.summary_line(every, self.lang), file=self.out, flush=True)

    def stop(self) -> None:
        """Stop the reserve child."""
        if self.spare:
            self.spare.stop()


def watch(watcher: Watcher, *, interval: float, use_inotify: bool = True) -> int:
    """Grade everything once, then re-grade each kata whose file changes, until Ctrl-C."""
    katas = list(dict.fromkeys(f.kata for f in watcher.functions))
    files = {kata: watcher.solutions / f"{kata}.py" for kata in katas}
    events = FileEvents(watcher.solutions, interval if use_inotify else min(interval, 0.25), use_inotify)
    try:
        stamps = {kata: _stamp(path) for kata, path in files.items()}
        watcher.grade_all()
        print(message("watch.waiting", watcher.lang, folder=watcher.shown, mode=events.mode), file=watcher.out,
              flush=True)
        while True:
            events.wait()
            for kata, path in files.items():
                stamp = _stamp(path)
                if stamp != stamps[kata]:
                    stamps[kata] = stamp
                    watcher.regrade(kata)
    except KeyboardInterrupt:
        print("\n" + message("watch.bye", watcher.lang), file=watcher.out, flush=True)
        return 0
    finally:
        watcher.stop()
