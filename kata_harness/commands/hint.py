"""``grade.py hint FUNCTION [--level N]``: one hint, by level."""

from __future__ import annotations

from ..api import select
from ..content.messages import default_language, message, pick
from ..layout import LAYOUT
from ..outputs.explanations import section_text
from . import UsageError


def run(args, *, started: float) -> int:
    """``grade.py hint FUNCTION [--level N]``: one hint, by level; says so when there are no more."""
    lang = args.lang or default_language()
    _, functions = select([args.function], lang, LAYOUT)
    info = functions[0]
    levels = len(info.hints)
    if not levels:
        raise UsageError(message("hint.none", lang, function=info.qualified))
    if args.level > levels:
        raise UsageError(message("hint.no_more", lang, function=info.qualified, levels=levels))
    sections = section_text(info.section, lang)
    section = f"（{sections}）" if lang == "zh" else f" ({sections})"
    colon = "：" if lang == "zh" else ": "
    print(f"{info.qualified} — {pick(info.title, lang)}{section}")
    print(f"{message('hint', lang)} {args.level}/{levels}{colon}{info.hint(args.level, lang)}")
    return 0
