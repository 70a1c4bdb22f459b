"""Solutions that several submissions share: kata files identical once comments and whitespace are
removed (strings kept as written), and not the stub.

Each gradebook row keeps the ``fingerprints`` of its kata files (a digest of that form, by kata;
none for a stub, an empty or a missing file), so that the clusters can be found again from any
set of rows: one run's, or the shards' a merge puts together. ``mark`` then gives each row in a
cluster its ``shared`` list: for each kata, how many submissions hold the same solution and, up to
``LISTED`` of them, which. A larger cluster is a common way to write that kata (a short one has
few): its members are not repeated on each of their rows, where a class of a thousand would make
the gradebook grow with the square of its size; the rows' fingerprints still say who they are,
and the class report lists them once.

A cluster is a pointer for a conversation, never a verdict: short katas have few ways to be
right, students work together where they may, and a shared file says nothing about who wrote it.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from ..files import read_regular

# A string (kept whole: a '#' or spaces inside it belong to it), else a comment or whitespace (removed).
LISTED = 25   # submissions a cluster lists on each member's row; a larger one gives its size only
_TOKENS = re.compile(rb'("""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\')|#[^\n]*|\s+')


@functools.lru_cache(maxsize=8192)
def fingerprint(data: bytes) -> str:
    """A digest of a kata file with its comments and whitespace removed (strings kept as written):
    two files that differ only in those have the same one."""
    bare = _TOKENS.sub(lambda found: found.group(1) or b"", data)
    return hashlib.sha256(bare).hexdigest()[:20]


def stub_fingerprints(folder: Path) -> dict[str, str]:
    """{kata: fingerprint} of the stubs in ``folder`` (the project's ``katas/``)."""
    found = {}
    for path in sorted(folder.glob("k*.py")):
        try:
            found[path.stem] = fingerprint(read_regular(path))
        except OSError:
            continue
    return found


def fingerprints(files: dict[str, bytes] | None, stubs: dict[str, str]) -> dict[str, str]:
    """{kata: fingerprint} of a submission's kata files (``{"k05_devices.py": bytes}``), leaving out
    the empty ones and the stubs."""
    found = {}
    for name, data in sorted((files or {}).items()):
        kata = name[:-3]
        if data.strip():
            mark = fingerprint(data)
            if mark != stubs.get(kata):
                found[kata] = mark
    return found


@dataclass(frozen=True)
class Cluster:
    """Submissions holding the same solution of one kata."""

    kata: str
    submissions: tuple[str, ...]


def clusters(rows: list[dict]) -> list[Cluster]:
    """Every kata solution that two submissions or more share, by kata, then the largest first."""
    holders: dict[tuple[str, str], list[str]] = {}
    for row in rows:
        marks = row.get("fingerprints")
        for kata, mark in (marks.items() if isinstance(marks, dict) else ()):
            holders.setdefault((kata, mark), []).append(row["submission"])
    found = [Cluster(kata, tuple(sorted(names))) for (kata, _), names in holders.items() if len(names) > 1]
    return sorted(found, key=lambda c: (c.kata, -len(c.submissions), c.submissions))


def mark(rows: list[dict]) -> list[dict]:
    """``rows``, each one in a cluster with its ``shared`` list (``[{"kata", "size", "submissions"}]``,
    ``submissions`` only up to ``LISTED``), the others without one (a stale list is dropped)."""
    shared: dict[str, list[dict]] = {}
    for cluster in clusters(rows):
        item: dict = {"kata": cluster.kata, "size": len(cluster.submissions)}
        if len(cluster.submissions) <= LISTED:
            item["submissions"] = list(cluster.submissions)
        for name in cluster.submissions:
            shared.setdefault(name, []).append(item)
    marked = []
    for row in rows:
        row = {k: v for k, v in row.items() if k != "shared"}
        if row["submission"] in shared:
            row["shared"] = shared[row["submission"]]
        marked.append(row)
    return marked
