"""Helpers for self-tests that run grade.py and pytest as a learner would, in a subprocess."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from kata_harness import api, commands
from kata_harness.layout import Layout
from selftests.once import built_once
from selftests.schema import schema_errors
from selftests.warm import KEPT, environment, grade_here

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, timeout: float = 300, cwd: Path = ROOT, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``python grade.py ARGS`` and return the finished process (text output); ``env``: variables
    to set for it."""
    return subprocess.run([sys.executable, str(ROOT / "grade.py"), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env={**os.environ, **(env or {})})


def grade_json(*args: str, env: dict | None = None) -> dict:
    """grade.py's document for ``grade.py ARGS --format json`` (exactly one on stdout), graded in
    this process on warm children (``warm.grade_here``)."""
    done = grade_here(*args, "--format", "json", env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def statuses(doc: dict) -> dict:
    """``{"k01_creation.filled": "passed", ...}`` from a JSON document."""
    return {f"{k['kata']}.{f['name']}": f["status"] for k in doc["katas"] for f in k["functions"]}


def functions(doc: dict) -> dict:
    return {f"{k['kata']}.{f['name']}": f for k in doc["katas"] for f in k["functions"]}


def solutions_from_reference(target: Path) -> Path:
    """A solutions folder holding a copy of every reference module (all correct)."""
    target.mkdir(parents=True, exist_ok=True)
    for path in (ROOT / "reference").glob("k*.py"):
        shutil.copy(path, target / path.name)
    return target


def check_schema(doc: dict) -> None:
    """Assert that ``doc`` follows grade.py's JSON document (docs/result-format.md): the published
    schema docs/result.schema.json field by field, then the rules between fields a schema cannot say."""
    errors = schema_errors(doc)
    assert not errors, "\n".join(errors)
    assert 0 <= doc["score"] <= doc["max_score"]
    assert sum(k["score"] for k in doc["katas"]) == doc["score"]
    assert sum(k["max_score"] for k in doc["katas"]) == doc["max_score"]
    for kata in doc["katas"]:
        assert sum(f["score"] for f in kata["functions"]) == kata["score"]
        assert sum(f["max_score"] for f in kata["functions"]) == kata["max_score"]
        for function in kata["functions"]:
            # The message is built once from its parts: the hint is a field of its own, never repeated.
            assert not function["hint"] or function["hint"] not in function["message"]
            assert function["differed"] in function["message"] and function["pitfall"] in function["message"]
            assert bool(function["pitfall"]) == (function["status"] == "failed")
            assert function["score"] == (function["max_score"] if function["status"] == "passed" else 0)
            assert (function["message"] == "") == (function["status"] == "passed")


def check_classroom(result: dict, total: int | None = None) -> None:
    """Assert that ``result`` is a well-formed document of the autograding reporter's format: one
    test per point, each field as the reporter reads it, the status the tests' add up to.
    ``total``: the fallback a failed grading writes (one error test out of that real maximum)."""
    assert result["version"] == 1
    assert result["status"] in ("pass", "fail", "error")
    # One test per point; the fallback (grading failed) is one error test out of the real maximum.
    assert isinstance(result["max_score"], int)
    assert result["max_score"] == (total if total is not None else len(result["tests"]))
    for test in result["tests"]:
        assert set(test) == {"name", "status", "score", "message", "test_code", "filename", "line_no", "duration"}
        assert test["status"] in ("pass", "fail", "error")
        assert test["score"] == (1 if test["status"] == "pass" else 0)   # every test carries the same points
        assert isinstance(test["message"], str) and len(test["message"]) <= 500
        assert test["test_code"].startswith("python grade.py")
        assert test["filename"].endswith(".py") and isinstance(test["line_no"], int) and test["line_no"] >= 1
        assert isinstance(test["duration"], (int, float)) and test["duration"] >= 0
    statuses = {t["status"] for t in result["tests"]}
    assert result["status"] == ("fail" if "fail" in statuses else "error" if "error" in statuses else "pass")


def parse_outputs(text: str) -> dict:
    """The step's outputs as the runner reads GITHUB_OUTPUT: ``name=value`` lines and
    ``name<<DELIMITER`` ... ``DELIMITER`` blocks."""
    outputs, lines = {}, iter(text.split("\n"))
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            value = []
            for inner in lines:
                if inner == delimiter:
                    break
                value.append(inner)
            else:
                raise AssertionError(f"output {name} has no closing delimiter")
            outputs[name] = "\n".join(value)
        elif "=" in line:
            name, value = line.split("=", 1)
            outputs[name] = value
    return outputs


PROJECT_FILES = ("grade.py", "pyproject.toml", "conftest.py")
PROJECT_FOLDERS = ("kata_harness", "tests", "curriculum", "katas", "reference", "docs", "templates")


def project_copy(target: Path, *, reference: bool = True) -> Path:
    """A copy of the project's grading files in ``target`` (without ``reference/`` when asked),
    where ``target / "grade.py"`` runs as the project's own does."""
    target.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_FILES:
        shutil.copy2(ROOT / name, target / name)
    for name in PROJECT_FOLDERS:
        if (ROOT / name).exists() and (reference or name != "reference"):
            shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return target


def student_template(tmp_path_factory) -> Path:
    """The student template ``grade.py release DIR`` writes, released once for the whole test run
    (``built_once``) and shared by every module that only reads it. Written in this process by the
    release command's own engine, without its self-check (``verified=False``): a release grades
    twice in fresh processes to check itself, which test_cli.py and test_hidden.py run end to end,
    and the modules that read this template grade it themselves. Tests copy it before they change
    anything."""
    def release(folder: Path) -> None:
        from kata_harness.platforms import student

        assert student.release(Layout(ROOT), folder / "template", verified=False) == []

    return built_once(tmp_path_factory, "student-template", release) / "template"


def graded_in(root: Path, *args: str, env: dict | None = None) -> api.Result:
    """What ``root``'s own ``python grade.py ARGS`` grades, run from ``root`` (a student template, a
    copy of the project), as a ``Result``: the run its command line settles for that tree
    (``api.from_args(root=root)``: its curriculum, keys, manifest and solutions), graded in this
    process on the kept children, which run its specs where they are this project's byte for byte
    (its own children where they are not). ``.doc`` is its JSON document, ``.render()`` what it
    prints. ``env``: variables to set (None removes one). Only ``grade``'s command line belongs here."""
    here = Path.cwd()
    with environment(env):
        os.chdir(root)   # a relative --solutions names a folder of the tree, as from its grade.py
        try:
            parsed = commands.parse(list(args), time.monotonic())
            assert parsed.name == "grade", parsed.name
            return api.grade_submission(api.from_args(parsed.args, processes=KEPT, root=root))
        finally:
            os.chdir(here)


def run_in(root: Path, *args: str, timeout: float = 300, **options) -> subprocess.CompletedProcess:
    """Run ``root``'s own ``grade.py ARGS`` from ``root`` (text output)."""
    return subprocess.run([sys.executable, str(root / "grade.py"), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=root, **options)


def read_until(process, marker: str, timeout: float = 120) -> str:
    """The lines a running grade.py (watch) prints, up to the first that holds ``marker``; fails
    after ``timeout`` seconds even when the process prints nothing at all."""
    if process not in _LINES:
        _LINES[process] = queue.Queue()
        threading.Thread(target=_read_lines, args=(process, _LINES[process]), daemon=True).start()
    lines, seen, until = _LINES[process], [], time.monotonic() + timeout
    while True:
        try:
            line = lines.get(timeout=max(until - time.monotonic(), 0))
        except queue.Empty:
            break
        if line is None:
            break
        seen.append(line)
        if marker in line:
            return "".join(seen)
    raise AssertionError(f"no '{marker}' in:\n{''.join(seen)}")


def rest_of_output(process, timeout: float = 30) -> str:
    """What a process that ``read_until`` followed prints until it ends (within ``timeout`` seconds)."""
    process.wait(timeout=timeout)
    lines, rest = _LINES.pop(process), []
    for line in iter(lambda: lines.get(timeout=timeout), None):
        rest.append(line)
    return "".join(rest)


_LINES: dict = {}   # a running process's output lines, read by a thread of its own


def _read_lines(process, into: queue.Queue) -> None:
    for line in iter(process.stdout.readline, ""):
        into.put(line)
    into.put(None)
