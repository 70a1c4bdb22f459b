"""``grade.py watch``: re-grade a kata each time its file is saved.

A save costs only the checks of that kata, never the import of torch: on Linux a warm zygote
(``channel.Zygote``, torch imported and warmed up) forks a fresh child for each kata of each
re-grade, so learner code never lingers between runs; where forking torch is not safe (macOS,
Windows) one warm child (``channel.SerialChild``) grades save after save for as long as no kata
changed what the next would see, and a fresh one starts as soon as one did. File events come from the operating system
through ``watchfiles`` (inotify, FSEvents, ReadDirectoryChangesW) where it is installed; the files
are also polled every ``--interval`` seconds (``POLL`` by default), which covers network drives and WSL,
where events do not arrive: a save is seen within that, and only its kata is graded again, by the
zygote that was made ready before the save.
"""

from __future__ import annotations

import ast
import queue
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .. import api
from ..content.curriculum import FunctionInfo, KataInfo
from ..content.messages import message
from ..files import read_regular
from ..isolation.channel import Lane, Zygote
from ..judging import integrity
from ..judging.expectations import Recorded
from ..judging.integrity import Integrity
from ..judging.judge import Grading, grade
from ..outputs.document import HowItRan, document
from ..outputs.text import summary_line, text, use_colour

POLL = 0.05    # default seconds between looks at the files: a save is seen within this, file events or not


class FileEvents:
    """Wakes up when a file in ``folder`` changes (native file events), or after ``interval`` seconds
    (a poll: a look at each watched file costs one ``stat``, so polling often costs next to nothing,
    and bounds the delay where events never arrive: network drives, WSL, no ``watchfiles``)."""

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


QUIET = 0.5    # seconds a file that does not parse (or lacks a function) must stay unchanged before it is graded
TICK = 0.05    # seconds between looks at a file being saved, or at the file of a kata being graded


def _complete(path: Path, names: list[str]) -> bool:
    """Whether ``path`` parses as Python and defines every function in ``names`` at its top level:
    a save in progress (truncated, half written) does not."""
    try:
        tree = ast.parse(read_regular(path).decode("utf-8"))
    except (OSError, ValueError, SyntaxError):   # missing, too big, not UTF-8, not Python (yet)
        return False
    defined = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return set(names) <= defined


def settle(path: Path, names: list[str], stamp, *, quiet: float = QUIET,
           clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep):
    """Wait until the file just saved is worth grading, and return its stamp then: at once when it
    parses and defines every watched function of its kata; otherwise when it has stayed unchanged
    for ``quiet`` seconds, so that an editor that truncates a file and then writes it never shows
    "has no function" or a syntax error in between, while a real mistake is still shown."""
    unchanged_since = clock()
    while not _complete(path, names):
        sleep(TICK)
        now = _stat(path, STAMP)
        if now != stamp:
            stamp, unchanged_since = now, clock()
        elif clock() - unchanged_since >= quiet:
            break
    return stamp


def _saved_again(path: Path, stamp) -> Callable[[], bool]:
    """Whether ``path`` changed since it had ``stamp`` (a newer save supersedes its grading)."""
    return lambda: _stat(path, STAMP) != stamp


class _Refused:
    """The handle of a job not sent: the grading it belongs to was superseded by a newer save."""

    output_tail = ""

    def send(self, job: dict) -> None:
        """Nothing is sent."""

    def next_event(self, timeout: float):
        raise queue.Empty

    def stop(self, clean: bool = True) -> None:
        """Nothing runs."""

    def death_reason(self) -> str:
        return "superseded by a newer save"


class _Watched:
    """A job's handle that gives up at once when its grading is superseded: the judge then cuts the
    job short (its process is killed) instead of waiting out a hang's time limit."""

    def __init__(self, handle, lane: SupersededLane):
        self.handle, self.lane = handle, lane

    @property
    def output_tail(self) -> str:
        return self.handle.output_tail

    def send(self, job: dict) -> None:
        self.handle.send(job)

    def next_event(self, timeout: float):
        """The job's next event, looked for in short slices between which the grading may be
        superseded (then ``queue.Empty``, as when a job runs out of time)."""
        until = time.monotonic() + timeout
        while True:
            if self.lane.superseded():
                raise queue.Empty
            try:
                return self.handle.next_event(max(0.0, min(TICK, until - time.monotonic())))
            except queue.Empty:
                if time.monotonic() >= until:
                    raise

    def stop(self, clean: bool = True) -> None:
        self.handle.stop(clean=clean)

    def death_reason(self) -> str:
        return self.handle.death_reason()


