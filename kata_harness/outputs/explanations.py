"""The learner's message for each verdict: their call, what differed, the pitfall, a hint.

Pure Python: used by grade.py's parent process as well as by pytest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..aspects.compare import Difference, tidy_cut
from ..content.curriculum import DEFAULT_LESSON, FunctionInfo, Lesson
from ..content.messages import LANGUAGES, MESSAGES, message, pick
from ..judging.verdicts import Status, Verdict
from ..records import NEW_MEMORY

BACKWARD_CUT = 300   # the grading child keeps this many characters of a backward() error


# What a learner adds for a name Python does not know (a NameError), by the name.
IMPORTS = {
    "torch": "import torch", "F": "import torch.nn.functional as F", "nn": "from torch import nn",
    "np": "import numpy as np", "numpy": "import numpy as np", "random": "import random", "math": "import math",
    "copy": "import copy", "os": "import os",
}


UNRELATED_ERRORS = ("error.syntax", "error.import", "error.no_file")   # errors that no kata hint explains
# Characters that would act on a terminal, a log viewer or an editor instead of being shown: every
# control character but the line break and the tab (escape sequences, carriage return, backspace,
# bell), the marks that reorder what follows them (bidirectional overrides and isolates), the line
# separators some viewers break lines at, and lone surrogates (no UTF-8 file or stream can hold one).
_ACTING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]")


def visible(text: str) -> str:
    """``text`` from learner code (its exception's message, what it printed, its call as the child
    rendered it) with every character that would act rather than show written as an escape
    (``\\x1b``): a message can then neither move the cursor over the score, recolour or hide it,
    nor reorder the lines around it, in a terminal, a CI log or any file it is copied to."""
    return _ACTING.sub(lambda found: found.group().encode("unicode_escape").decode("ascii"), str(text))


def _where_text(where: dict, lang: str) -> str:
    """Where a difference was found, in words: "the input `model.weight` after the call",
    "the result[0]", or what a probe observes ("three random.random() draws after the call")."""
    if not where:
        return ""
    key, name, path = where["key"], where.get("name", ""), where.get("path", "")
    if key == "where.probe":
        described = f"probe.{name}"
        text = message(described, lang) if described in MESSAGES else message(key, lang, name=name)
        return f"{text} {path}" if path else text
    if "{path}" in MESSAGES[key]["en"]:   # the path belongs to the result: `the result.weight after ...`
        return message(key, lang, name=name, path=path)
    if "{name}" in MESSAGES[key]["en"]:
        return message(key, lang, name=name + path)   # the path belongs to the name: `params[0].grad`
    return message(key, lang) + path


def section_text(section: str, lang: str) -> str:
    """A list of lesson sections as each language writes it: "§3.6, §4.5" or "§3.6、§4.5"."""
    return section.replace(", ", "、") if lang == "zh" else section


def lesson_text(section: str, lang: str, lesson: Lesson = DEFAULT_LESSON) -> str:
    """Where to read about it, in ``lesson``'s notes: "(lesson §5.3, docs/lesson.md)" /
    "（讲义 §5.3，docs/lesson.zh.md）"."""
    inner = message("tutorial", lang, section=section_text(section, lang), notes=lesson.notes[lang])
    return f"（{inner}）" if lang == "zh" else f" ({inner})"


def kind_text(kind: list, lang: str) -> str:
    """Put a description's kind into words: "a list of 3", "a NumPy array", "None"."""
    name, cls, count = kind
    if name in ("list", "tuple", "dict", "namedtuple"):
        return message("kind.container", lang, name=cls or name, count=count)
    if name == "tensor":
        return message("kind.tensor", lang)
    if name == "ndarray":
        return message("kind.ndarray", lang)
    if name == "none":
        return "None"
    if name in ("int", "float", "bool", "str", "complex"):
        return message("kind.scalar", lang, name=name)
    return message("kind.other", lang, name=cls or name)


def _difference_text(found: Difference, lang: str) -> str:
    fields = dict(found.fields)
    if found.key == "aspect.same_object" and fields.get("yours") == NEW_MEMORY:
        return message("aspect.new_memory", lang, where=_where_text(found.where, lang))
    if found.key == "aspect.kind":
        fields = {k: kind_text(v, lang) for k, v in fields.items()}
    if found.key == "aspect.rng":
        fields = {k: message("rng.changed" if v else "rng.unchanged", lang) for k, v in fields.items()}
    if found.key == "aspect.backward":
        names = {"ok": "backward.ok", "no graph": "backward.no_graph"}
        fields = {k: message(names[v], lang) if v in names else message("backward.error", lang, error=_backward_error(v))
                  for k, v in fields.items()}
    return message(found.key, lang, where=_where_text(found.where, lang), **fields)


