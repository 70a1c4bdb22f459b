"""Classes for the class-report self-tests and benchmark: a small real class to grade with known
pitfalls, a varied one drawn from the self-tests' wrong answers, and a synthetic gradebook of any size."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from kata_harness.content.curriculum import load_curriculum
from kata_harness.layout import LAYOUT
from kata_harness.outputs.explanations import pitfall_title

ROOT = Path(__file__).resolve().parent.parent

# Classic wrong answers appended to a copy of the reference (a later def replaces the earlier one),
# with the pitfall key that the gradebook must name for each.
WRONG = {
    "k09_contiguity.flatten_transposed": ("def flatten_transposed(x):\n    return x.t().view(-1)\n", "raises"),
    "k11_broadcasting.normalize_rows": ("def normalize_rows(x):\n    return x / x.sum(dim=1)\n", "values"),
    "k12_joining.stack_samples": ("def stack_samples(samples):\n    return torch.cat(samples)\n", "shape"),
}
HOSTILE_NAME = "<img src=x onerror=alert(1)>"
HOSTILE_ERROR = "</script><img src=x onerror=alert(2)><script>alert(3)</script>"
HOSTILE_FUNCTION = "k15_bmi.bmi_report"   # the hostile submission fails only this one, by raising HOSTILE_ERROR
NOT_STARTED_FROM = "k15"   # the half-solved submissions have no kata files from this one on


def _copy(source: Path, target: Path, wrong: list[str] = (), keep=lambda name: True) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.glob("k*.py")):
        if not keep(path.name):
            continue
        text = path.read_text(encoding="utf-8")
        for qualified in wrong:
            if qualified.startswith(path.stem + "."):
                text += "\n\n" + WRONG[qualified][0]
        (target / path.name).write_text(text, encoding="utf-8")


def make_class(directory: Path) -> dict:
    """A class of seven in ``directory``; returns {name: (kind, wrong functions)}: two solved, three
    half solved (the first katas, some with a known wrong answer; no files from k15 on), a stub,
    and a hostile one (a folder named like markup, raising an exception that holds </script>)."""
    half = {"half-a": list(WRONG), "half-b": list(WRONG)[:2], "half-c": list(WRONG)[:1]}
    made: dict = {}
    for name in ("solved-1", "solved-2"):
        _copy(ROOT / "reference", directory / name)
        made[name] = ("solved", [])
    for name, wrong in half.items():
        _copy(ROOT / "reference", directory / name, wrong, keep=lambda file: file < NOT_STARTED_FROM)
        made[name] = ("half", wrong)
    _copy(ROOT / "katas", directory / "stub")
    made["stub"] = ("stub", [])
    _copy(ROOT / "reference", directory / HOSTILE_NAME)
    kata, function = HOSTILE_FUNCTION.split(".")
    with (directory / HOSTILE_NAME / f"{kata}.py").open("a", encoding="utf-8") as file:
        file.write(f"\n\ndef {function}(*args, **kwargs):\n    raise ValueError({HOSTILE_ERROR!r})\n")
    made[HOSTILE_NAME] = ("hostile", [HOSTILE_FUNCTION])
    return made


def varied_class(directory: Path, count: int, seed: int = 0, wrong_share: float = 0.2) -> None:
    """``count`` submissions that start from the reference and make, for each function with
    probability ``wrong_share``, one of its classic wrong answers (``selftests/variants``), and
    leave a few katas as their stubs: a class with many pitfalls, for the benchmark and the
    README's screenshot."""
    from selftests.variants import load_all

    wrong: dict[str, list] = {}
    for variant in load_all():
        if not variant.correct:
            wrong.setdefault(f"{variant.kata}.{variant.function}", []).append(variant)
    chance = random.Random(seed)
    for number in range(count):
        folder = directory / f"student{number:03d}"
        folder.mkdir(parents=True)
        for path in sorted((ROOT / "reference").glob("k*.py")):
            if chance.random() < 0.05:   # this kata not started
                shutil.copy(ROOT / "katas" / path.name, folder / path.name)
                continue
            kata = next(k for k in load_curriculum(LAYOUT.curriculum) if k.name == path.stem)
            chosen = {f.name: chance.choice(wrong[f.qualified]) for f in kata.functions
                      if f.qualified in wrong and chance.random() < wrong_share}
            text = path.read_text(encoding="utf-8")
            if chosen:   # the variants' module (its helpers and imports), then the kata's names bound to them
                text += "\n\n" + _without_registration((ROOT / "selftests" / "variants" / path.name).read_text(encoding="utf-8"))
                text += "".join(f"\n{name} = {variant.implementation.__name__}\n" for name, variant in chosen.items())
            (folder / path.name).write_text(text, encoding="utf-8")


def _without_registration(source: str) -> str:
    """A variants module without what registers its functions (the import and the decorators)."""
    return "\n".join(line for line in source.splitlines()
                     if not line.startswith(("@", "from selftests.variants import"))) + "\n"


def synthetic_gradebook(count: int, seed: int = 0) -> list[dict]:
    """A JSON gradebook of ``count`` submissions shaped as ``grade.py batch`` writes it: every
    function passed, failed by one of its own pitfalls (with a call and what differed of a typical
    length), an error, or a stub."""
    chance = random.Random(seed)
    functions = [f for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions]
    titles = {(f.qualified, key): pitfall_title(f, key) for f in functions for key in f.pitfalls}
    rows = []
    for number in range(count):
        row: dict = {"submission": f"student{number:04d}", "score": 0, "max_score": sum(f.points for f in functions)}
        details = {}
        skill = chance.random()
        for info in functions:
            draw = chance.random()
            if draw < skill:
                entry: dict = {"status": "passed", "points": info.points}
            elif draw < skill + (1 - skill) * 0.7:
                key = chance.choice(sorted(info.pitfalls))
                entry = {"status": "failed", "points": 0, "pitfall": key, "pitfall_title": titles[info.qualified, key],
                         "section": info.section, "call": f"{info.name}(tensor([[0.5, 1.5, 2.5], [3.5, 4.5, 5.5]]))",
                         "differed": {"en": "the result: values differ at [0, 1]: yours 1.5, expected 0.75",
                                      "zh": "返回值：数值在 [0, 1] 处不同：你的结果是 1.5，应当是 0.75"}}
            elif draw < skill + (1 - skill) * 0.8:
                entry = {"status": "error", "points": 0, "reason": "error.timeout"}
            else:
                entry = {"status": "todo", "points": 0}
            row[info.qualified] = entry["points"]
            row["score"] += entry["points"]
            details[info.qualified] = entry
        row["notes"] = ""
        row["functions"] = details
        rows.append(row)
    return rows