class SupersededLane:
    """A learner lane for one re-grade, given up as soon as ``is_stale()`` (the kata's file was saved
    again): the job running is cancelled at once, and no other job is sent."""

    def __init__(self, lane, is_stale: Callable[[], bool]):
        self.lane, self.is_stale = lane, is_stale
        self.stale = False

    def superseded(self) -> bool:
        """Whether a newer save made this grading pointless (remembered once seen)."""
        self.stale = self.stale or self.is_stale()
        return self.stale

    def start(self) -> None:
        self.lane.start()

    def submit(self, job: dict):
        if self.superseded():
            return _Refused()
        return _Watched(self.lane.submit(job), self)

    def serves(self, handle) -> bool:
        if isinstance(handle, _Refused):
            return True
        return isinstance(handle, _Watched) and self.lane.serves(handle.handle)

    def stop(self) -> None:
        self.lane.stop()


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

    def regrade(self, kata: str, superseded: Callable[[], bool] = lambda: False) -> bool:
        """Grade one kata again, against the expected observations already known, and show it;
        returns False, showing nothing, when ``superseded()`` became true on the way (the file was
        saved again): the stale run is cut short at once, whatever it was doing."""
        chosen = [f for f in self.functions if f.kata == kata]
        known = Recorded(self.grading.expected, self.expected.name, self.expected.stale)
        lane = SupersededLane(self._ready_lane(), superseded)
        result = grade(chosen, self.solutions, known, lane=lane)
        self.lane.start()
        if lane.superseded():
            return False
        self.grading.verdicts.update(result.verdicts)
        self.grading.durations.update(result.durations)
        self._show(chosen)
        return True

    def move_on(self) -> list[str]:
        """When every watched function passes, watch the next kata of the curriculum that does not
        (graded now, and shown): a learner who watched one kata to the end goes on to the next
        without restarting. Returns the katas added (none while something watched still fails, or
        when nothing after it is left)."""
        if any(self.grading.verdicts.get(f.qualified) is None or self.grading.verdicts[f.qualified].status != "passed"
               for f in self.functions):
            return []
        watched = {f.kata for f in self.functions}
        last = max(i for i, kata in enumerate(self.katas) if kata.name in watched)
        added = []
        for kata in self.katas[last + 1:]:
            chosen = list(kata.functions)
            result = grade(chosen, self.solutions, self.expected, lane=self._ready_lane())
            self.lane.start()
            self.grading.verdicts.update(result.verdicts)
            self.grading.durations.update(result.durations)
            self.grading.expected.update(result.expected)
            self.functions += chosen
            added.append(kata.name)
            if any(result.verdicts[f.qualified].status != "passed" for f in chosen):
                break
        if added:
            print(message("watch.moved_on", self.display.lang, done=", ".join(sorted(watched)), kata=added[-1]),
                  file=self.display.out, flush=True)
            self._show([f for f in self.functions if f.kata == added[-1]])
        return added

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
    names = {kata: [f.name for f in watcher.functions if f.kata == kata] for kata in katas}
    events = FileEvents(watcher.solutions, interval, use_events)
    try:
        stamps = {kata: _stat(path, STAMP) for kata, path in files.items()}
        watcher.grade_all()
        lang = watcher.display.lang
        print(message("watch.waiting", lang, folder=watcher.display.shown, mode=message(events.mode, lang)),
              file=watcher.display.out, flush=True)
        watching_too = watcher.move_on()   # a watched kata that already passes: the next one at once
        while True:
            for kata in watching_too:
                files[kata] = watcher.solutions / f"{kata}.py"
                names[kata] = [f.name for f in watcher.functions if f.kata == kata]
                stamps[kata] = _stat(files[kata], STAMP)
            events.wait()
            for kata, path in files.items():
                stamp = _stat(path, STAMP)
                while stamp != stamps[kata]:   # a save while its kata is graded: grade the newest at once
                    stamps[kata] = settled = settle(path, names[kata], stamp)
                    watcher.regrade(kata, superseded=_saved_again(path, settled))
                    stamp = _stat(path, STAMP)
            watching_too = watcher.move_on()   # the watched katas all pass: the next one is watched too
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
    display = Display(settled.lang, settled.shown, integrity.check(settled.project.root), colour=use_colour(sys.stdout),
                      hidden_not_run=cases.not_run, sandbox=settled.sandbox.value)
    watcher = Watcher(list(settled.katas), list(settled.functions), settled.solutions, expected, display,
                      lane=settled.lane())
    return watch(watcher, interval=POLL if args.interval is None else args.interval, use_events=not args.poll)
