"""The one protocol between grade.py and its children: jobs go down, events come up.

A job is one JSON line: its fresh id, its mode (``reference`` or ``learner``), the functions to
observe and the hidden cases to add (``new_job``). Events are JSON lines tagged with that id
(``parse_event``); nothing a child sends is trusted, so a line that is too long, too deeply nested
or not an event becomes a ``malformed`` event, and the judge decides what it costs. A zygote marks in
its shared output pipe where each job's output starts (``OUTPUT_MARK``).
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, field

from ..content.curriculum import FunctionInfo

LINE_LIMIT = 8 << 20       # bytes in one event line (a function's observations on every device)

NESTING_LIMIT = 100        # levels of lists and objects in one event (an honest one has under 40)


@dataclass
class Event:
    """One event from a child: its kind, its fields, and when it arrived (monotonic seconds)."""
    kind: str
    fields: dict = field(default_factory=dict)
    at: float = 0.0
    job: object = None
    control: bool = False     # a zygote's own message (never relayed from a job)


def parse_event(raw: bytes, at: float) -> Event:
    """An ``Event`` from one line; a line that is not a well-formed event becomes kind ``malformed``.
    Never raises: the reader thread that calls it must outlive whatever a child sends."""
    if len(raw) > LINE_LIMIT or not raw.endswith(b"\n"):
        return Event("malformed", {"why": "line too long or cut off"}, at)
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):   # RecursionError: nested deeper than the decoder goes
        return Event("malformed", {"why": "not JSON"}, at)
    if not isinstance(data, dict) or not isinstance(data.get("event"), str):
        return Event("malformed", {"why": "not an event"}, at)
    if nesting(data) > NESTING_LIMIT:   # the judge walks events recursively: keep that walk short
        return Event("malformed", {"why": f"nested more than {NESTING_LIMIT} levels deep"}, at)
    kind = data.pop("event")
    return Event(kind, data, at, data.pop("job", None))


def nesting(data) -> int:
    """How many levels of lists and objects ``data`` holds (0 for a number or a string), found
    without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
        if inner is None:
            continue
        deepest = max(deepest, depth)
        if depth <= NESTING_LIMIT:
            stack.extend((item, depth + 1) for item in inner if isinstance(item, (dict, list)))
    return deepest


def _read_line(stream) -> bytes:
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


def new_job(mode: str, functions: list[FunctionInfo], extras: dict | None = None, **paths) -> dict:
    """A job for a child: what to observe, and a fresh id its events must carry. ``extras``: the
    hidden cases official grading adds, {"kata.function": [[case index, seed], ...]} (never the
    secret they were derived from)."""
    chosen = {f.qualified for f in functions}
    return {"job": secrets.token_hex(8), "mode": mode, "functions": [[f.kata, f.name] for f in functions],
            "extras": {name: pairs for name, pairs in (extras or {}).items() if name in chosen},
            **{k: str(v) for k, v in paths.items()}}
