#!/usr/bin/env python3
"""Classroom 50's autograder for the PyTorch pitfall katas: practice feedback on every submission.

Classroom 50's runner (its ``runner.py``, which the autograde-runner workflow fetches) runs this file
with the student's checkout as the working folder, this bundle beside it. This script:

1. installs PyTorch (CPU build) and the test packages, pinned, wheels only, unless they import here;
2. copies the student's kata files (``katas/kNN_*.py``: regular files of at most 1 MB) into this
   bundle's own copy of the katas: nothing else of the student's repository is run or read;
3. grades them with the bundle's grade.py, the public cases against the answer key (learner code
   runs only in grade.py's children, sandboxed where bubblewrap works);
4. then, from this process and after grading, writes ``./result.json`` (schema
   ``classroom50/result/v1``: one test per function, integer points summing to the suite's),
   ``./release-body.md`` (the learner's report: a table per kata, the first failure with its
   pitfall) and the step's ``status`` and ``summary``, replacing whatever learner code left there.

It exits 0 whatever happens: when grading fails, result.json holds 0 of the real maximum and
release-body.md says why (a non-zero exit would make the runner record an error of 0 out of 0).
The student controls the repository and the runner's first steps: this is practice feedback.
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BUNDLE = Path(__file__).resolve().parent
sys.path.insert(0, str(BUNDLE))   # this bundle's harness (never the student's)
sys.dont_write_bytecode = True

from kata_harness.content.curriculum import load_curriculum  # noqa: E402 (after the bundle is on the path)
from kata_harness.content.messages import message  # noqa: E402 (after the bundle is on the path)
from kata_harness.files import read_regular  # noqa: E402 (after the bundle is on the path)
from kata_harness.outputs import official, summary  # noqa: E402 (after the bundle is on the path)

WORKSPACE = Path.cwd()                     # the student's checkout, as the runner starts us
RESULT = WORKSPACE / "result.json"
BODY = WORKSPACE / "release-body.md"
SETTINGS = BUNDLE / "classroom50.json"     # what `grade.py release --classroom50` chose: lang
TORCH = ("torch==2.13.0", "--index-url", "https://download.pytorch.org/whl/cpu")
PACKAGES = ("numpy==2.4.6", "pytest==9.2.0")
INSTALL_TIMEOUT = 420                      # seconds per pip command
DEADLINE = 480                             # grade.py prints a complete result within this many seconds
KATA_BYTES = 1_000_000                     # a kata file is a few KB; anything bigger is not one
BODY_LIMIT = 100_000                       # characters: GitHub refuses a release body over 125,000


def _run(command: list, timeout: float) -> subprocess.CompletedProcess:
    """Run ``command`` from the bundle (a ``python -m`` run from the checkout would import its folders)."""
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "KATA_SECRET")}
    return subprocess.run(command, cwd=BUNDLE, env=environment, capture_output=True, encoding="utf-8",
                          errors="replace", timeout=timeout)


def _tail(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def install() -> str | None:
    """None when torch, numpy and pytest import here (installed first if they do not), else why not."""
    probe = [sys.executable, "-c", "import torch, numpy, pytest"]
    if _run(probe, 300).returncode == 0:
        return None
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--only-binary", ":all:"]
    for packages in (TORCH, PACKAGES):
        try:
            done = _run(pip + list(packages), INSTALL_TIMEOUT)
        except (OSError, subprocess.SubprocessError) as error:
            return f"pip could not run: {error}"
        if done.returncode != 0:
            return f"installing {packages[0]} failed: {_tail(done.stderr) or done.returncode}"
    return None if _run(probe, 300).returncode == 0 else "PyTorch does not import after installing it"


def prepare_sandbox() -> None:
    """On a GitHub-hosted runner, let bubblewrap create its namespaces (Ubuntu 24.04 forbids that to
    programs without an AppArmor profile). Best effort: without it, grading runs unsandboxed and says so."""
    if os.environ.get("GITHUB_ACTIONS") == "true" and shutil.which("bwrap") and shutil.which("sudo"):
        try:
            _run(["sudo", "-n", "sysctl", "-w", "kernel.apparmor_restrict_unprivileged_userns=0"], 60)
        except (OSError, subprocess.SubprocessError):
            pass


def copy_kata_files(names: list) -> list:
    """Copy the student's ``katas/NAME`` for each kata file name into the bundle's ``katas/``; returns
    notes on those left out (missing, a link, too big: graded as the stub)."""
    notes = []
    for name in names:
        try:
            data = read_regular(WORKSPACE / "katas" / name, KATA_BYTES)
        except FileNotFoundError:
            notes.append(f"katas/{name}: not in the repository, graded as not implemented / 仓库中没有，按未实现计分")
            continue
        except OSError as error:
            notes.append(f"katas/{name}: left out ({error}) / 已忽略")
            continue
        (BUNDLE / "katas" / name).write_bytes(data)
    return notes


def grade(lang: str) -> tuple[dict | None, str]:
    """Run the bundle's grade.py on its katas: (grade.py's JSON document, "") or (None, why none)."""
    command = [sys.executable, str(BUNDLE / "grade.py"), "--format", "json", "--against", "answer-key",
               "--deadline", str(DEADLINE), "--lang", lang]
    try:
        done = _run(command, DEADLINE + 60)
    except subprocess.TimeoutExpired:
        return None, f"grade.py did not finish within {DEADLINE + 60} s"
    except OSError as error:
        return None, f"grade.py could not start: {error}"
    print(done.stderr, end="", file=sys.stderr)   # the log: a traceback tells the instructor why
    try:
        doc = json.loads(done.stdout)
        if isinstance(doc, dict) and isinstance(doc.get("katas"), list) and doc["katas"]:
            return doc, ""
    except ValueError:
        pass
    return None, f"grade.py gave no result (exit status {done.returncode}): {_tail(done.stderr)}"


def error_document(katas: list, reason: str, lang: str) -> dict:
    """grade.py's JSON document for a grading that could not happen: every function an error with
    ``reason``, 0 points out of its real points."""
    entries = [{"kata": kata.name, "score": 0, "max_score": sum(f.points for f in kata.functions),
                "functions": [{"name": f.name, "status": "error", "score": 0, "max_score": f.points,
                               "message": reason, "differed": reason, "pitfall": "", "hint": ""}
                              for f in kata.functions]} for kata in katas]
    return {"score": 0, "max_score": sum(k["max_score"] for k in entries), "lang": lang, "katas": entries}


def identity() -> dict:
    """The submission's fields of result.json, from what the runner passes in (it stamps owner,
    assignment_type and datetime again itself)."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    environ = os.environ.get
    return {"classroom": environ("CLASSROOM", ""), "assignment": environ("ASSIGNMENT", ""),
            "assignment_type": environ("ASSIGNMENT_TYPE", "individual"),
            "owner": environ("OWNER") or environ("USERNAME", ""), "submission": environ("SUBMISSION_TAG", ""),
            "commit": environ("COMMIT_URL", ""), "release": environ("RELEASE_URL", ""),
            "review": environ("REVIEW_URL") or environ("COMMIT_URL", ""), "datetime": now, "graded_at": now}