def _backward_error(text: str) -> str:
    """A backward() error as the child reported it, without a word cut in half."""
    kind, sep, detail = str(text).partition(": ")
    return f"{kind}{sep}{tidy_cut(detail, BACKWARD_CUT)}" if sep else str(text)


def _name_error_text(found: Difference, lang: str) -> str:
    """A NameError is a missing import or a typo, whatever the kata is about."""
    match = re.search(r"name '([^']+)' is not defined", found.fields.get("error", ""))
    name = match.group(1) if match else "?"
    if name in IMPORTS:
        return message("generic.name_error_import", lang, name=name, line=IMPORTS[name])
    return message("generic.name_error", lang, name=name)


NAME_ERROR = "name_error"   # the aspect (and pitfall key) of a missing import or a typo, whatever the kata


def _situation(found: Difference | None) -> str | None:
    """A pitfall key more precise than the aspect's, for a difference that tells more than its
    aspect: an input that is the same object with its memory replaced (``p.data = ...``) is
    ``new_memory``, not a rebinding, which the inputs aspect's text explains."""
    if found is not None and found.key == "aspect.same_object" and found.fields.get("yours") == NEW_MEMORY:
        return "new_memory"
    return None


def pitfall_key(info: FunctionInfo, found: Difference | None, label: str | None) -> str:
    """The key of the pitfall that explains ``found``: the curriculum's (the case label's, else the
    situation's, else the aspect's, else its default), else the aspect itself (then a generic text
    explains it); ``name_error`` for a missing import or a typo."""
    aspect = found.aspect if found else "default"
    if aspect == NAME_ERROR:
        return NAME_ERROR
    situation = _situation(found)
    if situation is not None and situation in info.pitfalls and not (label and label in info.pitfalls):
        return situation
    return info.pitfall_key(aspect, label) or aspect


def first_hint(info: FunctionInfo, found: Difference | None, label: str | None, lang: str) -> str:
    """The level-1 hint shown with a failure: the one the curriculum wrote for the pitfall that
    explains it (``pitfall_hints``), else hint 1; none for a missing import or a typo, which a
    hint about the kata would only mislead."""
    key = pitfall_key(info, found, label)
    if key == NAME_ERROR:
        return ""
    if key in info.pitfall_hints:
        return pick(info.pitfall_hints[key], lang)
    return info.hint(1, lang)


def _pitfall_texts(info: FunctionInfo, key: str) -> dict:
    """The pitfall text of ``key`` in both languages: the curriculum's, else the generic one."""
    return info.pitfalls.get(key) or MESSAGES.get(f"generic.{key}") or MESSAGES["generic.default"]


def pitfall_text(info: FunctionInfo, found: Difference | None, label: str | None, lang: str) -> str:
    """The pitfall that explains ``found``, with the lesson section to read."""
    key = pitfall_key(info, found, label)
    if key == NAME_ERROR:
        assert found is not None   # the key is "default" without a difference
        return _name_error_text(found, lang) + lesson_text(info.section, lang, info.lesson)
    return pick(_pitfall_texts(info, key), lang) + lesson_text(info.section, lang, info.lesson)


TITLE_LIMIT = {"en": 90, "zh": 40}   # characters: one line of a table cell (a Chinese character is wide)
# A full stop that ends a sentence: not the end of "e.g.", "i.e." or of an ellipsis ("x += ...").
_SENTENCE_END = {"en": re.compile(r"(?<!e\.g)(?<!i\.e)(?<!\.)\.(?= |$)"), "zh": re.compile(r"。")}
_CLAUSE_ENDS = {"en": (": ", "; ", " (", ", "), "zh": ("：", "；", "（", "，")}


