"""Grade one Gradescope submission; run_autograder runs this, and results.json is always written.

Gradescope puts the submission in /autograder/submission: a repository (its ``katas/``), the kata
files themselves, or a folder holding either. The regular files named like this project's katas
(``k01_creation.py`` ...) are copied into the autograder's own ``katas/`` (a file in a ``katas/``
folder wins over a loose one of the same name; links and anything else are ignored); the
submission's own tests, conftest or grade.py never run. grade.py then grades against the
reference, within a deadline, and prints Gradescope's results.json. When the instructor released
the zip with a secret, ``source/kata_secret`` holds it and grade.py gets it as ``--secret-file``:
the hidden cases count too.

``AUTOGRADER_ROOT`` (default /autograder) lets a self-test run this on a simulated tree.
Standard library only.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

AUTOGRADER = Path(os.environ.get("AUTOGRADER_ROOT", "/autograder"))   # Gradescope's tree
SOURCE = AUTOGRADER / "source"              # the zip's contents: this project, reference included
SUBMISSION = AUTOGRADER / "submission"
SECRET = SOURCE / "kata_secret"       # the instructor's secret for hidden cases, when released with one
RESULTS = AUTOGRADER / "results" / "results.json"
DEADLINE = 540                        # seconds: inside Gradescope's default 10-minute limit
MAX_BYTES = 1_000_000                 # a kata file is a few KB; anything bigger is not one
SKIPPED_FOLDERS = {"__MACOSX", "__pycache__", "node_modules"}   # and every hidden folder (.git ...)
LEARNER_USER = "kata-student"         # setup.sh creates it; learner code runs as it where bubblewrap cannot


def settings() -> dict:
    """What ``grade.py release --gradescope`` chose: ``visibility`` and ``lang``."""
    try:
        return json.loads((SOURCE / "gradescope.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def find_kata_files(submission: Path, names: set) -> tuple[dict, list]:
    """({file name: path} of the submission's kata files, [paths skipped as too big]).

    Only regular files count (a symbolic link could point anywhere on the grader). Where a
    name occurs more than once, a file in a ``katas/`` folder wins, then the shallowest."""
    found, too_big = {}, []
    for folder, subfolders, files in os.walk(submission):   # os.walk does not enter linked folders
        subfolders[:] = sorted(s for s in subfolders if s not in SKIPPED_FOLDERS and not s.startswith("."))
        for name in sorted(files):
            path = Path(folder) / name
            info = path.lstat()
            if name not in names or not stat.S_ISREG(info.st_mode):
                continue
            if info.st_size > MAX_BYTES:
                too_big.append(path)
                continue
            rank = (path.parent.name != "katas", len(path.relative_to(submission).parts))
            if name not in found or rank < found[name][0]:
                found[name] = (rank, path)
    return {name: path for name, (_, path) in found.items()}, too_big


def _shown(path: Path) -> str:
    """A submission path for the student, as inline code (backticks in a file name cannot break out)."""
    return "`" + path.relative_to(SUBMISSION).as_posix().replace("`", "'") + "`"


def nothing_found(names: list, too_big: list) -> dict:
    """The result of a submission without kata files: 0 points, and what was expected."""
    expected = ", ".join(names)
    output = (f"No kata files were found in your submission. Submit the files of your `katas/` folder ({expected}): "
              f"the whole repository, the `katas/` folder, or the files themselves.\n\n"
              f"你的提交中没有找到练习文件。请提交 `katas/` 文件夹中的文件（{expected}）：整个仓库、`katas/` "
              f"文件夹或这些文件本身都可以。")
    if too_big:
        output += f"\n\nToo big to be a kata file / 文件太大，不像练习文件：{', '.join(_shown(p) for p in too_big)}"
    return {"score": 0, "output": output, "output_format": "md", "tests": []}


# What only the grader (root) reads: the answers in every form, and the secret. Learner code running
# as LEARNER_USER can read the harness, the kata specs and its own files, none of these.
INSTRUCTOR_FILES = (SOURCE / "reference", SOURCE / "tests" / "answer_key.dat", SOURCE / "tests" / "hidden_key.dat",
                    SECRET)


def protect_instructor_files() -> dict:
    """As root (Gradescope's containers): hide the reference, the answer keys and the secret from
    other users, and return the environment that makes grade.py run learner code as
    ``LEARNER_USER`` when bubblewrap cannot run here (Docker usually forbids the namespaces it
    needs). Run as root, learner code could read the reference, kill the grader or write
    results.json itself; as that user with a readable answer key it could look its calls up."""
    environment = dict(os.environ)
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return environment
    for path in INSTRUCTOR_FILES:
        if path.exists():
            path.chmod(0o700 if path.is_dir() else 0o600)
    if not environment.get("KATA_RUN_AS"):   # a self-test names a user of its own
        import pwd
        try:
            pwd.getpwnam(LEARNER_USER)
            environment["KATA_RUN_AS"] = LEARNER_USER
        except KeyError:   # not an image built by this release's setup.sh (a simulated tree)
            print(f"no user {LEARNER_USER} (setup.sh creates it): where bubblewrap cannot run, learner code runs as root")
    return environment


def grade(config: dict, environment: dict) -> tuple[dict | None, str]:
    """Run grade.py on the autograder's katas/: (results, "") or (None, why there are none)."""
    command = [sys.executable, str(SOURCE / "grade.py"), "--format", "gradescope", "--deadline", str(DEADLINE),
               "--visibility", config.get("visibility", "visible"), "--lang", config.get("lang", "en")]
    if SECRET.is_file():
        command += ["--secret-file", str(SECRET)]
    try:
        done = subprocess.run(command, cwd=SOURCE, capture_output=True, encoding="utf-8", errors="replace",
                              timeout=DEADLINE + 30, env=environment)
    except subprocess.TimeoutExpired:
        return None, f"grade.py did not finish within {DEADLINE + 30} s"
    except OSError as error:
        return None, f"grade.py could not start: {error}"
    print(done.stderr, end="")   # Gradescope shows this script's output to instructors only
    try:
        results = json.loads(done.stdout)
    except ValueError:
        results = None
    if isinstance(results, dict) and isinstance(results.get("tests"), list) and results["tests"]:
        return results, ""
    return None, f"grade.py gave no result (exit status {done.returncode})"


def failed(reason: str) -> dict:
    """The result when grading itself failed: 0 points and the reason (the details are in the log)."""
    return {"score": 0, "output_format": "text", "tests": [],
            "output": f"The autograder could not grade this submission ({reason}). Please tell your instructor, "
                      f"who can see the details in the autograder's log.\n\n"
                      f"自动评分程序无法为这份提交评分（{reason}）。请告诉教师，教师可以在评分日志中看到详细信息。"}


def write(results: dict) -> None:
    """Write results.json in one step, so that a half-written file is never left behind."""
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    partial = RESULTS.with_name("results.json.partial")
    partial.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    partial.replace(RESULTS)


def main() -> int:
    """Find the kata files, copy them into katas/, grade, and write results.json."""
    started = time.monotonic()
    config = settings()
    names = sorted(path.name for path in (SOURCE / "katas").glob("k*.py"))
    found, too_big = find_kata_files(SUBMISSION, set(names)) if SUBMISSION.is_dir() else ({}, [])
    if not found:
        print(f"no kata files in {SUBMISSION}")
        results = nothing_found(names, too_big)
    else:
        for name, path in sorted(found.items()):
            print(f"grading {path}")
            shutil.copyfile(path, SOURCE / "katas" / name)   # the content only: no links, no permissions
            (SOURCE / "katas" / name).chmod(0o644)          # readable by the learner user
        results, reason = grade(config, protect_instructor_files())
        if results is None:
            print(f"grading failed: {reason}")
            results = failed(reason)
        else:
            missing = [name for name in names if name not in found]
            notes = [f"Graded / 已评分：{', '.join(_shown(path) for _, path in sorted(found.items()))}"]
            if missing:
                notes.append(f"Not in your submission, graded as not implemented / 提交中没有，按未实现计分："
                             f"{', '.join(missing)}")
            if too_big:
                notes.append(f"Too big to be a kata file, ignored / 文件太大，已忽略：{', '.join(_shown(p) for p in too_big)}")
            results["output"] = "\n\n".join(notes + [results.get("output", "")])
    results.setdefault("execution_time", round(time.monotonic() - started, 2))
    results.setdefault("visibility", config.get("visibility", "visible"))
    write(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
