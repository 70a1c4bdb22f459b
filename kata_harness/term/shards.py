"""A class graded on many machines: ``batch DIR --shard K/N --out shard-K.json`` grades a part of the
class, and ``grade.py merge shard-*.json --out gradebook.csv`` puts the parts together into the
gradebook one unsharded run writes (the same rows, scores and statuses; only when each was graded
differs). Which engine starts the shards is the instructor's (GNU parallel, a Slurm job array, a
GitHub Actions matrix): nothing here schedules.

A submission belongs to shard ``1 + (digest of its folder name's identity) mod N``
(``identity.key``): every submission is in exactly one shard whichever machine lists the folder,
whatever else the folder holds, and the roster's students without a submission are shared out the
same way, in the shard of their folder however the roster spells it (``Bob`` for ``bob``).
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass

from ..outputs import gradebook
from . import identity, shared

SHARD = "shard"   # the row's field that says which shard graded it (merge removes it)


class ShardError(ValueError):
    """Shards that cannot be merged, or a ``--shard`` that is not K/N; the message says why."""


@dataclass(frozen=True)
class Shard:
    """Part ``number`` (1 to ``count``) of a class."""

    number: int
    count: int

    def __str__(self) -> str:
        return f"{self.number}/{self.count}"

    def holds(self, name: str) -> bool:
        """Whether the submission folder ``name`` is in this shard."""
        key = hashlib.sha256(os.fsencode(identity.key(name))).digest()
        return int.from_bytes(key[:8], "big") % self.count == self.number - 1


def parse_shard(text: str) -> Shard:
    """``--shard K/N``, 1 <= K <= N; raises ShardError."""
    found = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not found or not 1 <= int(found.group(1)) <= int(found.group(2)):
        raise ShardError(f"--shard {text}: write K/N with 1 <= K <= N (--shard 2/4: the second of four parts)")
    return Shard(int(found.group(1)), int(found.group(2)))


def merged(books: list[tuple[str, list[dict]]]) -> tuple[list[dict], list[str]]:
    """(the rows of one gradebook made of the shards' ``books`` ((file name, rows) each), warnings).
    Raises ShardError when they cannot be one class's: a submission in two of them, other
    functions or maxima, official grading mixed with practice."""
    rows: list[dict] = []
    where: dict[str, str] = {}
    warnings: list[str] = []
    for source, book in books:
        for row in book:
            name = identity.key(str(row["submission"]))
            if name in where:
                raise ShardError(f"merge: {row['submission']} is in {where[name]} and in {source} (the same "
                                 f"shard twice, or shards of different --shard N?)")
            where[name] = source
            rows.append({k: v for k, v in row.items() if k != SHARD})
    _check_alike(rows)
    seen = {str(row[SHARD]) for _, book in books for row in book if row.get(SHARD)}
    counts = {part.split("/")[1] for part in seen}
    if len(counts) > 1:
        raise ShardError(f"merge: shards of different sizes ({', '.join(sorted(seen))})")
    if counts and len(seen) < int(next(iter(counts))):
        warnings.append(f"merge: only shards {', '.join(sorted(seen))} hold rows: is one missing? "
                        f"(a part of a small class may be empty)")
    projects = {str(row.get("project")) for row in rows}
    if len(projects) > 1:
        warnings.append(f"merge: the shards were graded by different versions of the project: {', '.join(sorted(projects))}")
    return shared.mark(sorted(rows, key=gradebook.row_order)), warnings


def _check_alike(rows: list[dict]) -> None:
    """The rows grade the same functions out of the same maximum, all officially or all in practice."""
    kinds = {(tuple(row.get("functions", {})), row.get("max_score")) for row in rows}
    if len(kinds) > 1:
        raise ShardError("merge: the shards graded different functions or maxima (another project, or other katas)")
    if len({row.get("official") for row in rows}) > 1:
        raise ShardError("merge: some shards graded officially (with the secret) and some for practice")
