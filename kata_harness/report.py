"""Verdicts, and the learner's message for each: their call, what differed, the pitfall, a hint.

Pure Python: used by grade.py's parent process as well as by pytest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .catalog import FunctionInfo
from .compare import Difference, Tolerance, compare_case, tidy_cut
from .text import MESSAGES, message, pick

BACKWARD_CUT = 300   # the grading child keeps this many characters of a backward() error

# What a learner adds for a name Python does not know (a NameError), by the name.
IMPORTS = {
    "torch": "import torch", "F": "import torch.nn.functional as F", "nn": "from torch import nn",
    "np": "import numpy as np", "numpy": "import numpy as np", "random": "import random", "math": "import math",
    "copy": "import copy", "os": "import os",
}

@dataclass
class Verdict:
    """The outcome for one function. ``difference`` and ``call`` explain a failure;
    ``reason`` (a message key with fields) explains an error or a todo."""

    status: str
    device: str = ""
    call: str = ""
    label: str | None = None
    difference: Difference | None = None
    reason: tuple = ()            # (message key, fields)
    printed: str = ""
    skipped: list = field(default_factory=list)   # devices not available here (e.g. cuda)


def judge(checks, tolerance: Tolerance, yours: dict, expected: dict) -> Verdict:
    """Compare the learner's observations with the reference's, device by device, case by case.

    ``yours`` and ``expected`` map a device name to its list of case observations.
    """
    for device, expected_cases in expected.items():
        your_cases = yours.get(device, [])
        for index, e in enumerate(expected_cases):
            if "raised" in e:
                return Verdict("error", device, e.get("call", ""),
                               reason=("error.reference", {"error": e["raised"]["message"]}))
            if index >= len(your_cases):
                break
            y = your_cases[index]
            raised = y.get("raised", {})
            if raised.get("todo"):
                return Verdict("todo", device, y["call"], printed=y.get("printed", ""))
            if raised.get("exit"):
                return Verdict("error", device, y["call"], printed=y.get("printed", ""),
                               reason=("error.exit", {"error": f"{raised['type']}: {raised['message']}"}))
            found = compare_case(y, e, checks, tolerance)
            if found:
                return Verdict("failed", device, e.get("call", ""), e.get("label"), found, printed=y.get("printed", ""))
    return Verdict("passed")


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
    if "{name}" in MESSAGES[key]["en"]:
        return message(key, lang, name=name + path)   # the path belongs to the name: `params[0].grad`
    return message(key, lang) + path


def section_text(section: str, lang: str) -> str:
    """A list of lesson sections as each language writes it: "§3.6, §4.5" or "§3.6、§4.5"."""
    return section.replace(", ", "、") if lang == "zh" else section


def lesson_text(section: str, lang: str) -> str:
    """Where to read about it: "(lesson §5.3, docs/lesson.md)" / "（讲义 §5.3，docs/lesson.zh.md）"."""
    inner = message("tutorial", lang, section=section_text(section, lang))
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
    if found.key == "aspect.kind":
        fields = {k: kind_text(v, lang) for k, v in fields.items()}
    if found.key == "aspect.rng":
        fields = {k: message("rng.changed" if v else "rng.unchanged", lang) for k, v in fields.items()}
    if found.key == "aspect.backward":
        names = {"ok": "backward.ok", "no graph": "backward.no_graph"}
        fields = {k: message(names[v], lang) if v in names else _backward_error(v) for k, v in fields.items()}
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


def pitfall_text(info: FunctionInfo, found: Difference | None, label: str | None, lang: str) -> str:
    """The pitfall that explains ``found``, with the lesson section to read."""
    aspect = found.aspect if found else "default"
    if aspect == "name_error":
        return _name_error_text(found, lang) + lesson_text(info.section, lang)
    text = info.pitfall(aspect, label)
    if text is None:
        text = MESSAGES.get(f"generic.{aspect}") or MESSAGES["generic.default"]
    return pick(text, lang) + lesson_text(info.section, lang)


def render(verdict: Verdict, info: FunctionInfo, lang: str = "en", *, solutions: str = "katas",
           hint: bool = True) -> str:
    """The learner's message for ``verdict`` (empty for a pass)."""
    if verdict.status == "passed":
        return ""
    file = f"{solutions}/{info.kata}.py"
    if verdict.status == "todo":
        return message("todo.message", lang, function=info.name, file=file)
    lines = []
    colon = "：" if lang == "zh" else ": "
    if verdict.call:
        device = f"   [{message('on_device', lang)}{colon}{verdict.device}]" if verdict.device else ""
        lines.append(f"{message('called', lang)}{colon}{verdict.call}{device}")
    if verdict.status == "error":
        key, fields = verdict.reason
        lines.append(message(key, lang, **{"file": file, "function": info.name, **fields}))
    else:
        lines.append(f"{message('differs', lang)}{colon}{_difference_text(verdict.difference, lang)}")
        lines.append(f"{message('pitfall', lang)}{colon}{pitfall_text(info, verdict.difference, verdict.label, lang)}")
        if hint and info.hints:
            lines.append(f"{message('hint', lang)}{colon}{info.hint(1, lang)}")
    if verdict.printed:
        printed = verdict.printed if len(verdict.printed) <= 300 else verdict.printed[:300] + " " + \
            message("truncated", lang)
        lines.append(f"{message('printed', lang)}{colon}{printed.rstrip()}")
    return "\n".join(lines)
