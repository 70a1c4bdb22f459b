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
import importlib.util
import json
import os
import platform
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from ..files import digest, read_regular
from ..isolation.sandbox import gpu_possible
from ..layout import LAYOUT, ROOT, Layout
from ..records import Expected
from .verdicts import OPTIONAL_DEVICES

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


def harness_digest() -> str:
    """Hash of the whole harness (every module of ``kata_harness/``): the code that observed the
    reference and composed what the referee sends, whichever part of it that was."""
    package = LAYOUT.harness
    return digest((str(path.relative_to(package)), path.read_bytes()) for path in sorted(package.rglob("*.py")))


def observing_environment() -> dict:
    """What the reference's observations may depend on besides the sources the digests cover: the
    interpreter, the system, the machine's instruction sets (torch picks its kernels by them) and
    the installed torch and NumPy (their version files: the version, the build, its CUDA or ROCm),
    read without importing either."""
    installed = {}
    for package in ("torch", "numpy"):
        found = importlib.util.find_spec(package)
        version = Path(found.origin).parent / "version.py" if found is not None and found.origin else None
        installed[package] = digest([(package, version.read_bytes() if version and version.is_file() else b"")])
    return {"python": sys.version, "system": sys.platform, "machine": platform.machine(), "cpu": _cpu_features(),
            "cpu_capability": os.environ.get("ATEN_CPU_CAPABILITY", ""), **installed}


def _cpu_features() -> str:
    """Hash of the CPU's instruction-set flags (Linux: ``/proc/cpuinfo``; elsewhere what ``platform`` says)."""
    try:
        with Path("/proc/cpuinfo").open(encoding="utf-8", errors="replace") as info:
            for line in info:
                if line.startswith(("flags", "Features", "isa")):
                    return digest([("cpu", " ".join(sorted(line.split(":", 1)[-1].split())).encode())])
    except OSError:
        pass
    return digest([("cpu", platform.processor().encode())])


@dataclass
class AnswerKey:
    """What ``freeze`` recorded: the expected observations and where they came from."""
    torch_version: str
    katas: dict          # kata -> digest of its sources when frozen
    reference: str       # digest of reference/ when frozen
    expected: dict[str, Expected]   # "kata.function" -> the referee's "expected" event
    stubs: dict = field(default_factory=dict)   # kata -> the stub file's text, for `grade.py reset`
    # What the observations also depended on: the whole harness and the environment (see
    # ``standing_in``); empty in a key frozen before these were recorded.
    observed_with: dict = field(default_factory=dict)

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

    def standing_in(self, root: Path = ROOT) -> dict[str, Expected]:
        """The recorded events ({"kata.function": event}) that are exactly what the referee would
        send if it observed ``root``'s reference now, so that grading against the live reference
        need not import torch a second time for them: the instructor's reference, its test modules,
        curriculum entries and the whole harness as frozen, the same interpreter, machine, torch and
        NumPy, and the same devices (a function with an optional device, a GPU, only where this
        machine can have none and the key observed none). Empty when anything of that changed."""
        if not self.observed_with or not _holds_instructor_reference(root) or \
                self.observed_with != {"harness": harness_digest(), "environment": observing_environment()}:
            return {}
        stale, no_gpu = self.staleness(root), not gpu_possible()
        return {name: event for name, event in self.expected.items()
                if event.get("kata") not in stale and event.get("kata") in self.katas
                and all(no_gpu and device not in event.get("observations", {})
                        for device in event.get("devices", []) if device in OPTIONAL_DEVICES)}



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


def recorded_reference(root: Path = ROOT) -> dict[str, Expected]:
    """What ``root``'s answer key knows of its reference exactly as observing it now would give
    (``AnswerKey.standing_in``; empty without a readable key)."""
    key = load(Layout(root).answer_key)
    return key.standing_in(root) if key is not None else {}


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
