"""The curriculum: katas, their functions, points, pitfalls and hints (``curriculum/*.toml``).

One TOML file per kata holds everything a learner reads about it: titles, the tutorial
section, points, the pitfall explained for each aspect that can catch it, and hints from a
nudge to nearly the answer. Pure Python: grade.py reads it without importing torch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from .text import pick

from .files import ROOT, read_regular

CURRICULUM_DIR = ROOT / "curriculum"


@dataclass
class FunctionInfo:
    """What the curriculum says about one kata function."""

    kata: str
    name: str
    title: dict
    points: int
    section: str
    pitfalls: dict
    hints: list

    @property
    def qualified(self) -> str:
        """``kata.function``, the name used everywhere."""
        return f"{self.kata}.{self.name}"

    def pitfall(self, aspect: str, label: str | None = None) -> dict | None:
        """The pitfall text for a difference found by ``aspect`` (or by the case ``label``)."""
        for key in (label, aspect, "default"):
            if key and key in self.pitfalls:
                return self.pitfalls[key]
        return None

    def hint(self, level: int, lang: str = "en") -> str:
        """Hint ``level`` (1-based) in ``lang``; empty when there is no such level."""
        return pick(self.hints[level - 1], lang) if 1 <= level <= len(self.hints) else ""


@dataclass
class KataInfo:
    """One kata: its module name, titles, tutorial sections and functions in order."""

    name: str
    title: dict
    sections: str
    functions: list = field(default_factory=list)

    @property
    def number(self) -> str:
        """``k05`` of ``k05_devices``."""
        return self.name.split("_", 1)[0]

    @property
    def topic(self) -> str:
        """``devices`` of ``k05_devices``."""
        return self.name.split("_", 1)[1] if "_" in self.name else self.name

    def function(self, name: str) -> FunctionInfo | None:
        """The function called ``name``, if the kata has one."""
        return next((f for f in self.functions if f.name == name), None)


def load_kata(path: Path) -> KataInfo:
    """Read one ``curriculum/kNN_*.toml`` file."""
    data = tomllib.loads(read_regular(path).decode("utf-8"))
    kata = KataInfo(name=path.stem, title=data["title"], sections=data.get("sections", ""))
    for name, entry in data.get("functions", {}).items():
        kata.functions.append(FunctionInfo(
            kata=kata.name, name=name, title=entry["title"], points=int(entry.get("points", 1)),
            section=entry.get("section", kata.sections), pitfalls=entry.get("pitfalls", {}),
            hints=list(entry.get("hints", [])),
        ))
    return kata


def load_curriculum(directory: Path = CURRICULUM_DIR) -> list[KataInfo]:
    """All katas in order of their file names (k01_..., k02_..., then any added ones)."""
    return [load_kata(path) for path in sorted(Path(directory).glob("k*.toml"))]


class UnknownSelector(ValueError):
    """A selector that names no kata and no function."""

    def __init__(self, selector: str):
        super().__init__(selector)
        self.selector = selector


def _match_kata(word: str, katas: list[KataInfo]) -> KataInfo | None:
    for kata in katas:
        if word in (kata.name, kata.number, kata.topic):
            return kata
    return None


def resolve(selectors: list[str], katas: list[KataInfo]) -> list[FunctionInfo]:
    """Functions named by selectors such as ``k05_devices``, ``k05``, ``devices``,
    ``k05_devices.add_bias`` or a bare ``add_bias``; all functions when there are none."""
    if not selectors:
        return [f for kata in katas for f in kata.functions]
    chosen: list[FunctionInfo] = []
    for selector in selectors:
        kata_word, _, function_word = selector.partition(".")
        kata = _match_kata(kata_word, katas)
        if kata and not function_word:
            found = kata.functions
        elif kata and kata.function(function_word):
            found = [kata.function(function_word)]
        elif not function_word:
            found = [f for k in katas for f in k.functions if f.name == kata_word]
        else:
            found = []
        if not found:
            raise UnknownSelector(selector)
        chosen.extend(f for f in found if f not in chosen)
    return chosen
