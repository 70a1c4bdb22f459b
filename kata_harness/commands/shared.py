"""What several subcommands share: the functions a selector names, the solutions folder, the secret,
the source of expected results; each refusal a ``UsageError``."""

from __future__ import annotations

from pathlib import Path

from ..content.curriculum import UnknownSelector, lessons_of, load_curriculum, resolve
from ..content.messages import message
from ..judging import hidden
from ..judging.expectations import NoExpectations, open_source
from ..layout import ROOT
from . import UsageError


def select(selectors: list[str], lang: str):
    """The curriculum and the functions ``selectors`` name (all when there are none); raises
    ``UsageError`` naming the selector and the valid katas when a selector names nothing."""
    katas = load_curriculum()
    try:
        return katas, resolve(selectors, katas)
    except UnknownSelector as error:
        names = ", ".join(k.name for k in katas)
        lessons = ", ".join(f"{lesson.name} ({lesson.pack})" if lesson.pack else lesson.name for lesson in lessons_of(katas))
        raise UsageError(message("grade.unknown_selector", lang, selector=error.selector, katas=names)
                         + message("grade.valid_lessons", lang, lessons=lessons)) from None


def solutions_dir(name: str) -> Path:
    """``--solutions DIR``: a folder here (absolute, or relative to the current folder) when there
    is one, else a folder of the project (``katas``, ``reference``) wherever grade.py runs from."""
    path = Path(name)
    if path.is_absolute() or (Path.cwd() / path).is_dir():
        return path.resolve()
    return ROOT / path


def existing_solutions(name: str, lang: str) -> Path:
    """The solutions folder; raises ``UsageError`` when there is no such folder."""
    solutions = solutions_dir(name)
    if not solutions.is_dir():
        raise UsageError(message("error.no_file", lang, file=name))
    return solutions


def secret_for(path: str | None, command: str):
    """The instructor's secret (``hidden.read_secret``: ``--secret-file`` or ``KATA_SECRET``; None
    when there is none); raises ``UsageError`` when the secret file cannot be read."""

    try:
        return hidden.read_secret(path)
    except OSError as error:
        raise UsageError(f"{command}: cannot read the secret file: {error}") from None


def expectations_for(against: str | None, lang: str, *, official: bool = False):
    """The one source of expected results (``expectations.open_source``); raises ``UsageError``
    when there is none."""

    try:
        return open_source(ROOT, against, official=official)
    except NoExpectations as missing:
        raise UsageError(message(str(missing), lang)) from None
