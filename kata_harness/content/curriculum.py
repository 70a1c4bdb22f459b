"""The curriculum: katas, their functions, points, pitfalls and hints (``curriculum/*.toml``).

One TOML file per kata holds everything a learner reads about it: titles, the tutorial
section, points, the pitfall explained for each aspect that can catch it, and hints from a
nudge to nearly the answer. The katas come in lessons (``curriculum/lessons.toml``): each lesson
is a pack of katas with its own lesson notes, and a kata names its lesson once, with
``lesson = "NAME"`` in its file (one that names none belongs to the first lesson). Pure Python:
grade.py reads it without importing torch.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

import copy
import difflib
import functools
import json
import re

from ..files import read_regular
from .messages import LANGUAGES, pick

LESSONS_FILE = "lessons.toml"   # beside the katas' files in curriculum/


@dataclass(frozen=True)
class Lesson:
    """One lesson: a pack of katas with its own lesson notes. ``name`` (``lesson2``) and ``pack``
    (``autograd``) both select it on the command line; ``notes`` is the notes file per language,
    which every message of its katas points to."""

    name: str
    pack: str
    title: dict
    notes: dict


# The lesson of a curriculum without a lessons file (an instructor's own project): its notes are
# the first lesson's.
DEFAULT_LESSON = Lesson(name="lesson1", pack="", title={"en": "Lesson 1", "zh": "第 1 课"},
                        notes={"en": "docs/lesson.md", "zh": "docs/lesson.zh.md"})


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
    pitfall_hints: dict = field(default_factory=dict)   # pitfall key -> the level-1 hint shown with it (explanations.first_hint)
    lesson: Lesson = DEFAULT_LESSON

    @property
    def qualified(self) -> str:
        """``kata.function``, the name used everywhere."""
        return f"{self.kata}.{self.name}"

    def pitfall_key(self, aspect: str, label: str | None = None) -> str | None:
        """The key of the pitfall text explaining a difference found by ``aspect`` (or by the case
        ``label``): the label's own text first, then the aspect's, then the default."""
        return next((key for key in (label, aspect, "default") if key and key in self.pitfalls), None)

    def pitfall(self, aspect: str, label: str | None = None) -> dict | None:
        """The pitfall text for a difference found by ``aspect`` (or by the case ``label``)."""
        key = self.pitfall_key(aspect, label)
        return None if key is None else self.pitfalls[key]

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
    lesson: Lesson = DEFAULT_LESSON

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


def read_toml(path: Path) -> dict:
    """The data of the TOML file at ``path``. A file's bytes are parsed once per process: the cache
    is keyed by the bytes themselves, so an edited file is parsed again, and each caller gets its
    own copy to change."""
    return copy.deepcopy(_parse_toml(read_regular(path)))


@functools.lru_cache(maxsize=256)
def _parse_toml(data: bytes) -> dict:
    return tomllib.loads(data.decode("utf-8"))


def load_lessons(directory: Path) -> list[Lesson]:
    """The lessons of ``directory``'s ``lessons.toml`` (a project's ``curriculum/``), in its order
    (``DEFAULT_LESSON`` alone without it)."""
    path = Path(directory) / LESSONS_FILE
    if not path.exists():
        return [DEFAULT_LESSON]
    data = read_toml(path)
    return [Lesson(name=name, pack=entry.get("pack", ""), title=entry["title"], notes=entry["notes"])
            for name, entry in data.items()] or [DEFAULT_LESSON]


def load_kata(path: Path, lessons: list[Lesson] | None = None) -> KataInfo:
    """Read one ``curriculum/kNN_*.toml`` file (``lessons``: those it may belong to; the first by default)."""
    data = read_toml(path)
    lessons = lessons or [DEFAULT_LESSON]
    lesson = next((each for each in lessons if each.name == data.get("lesson")), lessons[0])
    kata = KataInfo(name=path.stem, title=data["title"], sections=data.get("sections", ""), lesson=lesson)
    for name, entry in data.get("functions", {}).items():
        kata.functions.append(FunctionInfo(
            kata=kata.name, name=name, title=entry["title"], points=int(entry.get("points", 1)),
            section=entry.get("section", kata.sections), pitfalls=entry.get("pitfalls", {}),
            hints=list(entry.get("hints", [])), pitfall_hints=entry.get("pitfall_hints", {}), lesson=lesson,
        ))
    return kata


def load_curriculum(directory: Path) -> list[KataInfo]:
    """All katas of ``directory`` (a project's ``curriculum/``, ``Layout.curriculum``) in order of
    their file names (k01_..., k02_..., then any added ones), each with its lesson."""
    lessons = load_lessons(directory)
    return [load_kata(path, lessons) for path in sorted(Path(directory).glob("k*.toml"))]


def lessons_of(katas: list[KataInfo]) -> list[Lesson]:
    """The lessons ``katas`` belong to, in the order of their first kata."""
    found: dict[str, Lesson] = {}
    for kata in katas:
        found.setdefault(kata.lesson.name, kata.lesson)
    return list(found.values())


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


def _match_lesson(word: str, katas: list[KataInfo]) -> Lesson | None:
    return next((lesson for lesson in lessons_of(katas) if word in (lesson.name, lesson.pack)), None)


def resolve(selectors: list[str], katas: list[KataInfo]) -> list[FunctionInfo]:
    """Functions named by selectors such as ``k05_devices``, ``k05``, ``devices``,
    ``k05_devices.add_bias``, a bare ``add_bias``, or a lesson (``lesson2``, or its pack's name);
    all functions when there are none."""
    if not selectors:
        return [f for kata in katas for f in kata.functions]
    chosen: list[FunctionInfo] = []
    for selector in selectors:
        kata_word, _, function_word = selector.partition(".")
        kata = _match_kata(kata_word, katas)
        lesson = None if kata or function_word else _match_lesson(kata_word, katas)
        if kata and not function_word:
            found = kata.functions
        elif lesson:
            found = [f for k in katas if k.lesson.name == lesson.name for f in k.functions]
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


def closest_selector(selector: str, katas: list[KataInfo]) -> str | None:
    """The selector a mistyped ``selector`` probably meant, over katas, functions and lessons alike: ``k05``
    for ``k5``, ``devices`` for ``devcies``, ``add_bias`` for ``add_bais``, ``k05_devices.add_bias``
    for ``k05_devices.add_bais`` or ``k05_device.add_bias``; None when nothing is close."""
    kata_word, dot, function_word = selector.partition(".")
    number = re.fullmatch(r"[kK]0*(\d+)", kata_word)
    if number:   # k5, K005: the number written another way
        kata_word = f"k{int(number.group(1)):02d}"
    if dot:
        kata = _match_kata(kata_word, katas) or next(
            (k for k in katas for close in difflib.get_close_matches(kata_word, [k.name, k.topic], n=1)), None)
        if kata is None:
            return None
        if kata.function(function_word):
            return f"{kata.name}.{function_word}"
        found = difflib.get_close_matches(function_word, [f.name for f in kata.functions], n=1)
        return f"{kata.name}.{found[0]}" if found else None
    if _match_kata(kata_word, katas):
        return kata_word
    words = [word for kata in katas for word in (kata.name, kata.topic, *(f.name for f in kata.functions))]
    words += [word for lesson in lessons_of(katas) for word in (lesson.name, lesson.pack) if word]
    found = difflib.get_close_matches(kata_word, words, n=1)
    return found[0] if found else None


def whole_kata(selector: str, katas: list[KataInfo]) -> KataInfo | None:
    """The kata ``selector`` names as a whole (``k03``, ``devices``, ``k03_devices``); None when it
    names a function or nothing (``grade.py reset`` restores a whole kata's file only then)."""
    return None if "." in selector else _match_kata(selector, katas)


# --- the curriculum file's shape: what `grade.py check` accepts, what `release` writes ----------
# Every key a curriculum file may hold, with what `load_kata` does with it; anything else is a typo
# that would be silently ignored (a `hint = [...]` that never shows, a `pitfalls.devcie` never used).
TOP_KEYS = ("title", "sections", "lesson", "functions")
LESSON_KEYS = ("pack", "title", "notes")
FUNCTION_KEYS = ("title", "points", "section", "pitfalls", "pitfall_hints", "hints")
HINT_LEVELS = 3    # a nudge, the API to use, nearly the answer


def did_you_mean(word: str, known) -> str:
    """`` (did you mean `KEY`?)`` for the known key closest to a mistyped ``word`` ("" when none is close)."""

    match = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean `{match[0]}`?)" if match else ""


def _texts(value, where: str, problems: list) -> None:
    """A bilingual text ``{en = "...", zh = "..."}``: both languages, nothing else."""

    if not isinstance(value, dict):
        problems.append(f"`{where}` must be a table {{ en = \"...\", zh = \"...\" }}")
        return
    for key in value:
        if key not in LANGUAGES:
            problems.append(f"unknown key `{where}.{key}`{did_you_mean(key, LANGUAGES)}")
    for lang in LANGUAGES:
        if not isinstance(value.get(lang), str) or not value[lang].strip():
            problems.append(f"`{where}` has no {lang} text")


def _titled_tables(entries: dict, prefix: str, known, problems: list) -> Iterator[tuple[str, dict]]:
    """(where, table) for each entry of ``entries`` that is a table, ``where`` being ``prefix`` and
    its name, after checking that its keys are among ``known`` and that its title is bilingual; what
    does not hold, and an entry that is no table, go into ``problems``."""
    for name, entry in entries.items():
        where = f"{prefix}{name}"
        if not isinstance(entry, dict):
            problems.append(f"`{where}` is not a table")
            continue
        problems += [f"unknown key `{where}.{key}`{did_you_mean(key, known)}" for key in entry if key not in known]
        _texts(entry.get("title"), f"{where}.title", problems)
        yield where, entry


def lint_lessons(data: dict) -> list[str]:
    """What is wrong with a parsed ``curriculum/lessons.toml``: a lesson without a bilingual title or
    notes for each language, an unknown key, a pack's name used twice."""
    problems: list[str] = []
    for name, entry in _titled_tables(data, "", LESSON_KEYS, problems):
        _texts(entry.get("notes"), f"{name}.notes", problems)
    packs = [str(entry["pack"]) for entry in data.values() if isinstance(entry, dict) and entry.get("pack")]
    problems += [f"the pack name `{pack}` is used twice" for pack in sorted({p for p in packs if packs.count(p) > 1})]
    return problems


def lint_kata(data: dict, lessons: list[Lesson] | None = None) -> list[str]:
    """What is wrong with one parsed curriculum file: unknown keys (named, with the likely key
    meant), texts missing a language, hints short of three levels, points that are not a whole
    number of at least 1, a lesson that ``lessons`` does not hold. Whether each pitfall names
    something the tests can find is checked against the test module (``grade.py check``)."""
    problems = [f"unknown key `{key}`{did_you_mean(key, TOP_KEYS)}" for key in data if key not in TOP_KEYS]
    names = [lesson.name for lesson in lessons or [DEFAULT_LESSON]]
    if "lesson" in data and data["lesson"] not in names:
        problems.append(f"`lesson = {_toml_value(data['lesson'])}` names no lesson of curriculum/{LESSONS_FILE}"
                        f"{did_you_mean(str(data['lesson']), names)}")
    _texts(data.get("title"), "title", problems)
    functions = data.get("functions", {})
    if not isinstance(functions, dict) or not functions:
        return [*problems, "no [functions.NAME] table"]
    for where, entry in _titled_tables(functions, "functions.", FUNCTION_KEYS, problems):
        points = entry.get("points", 1)
        if not isinstance(points, int) or isinstance(points, bool) or points < 1:
            problems.append(f"`{where}.points` must be a whole number of at least 1")
        pitfalls = _lint_pitfalls(entry, where, problems)
        _lint_pitfall_hints(entry, pitfalls, where, problems)
        _lint_hints(entry, where, problems)
    return problems


def _lint_pitfalls(entry: dict, where: str, problems: list) -> dict:
    """A function's pitfall texts: a table with a ``default``, each text bilingual. Returns the table."""
    pitfalls = entry.get("pitfalls", {})
    if not isinstance(pitfalls, dict):
        problems.append(f"`{where}.pitfalls` is not a table")
        pitfalls = {}
    if "default" not in pitfalls:
        problems.append(f"`{where}` has no `pitfalls.default`")
    for key, texts in pitfalls.items():
        _texts(texts, f"{where}.pitfalls.{key}", problems)
    return pitfalls


def _lint_pitfall_hints(entry: dict, pitfalls: dict, where: str, problems: list) -> None:
    """A function's level-1 hints per pitfall: each bilingual, each for a pitfall the function has."""
    pitfall_hints = entry.get("pitfall_hints", {})
    if not isinstance(pitfall_hints, dict):
        problems.append(f"`{where}.pitfall_hints` is not a table")
        return
    for key, texts in pitfall_hints.items():
        _texts(texts, f"{where}.pitfall_hints.{key}", problems)
        if key not in pitfalls:   # shown only with its own pitfall text
            problems.append(f"`{where}.pitfall_hints.{key}` has no `pitfalls.{key}` to go with, so it would "
                            f"never be shown{did_you_mean(key, pitfalls)}")


def _lint_hints(entry: dict, where: str, problems: list) -> None:
    """A function's hint ladder: a list of three levels, each bilingual."""
    hints = entry.get("hints", [])
    if not isinstance(hints, list):
        problems.append(f"`{where}.hints` is not a list")
        hints = []
    if len(hints) < HINT_LEVELS:
        problems.append(f"`{where}.hints` has {len(hints)} levels, {HINT_LEVELS} are needed")
    for level, texts in enumerate(hints, 1):
        _texts(texts, f"{where}.hints[{level}]", problems)


def _toml_key(key: str) -> str:

    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_value(key)


def _toml_value(value) -> str:
    """``value`` as a TOML value on one line (strings as basic strings, tables inline)."""

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        # A JSON string is a TOML basic string: the same escapes, control characters as \uXXXX.
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML for {type(value).__name__}")


def dumps_kata(data: dict, header: str = "") -> str:
    """A parsed curriculum file written back in the project's layout (``header``: comment lines
    to keep at the top). ``tomllib.loads`` of the result gives ``data`` again."""
    lines = [header.rstrip("\n")] if header.strip() else []
    lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in data.items() if k != "functions"]
    for name, entry in data.get("functions", {}).items():
        lines += ["", f"[functions.{_toml_key(name)}]"]
        for key, value in entry.items():
            if key in ("pitfalls", "pitfall_hints") and isinstance(value, dict):
                lines += [f"{key}.{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()]
            elif key == "hints" and isinstance(value, list):
                lines += ["hints = ["] + [f"  {_toml_value(v)}," for v in value] + ["]"]
            else:
                lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    text = "\n".join(lines) + "\n"
    if tomllib.loads(text) != data:   # never write a curriculum that reads back differently
        raise ValueError("the curriculum does not read back as written")
    return text


def cap_hints(path: Path, level: int) -> bool:
    """Keep only hint levels 1 to ``level`` in the curriculum file ``path`` (its leading comment
    lines stay; the level-1 hints written for single pitfalls go with level 1); True when it changed."""
    text = read_regular(path).decode("utf-8")
    data = tomllib.loads(text)
    changed = False
    for entry in data.get("functions", {}).values():
        if len(entry.get("hints", [])) > level:
            entry["hints"] = entry["hints"][:level]
            changed = True
        if level < 1 and entry.get("pitfall_hints"):
            del entry["pitfall_hints"]
            changed = True
    if changed:
        lines = text.splitlines(keepends=True)
        header = "".join(lines[:next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))])
        path.write_text(dumps_kata(data, header), encoding="utf-8")
    return changed
