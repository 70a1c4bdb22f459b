"""Golden results per example submission, as exercism's test runners keep them
(``test/example-*/results.json``): ``selftests/examples/NAME/katas/`` holds a submission's kata
files, and beside it what grade.py prints for it in each result format: ``results.json``
(``--format json``), ``classroom.json``, ``gradescope.json`` and ``summary.md`` (``--format
markdown``). Each example grades the katas whose files it holds, against the answer key, with a
2-second time limit.

After a deliberate change of the formats or the messages, rewrite them with
``KATA_UPDATE_GOLDEN=1 python -m pytest selftests/test_examples.py`` and review the diff.

Each example is graded once, as grade.py's grade command grades it (the run its command line
settles, ``api.grade_submission``) in this process, on the warm zygote the self-tests share; the
four formats are rendered from that one result as grade.py renders the one it is asked for. One
example is also graded by grade.py itself, to show that this is what grade.py prints.
"""

from __future__ import annotations

import json
import os
import sys
import time

import pytest

from kata_harness import api, commands
from selftests.gradekit import ROOT, check_schema, run
from selftests.test_classroom import _validate_classroom
from selftests.warm import KEPT, environment

# The golden results name the learner's files as grade.py shows them on Linux and macOS.
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the golden results name files with '/'")

EXAMPLES = ROOT / "selftests" / "examples"
FORMATS = {"json": "results.json", "classroom": "classroom.json", "gradescope": "gradescope.json",
           "markdown": "summary.md"}
UPDATE = bool(os.environ.get("KATA_UPDATE_GOLDEN"))


def _options(example: str) -> list[str]:
    """grade.py's arguments for ``example`` (but --format): its katas, its folder, the answer key."""
    katas = sorted(path.stem for path in (EXAMPLES / example / "katas").glob("k*.py"))
    return [*katas, "--solutions", f"selftests/examples/{example}/katas", "--against", "answer-key",
            "--lang", "en", "--timeout", "2"]


def _stable(fmt: str, output: str) -> str:
    """``output`` with what changes from run to run (durations, wall time) set to 0."""
    if fmt == "markdown":
        return output
    document = json.loads(output)
    for test in document.get("tests", []):
        if "duration" in test:
            test["duration"] = 0
    if "execution_time" in document:
        document["execution_time"] = 0
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def _graded(example: str) -> dict:
    """{format: what grade.py prints for ``example``}, from one grading of the run grade.py's command
    line settles (``api.from_args``), rendered in every format as grade.py renders the one asked for."""
    parsed = commands.parse([*_options(example), "--format", "json"], time.monotonic())
    with environment({"KATA_SANDBOX": "none", "KATA_SECRET": None}):
        result = api.grade_submission(api.from_args(parsed.args, processes=KEPT))
    return {fmt: _stable(fmt, result.render(fmt)) for fmt in FORMATS}


@pytest.mark.parametrize("example", sorted(path.name for path in EXAMPLES.iterdir() if (path / "katas").is_dir()))
def test_each_example_grades_as_its_golden_results(example):
    produced = _graded(example)
    check_schema(json.loads(produced["json"]))
    _validate_classroom(json.loads(produced["classroom"]))
    for fmt, name in FORMATS.items():
        golden = EXAMPLES / example / name
        if UPDATE:
            golden.write_text(produced[fmt], encoding="utf-8")
        assert produced[fmt] == golden.read_text(encoding="utf-8"), f"{example}: {name} differs"


def test_grade_py_prints_the_golden_results():
    """What this module renders in-process is what grade.py prints (unsandboxed, as the examples
    are graded here: the document says which)."""
    example = "mixed"
    done = run(*_options(example), "--format", "json", env={"KATA_SANDBOX": "none"})
    assert done.returncode == 0, done.stderr
    assert _stable("json", done.stdout) == (EXAMPLES / example / FORMATS["json"]).read_text(encoding="utf-8")


def test_the_examples_cover_what_a_grading_can_say():
    """Between them: a pass, a failure, a todo, a crash, a hang, a syntax error, an exception."""
    said = [json.loads((path / "results.json").read_text(encoding="utf-8")) for path in sorted(EXAMPLES.iterdir())
            if (path / "katas").is_dir()]
    statuses = {f["status"] for doc in said for kata in doc["katas"] for f in kata["functions"]}
    messages = " ".join(f["message"] for doc in said for kata in doc["katas"] for f in kata["functions"])
    assert statuses == {"passed", "failed", "todo", "error"}
    for words in ("died", "took longer", "syntax", "raised ValueError", "not implemented yet"):
        assert words in messages, words


def test_examples_have_every_golden_file():
    for folder in EXAMPLES.iterdir():
        assert (folder / "katas").is_dir(), folder
        assert sorted(path.name for path in folder.iterdir() if path.is_file()) == sorted(FORMATS.values()), folder
