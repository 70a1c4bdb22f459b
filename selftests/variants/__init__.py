"""Alternative solutions used by the self-tests, one module per kata (same name as the kata).

``@wrong(function, *keywords)`` marks a classic wrong answer: grading it must fail, and the
learner's message must contain every keyword (case-insensitive), i.e. name the pitfall.
``@right(function)`` marks another correct idiom: it must pass, proving the tests are not
tuned to the reference's way of writing it.

Where several variants differ from one body by what they hand it (another optimizer, another
number of steps) or by one line, the body is a helper of their module (``_steps``, ``_fit_on``,
...) with the correct behaviour by default and an option per wrong line, so that each variant says
only what it changes; a variant whose mistake is the order of its loop writes its loop out. The
helpers stay in the kata's own module, none of them a decorator: ``selftests/classes.py`` copies a
module's text into a submission without its ``@`` lines and its ``from selftests.variants import``
line, and the copy must still run on its own.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass

from kata_harness.judging import answer_key
from kata_harness.judging.verdicts import judge
from kata_harness.layout import LAYOUT, ROOT
from kata_harness.observation.local import devices_for, load_kata_spec, load_module, observe_devices, tolerance_of
from selftests.exact import plain

_KEY = answer_key.load(LAYOUT.answer_key)


@dataclass
class Variant:
    kata: str
    function: str
    implementation: Callable
    correct: bool
    keywords: tuple = ()

    @property
    def id(self) -> str:
        return f"{self.kata}.{self.function}:{self.implementation.__name__}"


VARIANTS: list[Variant] = []


def _kata_of(fn) -> str:
    return fn.__module__.rsplit(".", 1)[-1]


def wrong(function: str, *keywords: str):
    """Register a classic wrong answer for ``function`` whose message must name ``keywords``."""
    if not keywords:
        raise ValueError("a wrong answer must say which words name its pitfall")

    def register(fn):
        VARIANTS.append(Variant(_kata_of(fn), function, fn, False, keywords))
        return fn
    return register


def right(function: str):
    """Register another correct way of writing ``function``."""
    def register(fn):
        VARIANTS.append(Variant(_kata_of(fn), function, fn, True))
        return fn
    return register


def load_all() -> list[Variant]:
    """Import every variant module and return all registered variants."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    return VARIANTS


def grade(variant: Variant):
    """The verdict on ``variant``: its function observed in this process and judged against the
    reference's observations (``_reference_observed``), as grade.py's parent judges them."""
    return graded_both_ways(variant)[0]


def graded_both_ways(variant: Variant):
    """The verdicts on ``variant`` against the live reference and against the answer key: its
    function observed once in this process, both judged as grade.py's parent judges (on what
    survives the trip through JSON)."""
    spec = load_kata_spec(variant.kata, LAYOUT.tests).function(variant.function)
    expected, skipped = _reference_observed(variant.kata, variant.function)
    yours = plain(observe_devices(variant.implementation, spec, variant.kata, list(expected)))
    tolerance = tolerance_of(spec)
    live = judge(spec.aspects, tolerance, yours, expected)
    keyed = judge(spec.aspects, tolerance, yours, _KEY.expected[f"{variant.kata}.{variant.function}"]["observations"])
    live.skipped = keyed.skipped = skipped
    return live, keyed


@functools.cache
def _reference_observed(kata: str, function: str) -> tuple[dict, list]:
    """The reference's observations of ``kata.function`` on the devices this machine has, and the
    devices it skips, made once per process: every observation starts from the same global state
    (``seeding``), so each one would be this one."""
    spec = load_kata_spec(kata, LAYOUT.tests).function(function)
    reference = getattr(load_module(ROOT / "reference" / f"{kata}.py"), function)
    devices, skipped = devices_for(spec)
    return plain(observe_devices(reference, spec, kata, devices)), skipped
