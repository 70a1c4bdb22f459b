"""Generated submissions for the batch self-test and benchmark: solved, stub, wrong and crashing."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Classic wrong answers appended to a copy of the reference (a later def replaces the earlier one).
WRONG = {
    "k01_creation.py": "\ndef filled(shape, value):\n    return torch.full(shape, value)\n",
    "k11_broadcasting.py": "\ndef normalize_rows(x):\n    return x / x.sum(dim=1)\n",
    "k12_joining.py": "\ndef stack_samples(samples):\n    return torch.cat(samples)\n",
}
CRASH = {"k05_devices.py": "\ndef add_bias(x, bias):\n    import os\n    os._exit(1)\n"}


def _copy(source: Path, target: Path, extra: dict | None = None) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for path in source.glob("k*.py"):
        text = path.read_text(encoding="utf-8") + (extra or {}).get(path.name, "")
        (target / path.name).write_text(text, encoding="utf-8")


def make(directory: Path, count: int = 6) -> dict:
    """Write ``count`` submissions into ``directory``; returns {name: kind}."""
    kinds = ["solved", "stub", "wrong", "crash", "repo"]
    made = {}
    for number in range(count):
        kind = kinds[number % len(kinds)]
        name = f"student{number:02d}-{kind}"
        folder = directory / name
        if kind == "solved":
            _copy(ROOT / "reference", folder)
        elif kind == "stub":
            _copy(ROOT / "katas", folder)
        elif kind == "wrong":
            _copy(ROOT / "reference", folder, WRONG)
        elif kind == "crash":
            _copy(ROOT / "reference", folder, CRASH)
        else:   # a whole repository whose own tests were made easier: they must be ignored
            _copy(ROOT / "reference", folder / "katas", WRONG)
            shutil.copytree(ROOT / "tests", folder / "tests")
            (folder / "tests" / "test_k01_creation.py").write_text("KATA = None\n")
        made[name] = kind
    return made
