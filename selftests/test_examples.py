"""Golden results per example submission, as exercism's test runners keep them
(``test/example-*/results.json``): ``selftests/examples/NAME/katas/`` holds a submission's kata
files, and beside it what grade.py prints for it in each result format: ``results.json``
(``--format json``), ``classroom.json``, ``gradescope.json`` and ``summary.md`` (``--format
markdown``). Each example grades the katas whose files it holds, against the answer key, with a
2-second time limit; ``stubs`` and ``solved`` hold no kata files but grade the project's own
``katas/`` and ``reference/`` (``FROM_PROJECT``), so that they cannot drift from them. There is
one example per outcome a learner can meet (``OUTCOMES``), and one that mixes them; ``tampered``
is graded in a student template whose grading files were edited.

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
import shutil
import sys
import time

import pytest

from kata_harness import api, commands
from selftests.gradekit import ROOT, check_classroom, check_schema, graded_in, run, student_template
from selftests.warm import KEPT, environment

# The golden results name the learner's files as grade.py shows them on Linux and macOS.
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the golden results name files with '/'")

EXAMPLES = ROOT / "selftests" / "examples"
FORMATS = {"json": "results.json", "classroom": "classroom.json", "gradescope": "gradescope.json",
           "markdown": "summary.md"}
UPDATE = bool(os.environ.get("KATA_UPDATE_GOLDEN"))
# Each outcome a learner can meet, and the example that shows it.
OUTCOMES = {"solved": "solved", "not started": "stubs", "a wrong answer": "wrong", "an exception": "raises",
            "a hang": "hanging", "a crash": "crashes", "a syntax error": "syntax_error",
            "a missing function": "missing_function", "an edited grading file": "tampered"}
IN_TEMPLATE = ("tampered",)   # graded in a copy of the student template, as its own grade.py grades it
# Examples that are one of the project's folders, graded there: (that folder, the katas graded).
FROM_PROJECT = {"stubs": ("katas", ("k01_creation", "k16_leaves")),
                "solved": ("reference", ("k01_creation", "k16_leaves"))}


def _solutions(example: str) -> tuple[str, list[str]]:
    """The folder ``example``'s kata files are in (relative to the project) and its katas."""
    if example in FROM_PROJECT:
        folder, katas = FROM_PROJECT[example]
        return folder, list(katas)
    return (f"selftests/examples/{example}/katas",
            sorted(path.stem for path in (EXAMPLES / example / "katas").glob("k*.py")))


def _options(example: str) -> list[str]:
    """grade.py's arguments for ``example`` (but --format): its katas, its folder, the answer key."""
    folder, katas = _solutions(example)
    return [*katas, "--solutions", folder, "--against", "answer-key", "--lang", "en", "--timeout", "2"]


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


def _check_golden(example: str, produced: dict) -> None:
    check_schema(json.loads(produced["json"]))
    check_classroom(json.loads(produced["classroom"]))
    for fmt, name in FORMATS.items():
        golden = EXAMPLES / example / name
        if UPDATE:
            golden.write_text(produced[fmt], encoding="utf-8")
        assert produced[fmt] == golden.read_text(encoding="utf-8"), f"{example}: {name} differs"


@pytest.mark.parametrize("example", sorted(path.name for path in EXAMPLES.iterdir()
                                           if path.is_dir() and path.name not in IN_TEMPLATE))
def test_each_example_grades_as_its_golden_results(example):
    _check_golden(example, _graded(example))


@pytest.mark.e2e
def test_the_tampered_example_grades_as_its_golden_results(tmp_path_factory, tmp_path):
    """Right answers in a student template where the student edited a grading file: every format
    names the file, and the official ones award nothing."""
    project = tmp_path / "template"
    shutil.copytree(student_template(tmp_path_factory), project)
    for path in (EXAMPLES / "tampered" / "katas").glob("k*.py"):
        shutil.copy(path, project / "katas" / path.name)
    with (project / "conftest.py").open("a", encoding="utf-8") as conftest:
        conftest.write("# edited by the student\n")
    katas = sorted(path.stem for path in (EXAMPLES / "tampered" / "katas").glob("k*.py"))
    produced = {}
    for fmt in FORMATS:   # one run per format: the official ones are official runs
        result = graded_in(project, *katas, "--lang", "en", "--timeout", "2", "--format", fmt,
                           env={"KATA_SANDBOX": "none", "KATA_SECRET": None})
        produced[fmt] = _stable(fmt, result.render())
    doc = json.loads(produced["json"])
    assert doc["integrity"] == {"ok": False, "modified": ["conftest.py"]}
    assert json.loads(produced["gradescope"])["score"] == 0
    _check_golden("tampered", produced)


@pytest.mark.e2e
def test_grade_py_prints_the_golden_results():
    """What this module renders in-process is what grade.py prints (unsandboxed, as the examples
    are graded here: the document says which)."""
    example = "mixed"
    done = run(*_options(example), "--format", "json", env={"KATA_SANDBOX": "none"})
    assert done.returncode == 0, done.stderr
    assert _stable("json", done.stdout) == (EXAMPLES / example / FORMATS["json"]).read_text(encoding="utf-8")


def test_there_is_an_example_for_each_outcome_and_it_shows_it():
    """One example per outcome a learner can meet, each saying it in its own words."""
    said = {name: json.loads((EXAMPLES / name / "results.json").read_text(encoding="utf-8"))
            for name in OUTCOMES.values()}
    words = {"solved": "", "stubs": "not implemented yet", "wrong": "What differed", "raises": "raised TypeError",
             "hanging": "took longer", "crashes": "died", "syntax_error": "syntax error",
             "missing_function": "no function", "tampered": ""}
    for name, doc in said.items():
        messages = " ".join(f["message"] for kata in doc["katas"] for f in kata["functions"])
        assert words[name] in messages, (name, words[name])
    assert all(f["status"] == "passed" for kata in said["solved"]["katas"] for f in kata["functions"])
    assert not said["tampered"]["integrity"]["ok"] and said["solved"]["integrity"]["ok"]
    statuses = {f["status"] for doc in said.values() for kata in doc["katas"] for f in kata["functions"]}
    assert statuses == {"passed", "failed", "todo", "error"}


def test_examples_have_every_golden_file():
    assert set(FROM_PROJECT) <= {folder.name for folder in EXAMPLES.iterdir()}
    for folder in EXAMPLES.iterdir():
        assert (folder / "katas").is_dir() != (folder.name in FROM_PROJECT), folder
        assert sorted(path.name for path in folder.iterdir() if path.is_file()) == sorted(FORMATS.values()), folder