def release_body(doc: dict, katas: list, lang: str, reason: str, notes: list) -> str:
    """The learner's report: the score, a table per kata, the first failure in full (with its pitfall and
    a hint); why grading failed, when it did; which files were left out."""
    parts = [summary.markdown(doc, katas, lang=lang, warning=reason or None, first_only=True),
             f"> {message('practice.ci', lang)}"]
    if doc.get("sandbox") == "none":
        parts.append(f"> {message('sandbox.none', lang)}")
    parts += [f"- `{note}`" for note in notes]
    body = "\n\n".join(parts) + "\n"
    return body if len(body) <= BODY_LIMIT else body[:BODY_LIMIT] + "\n\n" + message("truncated", lang) + "\n"


def _write(path: Path, text: str) -> None:
    """Write ``path`` in one step, through a new file of our own (never one the checkout put there)."""
    handle, partial = tempfile.mkstemp(dir=path.parent, prefix=".classroom50-")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(text)
    Path(partial).replace(path)


def write_outputs(result: dict, body: str) -> None:
    """result.json, release-body.md, and the step's status and summary (last, so that they win over any
    line learner code appended); a grading that failed is recorded as a failure, not an error, so that
    its 0 points are published and collected."""
    _write(RESULT, json.dumps(result, ensure_ascii=False, indent=1) + "\n")
    _write(BODY, body)
    passed = bool(result["tests"]) and all(test["passed"] for test in result["tests"])
    line = f"katas: {result['score']}/{result['max-score']}"
    output = os.environ.get("GITHUB_OUTPUT")
    if output:
        with Path(output).open("a", encoding="utf-8") as handle:
            handle.write(f"status={'success' if passed else 'failure'}\nsummary={line}\n")
    print(body)
    print(line)


def main() -> int:
    """Install, copy the kata files, grade, and write the outputs; 0 whatever happened."""
    for path in (RESULT, BODY):   # nothing of an earlier run (or of the student) counts
        if path.is_symlink() or path.exists():
            path.unlink()
    try:
        lang = json.loads(SETTINGS.read_text(encoding="utf-8")).get("lang", "en")
    except (OSError, ValueError):
        lang = "en"
    katas = load_curriculum()
    infos = {f.qualified: f for kata in katas for f in kata.functions}
    notes: list = []
    doc, reason = None, ""
    try:
        reason = install() or ""
        if not reason:
            prepare_sandbox()
            notes = copy_kata_files(sorted(path.name for path in (BUNDLE / "katas").glob("k*.py")))
            doc, reason = grade(lang)
    except Exception as error:  # noqa: BLE001 (whatever went wrong, the student still gets 0 and why)
        doc, reason = None, f"{type(error).__name__}: {error}"
    if doc is None:
        reason = f"The autograder could not grade this submission: {reason}. / 自动评分程序无法为这份提交评分。"
        print(f"::error::{reason}")
        doc = error_document(katas, reason, lang)
    write_outputs(official.classroom50(doc, infos, identity()), release_body(doc, katas, lang, reason, notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
