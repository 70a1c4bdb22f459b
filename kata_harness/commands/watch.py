"""``grade.py watch``: re-grade a kata each time its file is saved.

A save costs only the checks of that kata, never the import of torch: on Linux a warm zygote
(``channel.Zygote``, torch imported and warmed up) forks a fresh child for each kata of each
re-grade, so learner code never lingers between runs; where forking torch is not safe (macOS,
Windows) one warm child (``channel.SerialChild``) grades save after save for as long as no kata
changed what the next would see, and a fresh one starts as soon as one did. File events come from the operating system
through ``watchfiles`` (inotify, FSEvents, ReadDirectoryChangesW) where it is installed; the files
are also polled, which covers network drives and WSL, where events do not arrive.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .. import api
from ..content.curriculum import FunctionInfo, KataInfo
from ..content.messages import message
from ..isolation.channel import Lane, Zygote
from ..judging import integrity
from ..judging.expectations import Recorded
from ..judging.integrity import Integrity
from ..judging.judge import Grading, grade
from ..outputs.document import HowItRan, document
from ..outputs.text import summary_line, text, use_colour


class FileEvents:
    """Wakes up when a file in ``folder`` changes (native file events), or after ``interval`` seconds."""

    def __init__(self, folder: Path, interval: float, use_events: bool = True):
        self.interval = interval
        self.changed = threading.Event()
        self.native = False
        if use_events:
            try:
                import watchfiles  # deferred: optional (without it, the files are polled)
            except ImportError:
                return
            self.native = True
            self._stop = threading.Event()
            threading.Thread(target=self._listen, args=(watchfiles, folder), daemon=True).start()

    def _listen(self, watchfiles, folder: Path) -> None:
        try:
            # A short debounce: editors write a file in bursts.
            for _ in watchfiles.watch(folder, debounce=20, step=10, stop_event=self._stop,
                                      raise_interrupt=False):
                self.changed.set()
        except Exception:   # a folder that vanished, a file system without events: polling remains
            self.native = False

    @property
    def mode(self) -> str:
        """The message key naming how changes are noticed (file events or polling)."""
        return "watch.events" if self.native else "watch.polling"

    def wait(self) -> None:
        """Return after a file event or a poll tick."""
        self.changed.wait(self.interval)
        self.changed.clear()

    def close(self) -> None:
        """Stop listening."""
        if self.native:
            self._stop.set()


STAMP = ("st_mtime_ns", "st_size")   # a file's content changed when these did
IDENTITY = ("st_dev", "st_ino")      # which folder a path names (a replaced folder has another)


def _stat(path: Path, fields: tuple[str, ...]):
    """Those ``os.stat`` fields of ``path``, or None when it is missing or unreadable."""
    try:
        info = path.stat()
    except OSError:
        return None
    return tuple(getattr(info, field) for field in fields)


@dataclass
class Display:
    """How watch shows its verdicts: in which language, naming the solutions folder as ``shown``,
    with the integrity warning and colour where due, the practice line for the ``hidden_not_run``
    checks only official grading runs, and how learner code runs (``sandbox``)."""

    lang: str
    shown: str
    integrity: Integrity
    colour: bool = False
    hidden_not_run: int = 0
    sandbox: str = "none"
    out: TextIO = field(default_factory=lambda: sys.stdout)


class Watcher:
    """Keeps the verdicts of every watched function and re-grades one kata at a time."""

    def __init__(self, katas: list[KataInfo], functions: list[FunctionInfo], solutions: Path, expected,
                 display: Display, *, lane: Lane):
        self.katas, self.functions, self.solutions = katas, functions, solutions
        self.expected, self.display = expected, display
        self.grading = Grading()
        self.lane = lane
        self.folder = _stat(solutions, IDENTITY)   # the folder the lane's process was started with

    def _ready_lane(self):
        """The lane, after restarting a sandboxed zygote whose folder was replaced (a checkout, a
        restore): it would still see the old one."""
        folder = _stat(self.solutions, IDENTITY)
        if isinstance(self.lane, Zygote) and folder != self.folder:
            self.lane.stop()
        self.folder = folder
        return self.lane

    def grade_all(self) -> None:
        """Grade every watched function (the first run)."""
        self.grading = grade(self.functions, self.solutions, self.expected, lane=self._ready_lane())
        self.lane.start()   # warm again before the next save (if a process that stopped answering was replaced)
        self._show(self.functions)

    def regrade(self, kata: str) -> None:
        """Grade one kata again, against the expected observations already known."""
        chosen = [f for f in self.functions if f.kata == kata]
        known = Recorded(self.grading.expected, self.expected.name, self.expected.stale)
        result = grade(chosen, self.solutions, known, lane=self._ready_lane())
        self.grading.verdicts.update(result.verdicts)
        self.grading.durations.update(result.durations)
        self.lane.start()
        self._show(chosen)

    def _show(self, shown: list[FunctionInfo]) -> None:
        view = self.display
        every = document(self.katas, self.functions, self.grading, lang=view.lang, solutions=view.shown)
        # Watching is practice: the part shown says how many checks only official grading runs, as grade.py does.
        part = document(self.katas, shown, self.grading, lang=view.lang, solutions=view.shown,
                        ran=HowItRan(view.sandbox, False, view.hidden_not_run))
        body = text(part, self.katas, lang=view.lang, integrity=view.integrity, colour=view.colour,
                            summary=False, next_from=every)
        print(f"\n── {time.strftime('%H:%M:%S')} " + "─" * 40, file=view.out)
        print(body, file=view.out)
        print(summary_line(every, view.lang), file=view.out, flush=True)

    def stop(self) -> None:
        """Stop the lane's process."""
        self.lane.stop()


def watch(watcher: Watcher, *, interval: float, use_events: bool = True) -> int:
    """Grade everything once, then re-grade each kata whose file changes, until Ctrl-C."""
    katas = list(dict.fromkeys(f.kata for f in watcher.functions))
    files = {kata: watcher.solutions / f"{kata}.py" for kata in katas}
    events = FileEvents(watcher.solutions, interval if use_events else min(interval, 0.25), use_events)
    try:
        stamps = {kata: _stat(path, STAMP) for kata, path in files.items()}
        watcher.grade_all()
        lang = watcher.display.lang
        print(message("watch.waiting", lang, folder=watcher.display.shown, mode=message(events.mode, lang)),
              file=watcher.display.out, flush=True)
        while True:
            events.wait()
            for kata, path in files.items():
                stamp = _stat(path, STAMP)
                if stamp != stamps[kata]:
                    stamps[kata] = stamp
                    watcher.regrade(kata)
    except KeyboardInterrupt:
        print("\n" + message("watch.bye", watcher.display.lang), file=watcher.display.out, flush=True)
        return 0
    finally:
        events.close()
        watcher.stop()


def run(args, *, started: float, processes: api.Processes | None = None) -> int:
    """``grade.py watch [SELECTOR ...]``: re-grade a kata every time its file is saved, against
    the source ``--against`` chooses."""
    # Watching is practice: the hidden checks never run here, and the report says how many there are.
    settled = api.from_args(args, started=started, processes=processes, practice=True)
    expected = settled.expectations()
    cases = settled.hidden_cases(expected)
    display = Display(settled.lang, settled.shown, integrity.check(), colour=use_colour(sys.stdout),
                      hidden_not_run=cases.not_run, sandbox=settled.sandbox.value)
    watcher = Watcher(list(settled.katas), list(settled.functions), settled.solutions, expected, display,
                      lane=settled.lane())
    return watch(watcher, interval=args.interval, use_events=not args.poll)
