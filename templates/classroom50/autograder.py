#!/usr/bin/env python3
"""Classroom 50's autograder for the PyTorch pitfall katas: practice feedback on every submission.

Classroom 50's runner (its ``runner.py``, which the autograde-runner workflow fetches) runs this file
with the student's checkout as the working folder, this bundle beside it. This script:

1. copies the student's kata files (``katas/kNN_*.py``: regular files of at most 1 MB) into this
   bundle's own copy of the katas: nothing else of the student's repository is run or read;
2. installs PyTorch (CPU build) and the test packages, at the versions of the bundle's ``pins.txt``,
   wheels only, unless they import here;
3. grades them with the bundle's grade.py, the public cases against the answer key (learner code
   runs only in grade.py's children, sandboxed where bubblewrap works);
4. then, from this process and after grading, writes ``./result.json`` (schema
   ``classroom50/result/v1``: one test per function, integer points summing to the suite's),
   ``./release-body.md`` (the learner's report: a table per kata, the first failure with its
   pitfall) and the step's ``status`` and ``summary``, replacing whatever is at those names (a
   file, a folder, a link, a FIFO: never written through, never opened).

Classroom 50's grade job has 15 minutes (``timeout-minutes: 15`` in its autograde-runner.yaml), for
the checkout and Python before this script and the release after it. So everything here shares one
budget, ``BUDGET`` seconds (13 minutes; ``KATA_CLASSROOM50_BUDGET`` sets another) from this script's
start: each phase (the import probe, each pip install, grading) gets what is left of it, less
``RESERVE``, which always remains for writing the outputs. A phase stopped for time is killed with
every process it started, and the outputs say why.

It exits 0 whatever happens: when grading fails, result.json holds 0 of the real maximum and
release-body.md says why (a non-zero exit would make the runner record an error of 0 out of 0).
The student controls the repository and the runner's first steps: this is practice feedback.
"""

from __future__ import annotations

import time

STARTED = time.monotonic()   # the budget counts from here, before anything else is loaded

import datetime  # noqa: E402 (after the start is taken)
import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import stat  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import uuid  # noqa: E402
from pathlib import Path  # noqa: E402

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
PINS = BUNDLE / "pins.txt"                 # the versions every platform installs (templates/pins.txt)
TORCH_INDEX = ("--index-url", "https://download.pytorch.org/whl/cpu")
PACKAGES = ("numpy", "pytest")             # what grading needs besides torch, at their pinned versions
JOB_SECONDS = 15 * 60                      # Classroom 50's grade job: timeout-minutes: 15
BUDGET_VARIABLE = "KATA_CLASSROOM50_BUDGET"
DEFAULT_BUDGET = 13 * 60                   # seconds from STARTED; the job's other steps get the rest
PROBE_TIMEOUT = 300                        # seconds at most for `import torch, numpy, pytest`
INSTALL_TIMEOUT = 420                      # seconds at most per pip command
GRADE_EXIT = 10                            # seconds grade.py gets past its --deadline to exit
MIN_GRADING = 20                           # seconds: with less left, grading is not started
KATA_BYTES = 1_000_000                     # a kata file is a few KB; anything bigger is not one
BODY_LIMIT = 100_000                       # characters: GitHub refuses a release body over 125,000


def _budget() -> float:
    """The whole run's seconds: ``KATA_CLASSROOM50_BUDGET`` when it is a positive number, else 13 minutes."""
    try:
        value = float(os.environ.get(BUDGET_VARIABLE, ""))
    except ValueError:
        return DEFAULT_BUDGET
    return value if 0 < value <= JOB_SECONDS else DEFAULT_BUDGET


BUDGET = _budget()
RESERVE = min(30.0, BUDGET / 10)           # always left for writing result.json, release-body.md, outputs


def left() -> float:
    """Seconds the next phase may take: what is left of the budget, less the reserve for the outputs."""
    return BUDGET - RESERVE - (time.monotonic() - STARTED)


class OutOfTime(Exception):
    """A phase that did not finish within what was left of the budget (or had no time at all)."""