def short_title(text: str, lang: str) -> str:
    """A pitfall's title, derived from its text (the curriculum writes texts, not titles): the first
    sentence; one longer than ``TITLE_LIMIT`` is cut at its last clause boundary within the limit
    (past its first fifth), else between words, and ends in "…"."""
    end = _SENTENCE_END[lang].search(text)
    sentence = text[:end.start()] if end else text.rstrip("。.")
    limit = TITLE_LIMIT[lang]
    if len(sentence) <= limit:
        return sentence
    head = sentence[:limit]
    for clause_end in _CLAUSE_ENDS[lang]:
        cut = head.rfind(clause_end)
        if cut >= limit // 5:
            return sentence[:cut] + "…"
    cut = head.rfind(" ")
    return (head[:cut] if cut > limit // 5 else head) + "…"


def pitfall_title(info: FunctionInfo, key: str) -> dict:
    """The short title of the pitfall ``key`` of ``info`` in both languages (``short_title`` of its
    text; a missing import or a typo has a title of its own)."""
    if key == NAME_ERROR:
        return dict(MESSAGES["title.name_error"])
    texts = _pitfall_texts(info, key)
    return {lang: short_title(pick(texts, lang), lang) for lang in LANGUAGES}


def pitfall_words(info: FunctionInfo, key: str, lang: str) -> str:
    """The pitfall ``key`` of ``info`` as a gradebook names it, in ``lang``, with the lesson section
    to read (a missing import or a typo: its title, since the name it lacked is not kept)."""
    if key == NAME_ERROR:
        return pick(MESSAGES["title.name_error"], lang) + lesson_text(info.section, lang)
    return pick(_pitfall_texts(info, key), lang) + lesson_text(info.section, lang)


def hint_for(info: FunctionInfo, key: str, lang: str) -> str:
    """The level-1 hint shown with the pitfall ``key`` of ``info`` (none for a missing import or a
    typo, which no kata hint explains)."""
    if key == NAME_ERROR:
        return ""
    if key in info.pitfall_hints:
        return pick(info.pitfall_hints[key], lang)
    return info.hint(1, lang)


@dataclass
class Explanation:
    """A learner's message in parts, built once: the text report, the JSON and the official
    formats each show the parts they need. Empty parts are left out."""

    lang: str
    called: str = ""      # the learner's call, with the device it ran on
    differed: str = ""    # what differed; for an error or a todo, the whole explanation
    pitfall: str = ""     # the pitfall that explains the difference, with the lesson section
    hint: str = ""        # the first hint
    printed: str = ""     # what the learner's code printed (shortened)

    def __post_init__(self) -> None:
        # The parts learner code can put text into (the rest is the curriculum's).
        self.called, self.differed, self.printed = visible(self.called), visible(self.differed), visible(self.printed)

    def lines(self, *, hint: bool = True) -> list[str]:
        """The message's lines in reading order; ``hint=False`` leaves the hint out."""
        lines = [message("line.called", self.lang, call=self.called)] if self.called else []
        if self.differed:
            lines.append(message("line.differs", self.lang, text=self.differed) if self.pitfall else self.differed)
        if self.pitfall:
            lines.append(message("line.pitfall", self.lang, text=self.pitfall))
        if hint and self.hint:
            lines.append(message("line.hint", self.lang, text=self.hint))
        if self.printed:
            lines.append(message("line.printed", self.lang, text=self.printed))
        return lines

    def text(self, *, hint: bool = True) -> str:
        """The message as the learner reads it."""
        return "\n".join(self.lines(hint=hint))


def explain(verdict: Verdict, info: FunctionInfo, lang: str = "en", *, solutions: str = "katas") -> Explanation:
    """The explanation of ``verdict`` in ``lang`` (all parts empty for a pass)."""
    if verdict.status == Status.PASSED:
        return Explanation(lang)
    file = f"{solutions}/{info.kata}.py"
    if verdict.status == Status.TODO:
        return Explanation(lang, differed=message("todo.message", lang, function=info.name, file=file),
                           hint=info.hint(1, lang) if info.hints else "")
    called = verdict.call
    if called and verdict.device:
        called += message("line.device", lang, device=_device_text(verdict, lang))
    printed = verdict.printed.rstrip()
    if len(printed) > 300:
        printed = printed[:300] + " " + message("truncated", lang)
    if verdict.status == Status.ERROR:
        assert verdict.reason is not None   # every error verdict carries its reason
        key, fields = verdict.reason
        # A file that does not compile or import says nothing about the kata's pitfall yet.
        hint = "" if key in UNRELATED_ERRORS else info.hint(1, lang)
        return Explanation(lang, called, message(key, lang, **{"file": file, "function": info.name, **fields}),
                           hint=hint, printed=printed)
    assert verdict.difference is not None   # judge gives every failure its difference
    found = verdict.difference
    return Explanation(lang, called, _difference_text(found, lang), pitfall_text(info, found, verdict.label, lang),
                       first_hint(info, found, verdict.label, lang), printed)


def _device_text(verdict: Verdict, lang: str) -> str:
    """The device of the call that showed the difference: a probe that hands the function a tensor
    on another device (a simulated GPU) names that device, not the device of the case's own call."""
    where = verdict.difference.where if verdict.difference else {}
    simulated = f"device.probe.{where.get('name')}"
    if where.get("key") == "where.probe" and simulated in MESSAGES:
        return message(simulated, lang)
    return verdict.device


def render(verdict: Verdict, info: FunctionInfo, lang: str = "en", *, solutions: str = "katas",
           hint: bool = True) -> str:
    """The learner's message for ``verdict`` (empty for a pass); a todo's hint is never shown
    here (the stub's own text says what to do)."""
    explanation = explain(verdict, info, lang, solutions=solutions)
    if verdict.status == Status.TODO:
        hint = False
    return explanation.text(hint=hint)


def with_hint(entry: dict, lang: str) -> str:
    """A JSON function entry's message followed by its first hint: what a learner reads in full."""
    if not entry["hint"]:
        return entry["message"]
    return "\n".join(filter(None, [entry["message"], message("line.hint", lang, text=entry["hint"])]))
