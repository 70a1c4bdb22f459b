"""The one protocol between grade.py and its children: jobs go down, events come up.

Its whole vocabulary is here, used by both sides: a job's ``Mode``, every event's ``Kind`` (what a
child sends, what a zygote says of its jobs, and ``malformed``, which only the parent makes), and
the ``Order`` lines a parent writes besides jobs.

A job is one JSON line: its fresh id, its mode, the functions to observe and the hidden cases to
add (``new_job``). Events are JSON lines tagged with that id (``parse_event``); nothing a child
sends is trusted, so a line that is too long, too deeply nested or not an event becomes a
``malformed`` event, and the judge decides what it costs. A zygote marks in its shared output pipe
where each job's output starts (``OUTPUT_MARK``).
"""

from __future__ import annotations

import itertools
import json
import re
import secrets
from dataclasses import dataclass, field
from enum import Enum

from ..content.curriculum import FunctionInfo

LINE_LIMIT = 8 << 20       # bytes in one event line (a function's observations on every device)

NESTING_LIMIT = 100        # levels of lists and objects in one event (an honest one has under 40)


class Mode(str, Enum):
    """What a job asks of a child: observe the reference (a referee) or the learner's solutions."""

    REFERENCE = "reference"
    LEARNER = "learner"


class Kind(str, Enum):
    """Every kind of event. A learner job sends, in this order: ``importing`` a kata (with the
    devices its child can use), then ``kata_error`` for that kata or, per function, ``start`` and
    ``observed`` or ``missing``; a referee job sends ``expected`` or ``expected_error`` per function;
    every job ends with ``done``. A serial child answers a job it will not run ``retired``; a zygote
    says ``exited`` when a job's process and all it started are gone. ``malformed`` is the parent's
    name for a line that is no event."""

    IMPORTING = "importing"
    KATA_ERROR = "kata_error"
    START = "start"
    OBSERVED = "observed"
    MISSING = "missing"
    EXPECTED = "expected"
    EXPECTED_ERROR = "expected_error"
    DONE = "done"
    RETIRED = "retired"
    EXITED = "exited"
    MALFORMED = "malformed"

    def __str__(self) -> str:
        return self.value


class Order(str, Enum):
    """A parent's line to a zygote that is not a job: ``{"cancel": ID}`` kills that job."""

    CANCEL = "cancel"


def cancel_order(job_id) -> dict:
    """The line that cancels the job ``job_id`` in a zygote."""
    return {Order.CANCEL.value: job_id}


@dataclass
class Event:
    """One event from a child: its kind (a ``Kind``, or the unknown word a child sent), its fields,
    and when it arrived (monotonic seconds)."""
    kind: Kind | str
    fields: dict = field(default_factory=dict)
    at: float = 0.0
    job: object = None
    control: bool = False     # a zygote's own message (never relayed from a job)


def parse_event(raw: bytes, at: float) -> Event:
    """An ``Event`` from one line; a line that is not a well-formed event becomes kind ``malformed``.
    Never raises: the reader thread that calls it must outlive whatever a child sends."""
    if len(raw) > LINE_LIMIT or not raw.endswith(b"\n"):
        return Event(Kind.MALFORMED, {"why": "line too long or cut off"}, at)
    try:
        # As UTF-8 only (what a child writes): json.loads would take UTF-16 or UTF-32 bytes too,
        # whose brackets ``nesting_of_line`` could not count byte by byte.
        data = json.loads(raw.decode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError):   # RecursionError: nested deeper than the decoder goes
        return Event(Kind.MALFORMED, {"why": "not JSON"}, at)
    if not isinstance(data, dict) or not isinstance(data.get("event"), str):
        return Event(Kind.MALFORMED, {"why": "not an event"}, at)
    if nesting_of_line(raw) > NESTING_LIMIT:   # the judge walks events recursively: keep that walk short
        return Event(Kind.MALFORMED, {"why": f"nested more than {NESTING_LIMIT} levels deep"}, at)
    word = data.pop("event")
    kind = Kind(word) if word in _KINDS else word   # an unknown word stays itself: the judge names it
    return Event(kind, data, at, data.pop("job", None))


_KINDS = frozenset(kind.value for kind in Kind)


# What ``nesting_of_line`` keeps of a line: brackets and quotes; how each bracket moves the depth.
_NOT_BRACKET_OR_QUOTE = bytes(b for b in range(256) if b not in b'[]{}"')
_DEPTH_STEP = [1 if b in b"[{" else -1 if b in b"]}" else 0 for b in range(256)]


def nesting_of_line(raw: bytes) -> int:
    """How many levels of lists and objects the value of a line of valid JSON in UTF-8 holds (0 for
    a number or a string), counted on its bytes by C loops rather than a Python step per item (a
    tensor's values are thousands of items). Escaped backslashes and quotes go first, then every
    byte but brackets and quotes; what is left between two quotes was inside a string, and the
    rest is the value's structure. (In UTF-8, no byte of another character is a bracket, a quote
    or a backslash.)"""
    marks = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_BRACKET_OR_QUOTE)
    structure = b"".join(marks.split(b'"')[::2])
    return max(itertools.accumulate(map(_DEPTH_STEP.__getitem__, structure)), default=0)


def read_line(stream) -> bytes:
    """One line of at most LINE_LIMIT bytes; the rest of a longer line is skipped."""
    line = stream.readline(LINE_LIMIT + 1)
    if len(line) > LINE_LIMIT and not line.endswith(b"\n"):
        while True:
            rest = stream.readline(LINE_LIMIT)
            if not rest or rest.endswith(b"\n"):
                break
        return line[:LINE_LIMIT + 1]   # too long: parse_event marks it malformed
    return line


# A zygote's mark in the output pipe before each job; the parent (channel) keeps only what follows
# the mark of the job it explains.
OUTPUT_MARK = "\x00job {}\x00"
OUTPUT_MARK_PATTERN = re.compile(OUTPUT_MARK.format("([0-9A-Za-z]+)"))


def new_job(mode: Mode, functions: list[FunctionInfo], extras: dict | None = None, **paths) -> dict:
    """A job for a child: what to observe, and a fresh id its events must carry. ``extras``: the
    hidden cases official grading adds, {"kata.function": [[case index, seed], ...]} (never the
    secret they were derived from)."""
    chosen = {f.qualified for f in functions}
    return {"job": secrets.token_hex(8), "mode": Mode(mode).value, "functions": [[f.kata, f.name] for f in functions],
            "extras": {name: pairs for name, pairs in (extras or {}).items() if name in chosen},
            **{k: str(v) for k, v in paths.items()}}
