#!/usr/bin/env python3
"""Codio's advanced code test for the PyTorch pitfall katas: the official grade, hidden cases included.

``grade.py release --codio DIR`` writes this file beside the project with its reference (and the
instructor's secret, as ``kata_secret``); DIR's content goes into the Codio assignment's
``.guides/secure/`` folder, which students never get: Codio mounts it only into the ephemeral
container a code test runs in, beside the student's workspace. The test's command is
``python3 .guides/secure/codio_grade.py``, run from the workspace (``/home/codio/workspace``).

It copies the student's kata files (``katas/kNN_*.py``: regular files of at most 1 MB) into this
folder's ``katas/``, grades them with this folder's grade.py against the reference, and reports
the points as a percentage with the Markdown summary as feedback to
``$CODIO_PARTIAL_POINTS_V2_URL`` (Codio's partial points: ``points`` 0-100, ``feedback`` at most
1 MB, ``format`` md). It exits 0 always: Codio gives 0 points for a test that exits otherwise.

Learner code must not read this folder (the reference, the secret): it runs only in grade.py's
bubblewrap sandbox, which binds the harness, the kata specs and the copied kata files, never the
rest of this folder. Where bubblewrap does not work, nothing is graded: 0 points, and the feedback
says what the instructor has to install. Standard library and this folder's harness only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

SECURE = Path(__file__).resolve().parent   # .guides/secure: the project with its reference
sys.path.insert(0, str(SECURE))            # its harness renders the feedback and reads files safely
sys.dont_write_bytecode = True
WORKSPACE = Path.cwd()                     # the student's workspace, where Codio runs the command
SECRET = SECURE / "kata_secret"
DEADLINE = 240                             # seconds; give the code test a timeout of 300
KATA_BYTES = 1_000_000                     # a kata file is a few KB; anything bigger is not one
FEEDBACK_BYTES = 1_000_000                 # Codio's limit on the feedback
# `grade.py release --codio` checks this folder by grading the (trusted) reference, also where
# bubblewrap cannot run; a code test never has this variable.
TRUSTED_CHECK = os.environ.get("KATA_CODIO_CHECK") == "trusted-reference"


def settings() -> dict:
    """What ``grade.py release --codio`` chose: ``lang``."""
    try:
        return json.loads((SECURE / "codio.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def sandbox_works() -> bool:
    """Whether grade.py will run learner code in bubblewrap here (its own test, run from this folder)."""
    probe = "import sys; sys.path.insert(0, '.'); from kata_harness.isolation import sandbox; print(sandbox.available())"
    try:
        done = subprocess.run([sys.executable, "-c", probe], cwd=SECURE, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.stdout.strip() == "True"


def copy_kata_files() -> list:
    """Copy the workspace's kata files over this folder's stubs; returns notes on those left out. Only
    regular files in a real ``katas/`` folder count: a link could point into this folder, which
    exists while the test runs (a student's ``katas -> .guides/secure/reference`` would hand in the
    reference)."""
    from kata_harness.files import read_regular

    folder, notes = WORKSPACE / "katas", []
    for stub in sorted((SECURE / "katas").glob("k*.py")):
        try:
            if folder.is_symlink() or SECURE in (folder / stub.name).resolve().parents:
                raise OSError("katas/ is a link")
            data = read_regular(folder / stub.name, KATA_BYTES)
        except OSError as error:
            notes.append(f"katas/{stub.name}: graded as not implemented ({error}) / 按未实现计分")
            continue
        stub.write_bytes(data)
    return notes


def grade(lang: str) -> tuple[dict | None, str]:
    """Run this folder's grade.py: (its JSON document, "") or (None, why there is none)."""
    command = [sys.executable, str(SECURE / "grade.py"), "--format", "json", "--against", "reference",
               "--deadline", str(DEADLINE), "--lang", lang]
    if SECRET.is_file():
        command += ["--secret-file", str(SECRET)]
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "KATA_SECRET")}
    try:
        done = subprocess.run(command, cwd=SECURE, capture_output=True, encoding="utf-8", errors="replace",
                              timeout=DEADLINE + 40, env=environment)
    except (OSError, subprocess.SubprocessError) as error:
        return None, f"grade.py did not run to the end ({error})"
    try:
        doc = json.loads(done.stdout)
        if isinstance(doc, dict) and isinstance(doc.get("katas"), list) and doc["max_score"] > 0:
            return doc, ""
    except (ValueError, KeyError, TypeError):
        pass
    return None, f"grade.py gave no result (exit status {done.returncode}): {done.stderr.strip()[-300:]}"


def feedback(doc: dict, lang: str, notes: list) -> str:
    """The Markdown summary (this folder's harness renders it), and the files left out."""
    from kata_harness.content.curriculum import load_curriculum
    from kata_harness.outputs import summary

    text = summary.markdown(doc, load_curriculum(SECURE / "curriculum"), lang=lang, details=True)
    text += "".join(f"\n- `{note}`" for note in notes)
    return text.encode("utf-8")[:FEEDBACK_BYTES].decode("utf-8", "ignore")


def report(points: float, text: str) -> None:
    """Send the points (a percentage) and the feedback to Codio; print them for the log either way."""
    print(text)
    print(f"codio: points={points:g}")
    url = os.environ.get("CODIO_PARTIAL_POINTS_V2_URL")
    if not url:
        return
    body = urllib.parse.urlencode({"points": f"{points:g}", "feedback": text, "format": "md"}).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, method="POST"), timeout=60) as answer:
            answer.read()
    except OSError as error:
        print(f"codio: the points could not be sent ({error})", file=sys.stderr)


def main() -> int:
    """Grade the workspace's katas and report the points; 0 whatever happened."""
    lang = settings().get("lang", "en")
    if not TRUSTED_CHECK and not sandbox_works():
        report(0, "Not graded: bubblewrap does not work in this Codio stack, and without it your code could read "
                  "the grader's files. Please tell your instructor (install it in the stack: `sudo apt-get install "
                  "-y bubblewrap`). / 未评分：此 Codio 环境中 bubblewrap 无法运行，没有它你的代码可以读取评分文件。"
                  "请告诉老师（在环境中安装：`sudo apt-get install -y bubblewrap`）。")
        return 0
    notes = copy_kata_files()
    doc, reason = grade(lang)
    if doc is None:
        report(0, f"The grader could not grade this submission ({reason}). Please tell your instructor. / "
                  f"评分程序无法为这份提交评分，请告诉老师。")
        return 0
    report(round(100 * doc["score"] / doc["max_score"], 2), feedback(doc, lang, notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
