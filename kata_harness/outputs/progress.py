"""How far a batch has got, in the form that suits where its standard error goes.

On a terminal: tqdm's bar (the count, the rate, the time left, the last submission's name), redrawn
in place. tqdm is the one dependency chosen for it: a single pure-Python package with no
dependencies of its own, maintained since 2015, that measures wide characters (a Chinese name
takes two columns) when it fits the bar to the terminal. It is optional (``pip install tqdm``, or
the ``instructor`` extra): without it, and wherever standard error is not a terminal (a file, a
pipe, a CI log), one plain line every few seconds and a last one at the end, never a carriage
return. Names are shown as they are, in UTF-8, shortened by the columns they take.
"""

from __future__ import annotations

import sys
import threading
import time
import unicodedata
from collections.abc import Callable

PLAIN_EVERY = 5.0    # seconds between two plain lines
NAME_COLUMNS = 30    # columns of a submission's name
NAMES_SHOWN = 3      # names on a plain line: the last ones done since the line before


def columns(text: str) -> int:
    """The terminal columns ``text`` takes: two for a wide character (Chinese), none for a combining one."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def fitted(text: str, width: int = NAME_COLUMNS) -> str:
    """``text`` cut to ``width`` columns (with "…" where it was cut)."""
    if columns(text) <= width:
        return text
    kept, used = [], 0
    for char in text:
        used += columns(char)
        if used > width - 1:
            break
        kept.append(char)
    return "".join(kept) + "…"


def _tqdm():
    """tqdm's bar class, or None where it is not installed."""
    try:
        from tqdm import tqdm  # deferred: an optional dependency, for a terminal only
    except ImportError:
        return None
    return tqdm


class Progress:
    """The progress of ``total`` submissions on ``stream`` (standard error): ``step(name)`` after
    each one. A bar on a terminal where tqdm is installed, else plain lines every ``every`` seconds
    (``clock``: for the self-tests)."""

    def __init__(self, total: int, stream=sys.stderr, *, every: float = PLAIN_EVERY,
                 clock: Callable[[], float] = time.monotonic):
        self.total, self.done, self.stream, self.every, self.clock = total, 0, stream, every, clock
        self.started = self.clock()
        self.shown: float | None = None   # when the last plain line was written
        self.since: list[str] = []         # the names done since then
        self.lock = threading.Lock()
        bar = _tqdm() if _is_terminal(stream) else None
        self.bar = bar(total=total, file=stream, unit="submission", dynamic_ncols=True, smoothing=0.1,
                       leave=True) if bar else None

    def step(self, name: str) -> None:
        """Count one more submission done, named ``name``."""
        with self.lock:
            self.done += 1
            if self.bar is not None:
                self.bar.set_postfix_str(fitted(name), refresh=False)
                self.bar.update(1)
                if self.done >= self.total:
                    self.bar.close()
                return
            self.since.append(name)
            now = self.clock()
            if self.shown is None or now - self.shown >= self.every or self.done >= self.total:
                self.shown = now
                self.stream.write(self.line(self.since, now) + "\n")
                self.stream.flush()
                self.since = []

    def line(self, names: list[str], now: float) -> str:
        """One plain line: how many, the share, the time taken and left, the names done since the
        last line (the last few, and how many more)."""
        elapsed = now - self.started
        left = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        share = 100 * self.done / self.total if self.total else 100.0
        when = f"ETA {_duration(left)}" if self.done < self.total else f"done in {_duration(elapsed)}"
        shown = ", ".join(fitted(name) for name in names[-NAMES_SHOWN:])
        more = f" (+{len(names) - NAMES_SHOWN} more)" if len(names) > NAMES_SHOWN else ""
        return f"batch: {self.done}/{self.total} graded ({share:.0f}%), {when}, last: {shown}{more}"


def _duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``1 h 02 min``."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
