"""The answer key: what the reference does, recorded, so a template without ``reference/`` grades.

It also keeps the pristine stubs, so that ``grade.py reset`` can restore them wherever the
learner's ``katas/`` has been edited.

``python grade.py freeze`` has the referee child observe every function of the reference (the
same observations live grading compares) and writes them, with the torch version and hashes of
the sources they came from, to ``tests/answer_key.dat``. The file is compressed and encoded so
that its values cannot be read or grepped casually; it is not encryption.
"""

from __future__ import annotations

import base64
import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from ..files import digest, read_regular
from ..layout import LAYOUT, ROOT, Layout
from ..records import Expected

MAGIC = b"KATA-ANSWER-KEY 1\n"


def _digest(paths) -> str:
    return digest((path.name, path.read_bytes() if path.exists() else b"<missing>") for path in paths)


REFERENCE_CHANGED = "reference/ changed"   # why every kata is stale when the reference is not the frozen one
# The harness modules that decide what an observation holds (not how it is judged or shown).
OBSERVING = ("observation/spec.py", "observation/observe.py", "observation/describe.py", "observation/local.py",
             "observation/containers.py", "observation/seeding.py")


def kata_digest(kata: str, root: Path = ROOT) -> str:
    """Hash of what a kata's expected observations depend on besides the reference: its test
    module and curriculum entry, and the harness code that observes."""
    harness = [Layout(root).harness / name for name in OBSERVING]
    return _digest([Layout(root).spec(kata), Layout(root).curriculum / f"{kata}.toml", *harness])


def reference_digest(root: Path = ROOT) -> str:
    """Hash of every reference module (what the key's observations came from)."""
    return _digest(sorted(Layout(root).reference.glob("*.py")))


@dataclass
class AnswerKey:
    """What ``freeze`` recorded: the expected observations and where they came from."""
    torch_version: str
    katas: dict          # kata -> digest of its sources when frozen
    reference: str       # digest of reference/ when frozen
    expected: dict[str, Expected]   # "kata.function" -> the referee's "expected" event
    stubs: dict = field(default_factory=dict)   # kata -> the stub file's text, for `grade.py reset`

    def stale_katas(self, root: Path = ROOT) -> list[str]:
        """The one staleness rule, which every command that grades against the key follows: the
        katas whose recorded observations may no longer be the reference's (see ``staleness``)."""
        return list(self.staleness(root))

    def staleness(self, root: Path = ROOT) -> dict:
        """{kata: why the key is out of date for it}: its test module, curriculum entry or the
        observing harness changed since the freeze; or, for every kata, the reference changed.
        The reference counts only in an instructor's project: a student template has none, and a
        ``reference/`` someone put into one is not what the key was frozen from."""
        stale = {kata: "its test module, curriculum entry or the observing harness changed"
                 for kata, digest in self.katas.items() if kata_digest(kata, root) != digest}
        if _holds_instructor_reference(root) and self.reference != reference_digest(root):
            stale.update({kata: REFERENCE_CHANGED for kata in self.katas if kata not in stale})
        return stale



def encode(key: AnswerKey) -> bytes:
    """The key as bytes: a header line, then base64 of the compressed JSON."""
    data = json.dumps(key.__dict__, allow_nan=True).encode()   # key order matters (probes are checked in order)
    return MAGIC + base64.b64encode(zlib.compress(data, 9)) + b"\n"


def decode(raw: bytes) -> AnswerKey:
    """Read bytes written by ``encode``."""
    if not raw.startswith(MAGIC):
        raise ValueError("not an answer key")
    return AnswerKey(**json.loads(zlib.decompress(base64.b64decode(raw[len(MAGIC):]))))


def load(path: Path = LAYOUT.answer_key) -> AnswerKey | None:
    """The answer key, or None when there is none (or it cannot be read)."""
    try:
        return decode(read_regular(Path(path)))
    except (OSError, ValueError, zlib.error, json.JSONDecodeError, TypeError):
        return None


def write(key: AnswerKey, path: Path = LAYOUT.answer_key) -> int:
    """Write the key to ``path``; returns its size in bytes."""
    raw = encode(key)
    Path(path).write_bytes(raw)
    return len(raw)


def _holds_instructor_reference(root: Path) -> bool:
    """Whether ``root`` holds the instructor's ``reference/``: a folder, outside a student template
    (where one a student added is not what the key was frozen from)."""
    layout = Layout(root)
    return layout.reference.is_dir() and not layout.in_template()