def _run(command: list, limit: float) -> subprocess.CompletedProcess:
    """Run ``command`` from the bundle (a ``python -m`` run from the checkout would import its folders),
    for at most ``limit`` seconds; past that, it and every process it started are killed and
    ``OutOfTime`` is raised. The output goes through files, so a process it left behind holding a pipe
    cannot keep this one waiting."""
    if limit <= 1:
        raise OutOfTime(f"no time was left for {_what(command)} (the autograder has {BUDGET:.0f} s in all)")
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "KATA_SECRET", BUDGET_VARIABLE)}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, cwd=BUNDLE, env=environment, stdin=subprocess.DEVNULL, stdout=out,
                                   stderr=err, start_new_session=True)
        try:
            returncode = process.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            _kill_group(process)
            raise OutOfTime(f"{_what(command)} did not finish within {limit:.0f} s (the autograder has "
                            f"{BUDGET:.0f} s in all)") from None
        finally:
            _kill_group(process)   # what it left running
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(command, returncode, out.read().decode("utf-8", "replace"),
                                           err.read().decode("utf-8", "replace"))


def _what(command: list) -> str:
    """What ``command`` is, in a few words: ``pip install torch==VERSION``, ``grade.py``, the import probe."""
    if command[1:2] == ["-m"]:
        return " ".join(str(part) for part in command[2:4] + [p for p in command[4:] if "==" in str(p)][:1])
    if command[1:2] == ["-c"]:
        return "the import probe"
    return Path(str(command[1] if command[0] == sys.executable else command[0])).name


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def _tail(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def pinned(names: tuple) -> list:
    """``name==version`` for each of ``names``, from the bundle's pins.txt (the one list of versions)."""
    versions = {}
    for line in read_regular(PINS, 100_000).decode("utf-8").splitlines():
        requirement = line.split("#", 1)[0].split(";", 1)[0].strip()
        if "==" in requirement:
            versions[requirement.split("==", 1)[0].strip().lower()] = requirement
    missing = [name for name in names if name not in versions]
    if missing:
        raise ValueError(f"pins.txt names no version of {', '.join(missing)}")
    return [versions[name] for name in names]


def install() -> str | None:
    """None when torch, numpy and pytest import here (installed first if they do not), else why not."""
    probe = [sys.executable, "-c", "import torch, numpy, pytest"]
    if _run(probe, min(PROBE_TIMEOUT, left())).returncode == 0:
        return None
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--only-binary", ":all:"]
    for packages in (pinned(("torch",)) + list(TORCH_INDEX), pinned(PACKAGES)):
        done = _run(pip + packages, min(INSTALL_TIMEOUT, left()))
        if done.returncode != 0:
            return f"installing {packages[0]} failed: {_tail(done.stderr) or done.returncode}"
    return None if _run(probe, min(PROBE_TIMEOUT, left())).returncode == 0 else \
        "PyTorch does not import after installing it"


def prepare_sandbox() -> None:
    """On a GitHub-hosted runner, let bubblewrap create its namespaces (Ubuntu 24.04 forbids that to
    programs without an AppArmor profile). Best effort: without it, grading runs unsandboxed and says so."""
    if os.environ.get("GITHUB_ACTIONS") == "true" and shutil.which("bwrap") and shutil.which("sudo"):
        try:
            _run(["sudo", "-n", "sysctl", "-w", "kernel.apparmor_restrict_unprivileged_userns=0"], min(60, left()))
        except (OSError, subprocess.SubprocessError, OutOfTime):
            pass


def copy_kata_files(names: list) -> list:
    """Copy the student's ``katas/NAME`` for each kata file name into the bundle's ``katas/``; returns
    notes on those left out (missing, a link, too big: graded as the stub). A ``katas`` that is a link
    or no folder hands in nothing: its files could be anywhere."""
    try:
        folder = os.lstat(WORKSPACE / "katas").st_mode
    except OSError:
        folder = 0
    if not stat.S_ISDIR(folder):
        what = "a link" if stat.S_ISLNK(folder) else "not a folder" if folder else "missing"
        return [f"katas: {what}, so every kata is graded as not implemented / katas 不是普通文件夹，所有练习按未实现计分"]
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
    """Run the bundle's grade.py on its katas within what is left of the budget: (grade.py's JSON
    document, "") or (None, why none)."""
    deadline = int(left() - GRADE_EXIT)
    if deadline < MIN_GRADING:
        return None, f"no time was left to grade ({max(deadline, 0)} s of {BUDGET:.0f} s)"
    command = [sys.executable, str(BUNDLE / "grade.py"), "--format", "json", "--against", "answer-key",
               "--deadline", str(deadline), "--lang", lang]
    try:
        done = _run(command, left())
    except OSError as error:
        return None, f"grade.py could not start: {error}"
    _log(done.stderr)   # the log: a traceback tells the instructor why
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


def _log(text: str) -> None:
    """Print ``text`` (which may quote learner code) to the step's log with GitHub's workflow commands
    off, under a token nobody can know in advance: a line of it cannot raise an annotation, set an
    output or turn the commands off for the lines that follow."""
    if not text.strip():
        return
    token = uuid.uuid4().hex
    print(f"::stop-commands::{token}")
    print(text.rstrip("\n"))
    print(f"::{token}::", flush=True)


def _take_away(path: Path) -> None:
    """Remove whatever is at ``path`` (a file, a link, a FIFO, a folder) without following a link or
    opening anything: a folder is first moved aside, so that even one that cannot be emptied frees
    the name."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(info.st_mode):
        path.unlink()
        return
    aside = Path(tempfile.mkdtemp(dir=path.parent, prefix=".classroom50-removed-"))
    path.rename(aside / "folder")
    shutil.rmtree(aside, ignore_errors=True)


def _write(path: Path, text: str) -> None:
    """Write ``path`` in one step, through a new file of our own: whatever was at that name (a
    folder, a link to /etc/passwd, a FIFO) is replaced, never written through."""
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=".classroom50-")
    partial = Path(name)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        for _ in range(3):   # learner code left running could put a folder back in between
            try:
                partial.replace(path)
                return
            except OSError:
                _take_away(path)
        partial.replace(path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def _append_outputs(text: str) -> None:
    """Append ``text`` to the step's outputs ($GITHUB_OUTPUT) if that is a regular file: never through a
    link, never waiting on a FIFO."""
    output = os.environ.get("GITHUB_OUTPUT")
    if not output:
        return
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        handle = os.open(output, flags, 0o600)
    except OSError as error:
        print(f"::warning::the step's outputs could not be written: {type(error).__name__}")
        return
    with os.fdopen(handle, "a", encoding="utf-8") as out:
        if stat.S_ISREG(os.fstat(handle).st_mode):
            out.write(text)


def write_outputs(result: dict, body: str) -> None:
    """result.json, release-body.md, and the step's status and summary (last, so that they win over any
    line learner code appended); a grading that failed is recorded as a failure, not an error, so that
    its 0 points are published and collected. The status and summary are single lines of our own (the
    runner reads ``status=`` lines)."""
    for path, text in ((RESULT, json.dumps(result, ensure_ascii=False, indent=1) + "\n"), (BODY, body)):
        try:
            _write(path, text)
        except OSError as error:   # nothing more can be done here: the runner then records an error
            print(f"::error::{path.name} could not be written: {error}")
    passed = bool(result["tests"]) and all(test["passed"] for test in result["tests"])
    line = f"katas: {result['score']}/{result['max-score']}"
    _append_outputs(f"status={'success' if passed else 'failure'}\nsummary={line}\n")
    _log(body)
    print(line)


def clear_outputs() -> None:
    """Take away result.json and release-body.md of an earlier run or of the student, whatever they are."""
    for path in (RESULT, BODY):
        try:
            _take_away(path)
        except OSError as error:   # written over at the end all the same (_write tries again)
            print(f"::warning::{path.name} could not be removed before grading: {type(error).__name__}")


def main() -> int:
    """Copy the kata files, install, grade, and write the outputs within the budget; 0 whatever happened."""
    clear_outputs()
    try:
        lang = json.loads(read_regular(SETTINGS, 10_000)).get("lang", "en")
    except (OSError, ValueError, AttributeError):
        lang = "en"
    katas = load_curriculum(BUNDLE / "curriculum")
    infos = {f.qualified: f for kata in katas for f in kata.functions}
    notes: list = []
    doc, reason = None, ""
    try:
        notes = copy_kata_files(sorted(path.name for path in (BUNDLE / "katas").glob("k*.py")))
        reason = install() or ""
        if not reason:
            prepare_sandbox()
            doc, reason = grade(lang)
    except Exception as error:  # noqa: BLE001 (whatever went wrong, the student still gets 0 and why)
        doc, reason = None, str(error) if isinstance(error, OutOfTime) else f"{type(error).__name__}: {error}"
    if doc is None:
        reason = f"The autograder could not grade this submission: {reason}. / 自动评分程序无法为这份提交评分。"
        print(f"::error::{_command_text(reason)}")
        doc = error_document(katas, reason, lang)
    write_outputs(official.classroom50(doc, infos, identity()), release_body(doc, katas, lang, reason, notes))
    print(f"autograder: done in {time.monotonic() - STARTED:.1f} s of its {BUDGET:.0f} s")
    return 0


def _command_text(text: str) -> str:
    """``text`` as the message of a workflow command, escaped as GitHub documents (it ends at a line break)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


if __name__ == "__main__":
    sys.exit(main())
