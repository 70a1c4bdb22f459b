"""One identity per student: the key every part of the term looks a submission up by.

A folder's name, a record's owner, a roster's ``submission`` cell and an extension's line all name
a student, and they may spell that name differently: another case (``Bob``, ``bob``), a space
around it (`` bob``), another Unicode form of the same letters (``ｂｏｂ``, ``é`` as one code point or
two). ``key`` turns each spelling into one canonical key (NFKC-normalised, case-folded, trimmed),
and the record, the roster, the extensions, the shards, the merge, the feedback files and the
Canvas and Moodle exports all use it, so that one student is never two rows and two students are
never one.

Where two different spellings give one key (two folders, two owners in the record), nothing can
say which is the student's: both are refused by name (``clash_note``), none is credited.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable


def key(name: str) -> str:
    """The canonical key of a student's name: Unicode NFKC, case-folded, without the white space
    around it (``" Ｂob "`` and ``"bob"`` are one key)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return folded.strip()


def clashes(names: Iterable[str], shown: Callable[[str], str] = str) -> dict[str, list[str]]:
    """{name: the other names with its key} for every name that shares its key with another
    (names listed twice as written are one name). ``shown``: how every output writes a name (batch
    writes a folder's control characters and undecodable bytes as escapes): two names it writes
    alike are one name there, so they clash too."""
    by_key: dict[str, list[str]] = {}
    for name in dict.fromkeys(names):
        by_key.setdefault(key(shown(name)), []).append(name)
    return {name: [other for other in group if other != name]
            for group in by_key.values() if len(group) > 1 for name in group}


def clash_note(name: str, others: list[str], where: str = "folders") -> str:
    """The note on a row refused because ``others`` are the same student as ``name``."""
    shown = ", ".join(repr(other) for other in others)
    return (f"refused: {name!r} and {shown} are one student's name (the {where} differ only in case, "
            f"spaces or Unicode form): neither is graded or credited; rename the one that is not theirs")
