"""The practice workflow stays within its platform's limits whatever learner code prints or raises.

The grading step's ``result`` output is the reporter's document (GitHub Classroom's format) as
base64 UTF-8 JSON, and the tools that read that format take it from one environment variable, as
classroom-resources/autograding-grading-reporter did (``KATAS_RESULTS``, src/main.js); Linux refuses
a single environment string over 128 KiB (E2BIG). The result stays under 100 KB, every cut message
saying so. GitHub shows no job summary over 1 MiB: the summary stays under it too. Chinese text
takes three bytes a character in UTF-8, emoji four, and control characters six once escaped in JSON.
"""

import base64
import json
import os
import shutil
import subprocess
import sys

import pytest

from kata_harness.content.curriculum import load_curriculum
from kata_harness.content.messages import message
from kata_harness.layout import LAYOUT
from kata_harness.outputs import official, summary
from selftests.gradekit import parse_outputs, student_template

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="runs the workflow's step as Linux runners do")

KATAS = load_curriculum(LAYOUT.curriculum)
INFOS = {f.qualified: f for kata in KATAS for f in kata.functions}
TOTAL_POINTS = sum(f.points for f in INFOS.values())
REPORTER_INPUT = 100_000        # bytes of the environment variable
JOB_SUMMARY = 1 << 20           # GitHub's limit
E2BIG = 128 * 1024              # Linux's limit on one environment string
CJK = "学习者的异常：形状不对😀🔥"
HOSTILE = '''
def {name}(*args, **kwargs):
    print("打印的输出🐍" * 4000 + "\\x01\\x02")
    raise ValueError("{cjk}" * 6000 + "\\x00\\x1b[31m")
'''


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """A released student template (shared with test_classroom.py and test_release.py)."""
    return student_template(tmp_path_factory)


def _document(text: str, lang: str = "zh") -> dict:
    """grade.py's JSON document with every function failed with ``text`` as its message."""
    katas = [{"kata": kata.name, "score": 0, "max_score": sum(f.points for f in kata.functions),
              "functions": [{"name": f.name, "status": "error", "score": 0, "max_score": f.points, "message": text,
                             "differed": text, "pitfall": "", "hint": "提示😀"} for f in kata.functions]}
             for kata in KATAS]
    return {"score": 0, "max_score": TOTAL_POINTS, "lang": lang, "katas": katas}


def _reporter_input(document: dict) -> str:
    return base64.b64encode(json.dumps(document, ensure_ascii=False).encode("utf-8")).decode("ascii")


class _Timings:
    """What official.classroom reads of a grading: the functions' durations."""
    durations: dict = {}


def test_the_reporter_input_stays_under_100_kb_whatever_the_messages(monkeypatch, tmp_path):
    huge = (CJK + "\x00\x1b") * 400   # 5600 characters, 16 of them a six-byte JSON escape per run
    doc = _document(huge)
    monkeypatch.setattr(official, "REPORTER_BYTES", 10 ** 9)   # without the budget: what the old cut gave
    unbounded = official.classroom(doc, INFOS, _Timings(), solutions=tmp_path, shown="katas")
    assert len(_reporter_input(unbounded)) > E2BIG   # no tool could even have been started with it
    monkeypatch.undo()
    bounded = official.classroom(doc, INFOS, _Timings(), solutions=tmp_path, shown="katas")
    assert len(_reporter_input(bounded)) < REPORTER_INPUT
    assert len(bounded["tests"]) == bounded["max_score"] == TOTAL_POINTS
    notice = message("reporter.cut", "zh")
    assert all(test["message"].endswith(notice) and len(test["message"]) <= official.MESSAGE_LIMIT
               for test in bounded["tests"])   # every cut says so
    short = official.classroom(_document("形状不对"), INFOS, _Timings(), solutions=tmp_path, shown="katas")
    assert all(notice not in test["message"] for test in short["tests"])   # nothing cut that fits


def test_the_job_summary_stays_under_1_mib_whatever_the_messages():
    huge = "😀" * 20_000   # four bytes a character: 4000 of them per function would pass 1 MiB in all
    full = len(summary._markdown(_document(huge), KATAS, lang="zh", warning=None, details=True, first_only=False,
                                 limit=summary.DETAIL_LIMIT).encode("utf-8"))
    assert full > summary.SUMMARY_BYTES
    text = summary.markdown(_document(huge), KATAS, lang="zh")
    assert len(text.encode("utf-8")) <= summary.SUMMARY_BYTES < JOB_SUMMARY
    assert text.count("<details") == len(INFOS) and message("truncated", "zh") in text   # all there, cuts marked


@pytest.mark.e2e
def test_cjk_and_emoji_failures_and_exceptions_stay_within_both_limits(template, tmp_path):
    """End to end, as the workflow's grading step runs: every function raises a long Chinese-and-emoji
    exception (with control characters) after printing as much, and the report is in Chinese."""
    repo = tmp_path / "repo"
    shutil.copytree(template, repo)
    for kata in KATAS:
        (repo / "katas" / f"{kata.name}.py").write_text(
            "".join(HOSTILE.format(name=f.name, cjk=CJK) for f in kata.functions), encoding="utf-8")
    output, step_summary = tmp_path / "github_output", tmp_path / "step_summary.md"
    output.write_text("")
    step_summary.write_text("")
    done = subprocess.run([sys.executable, "kata_harness/platforms/classroom_step.py"], cwd=repo, capture_output=True,
                          text=True, timeout=900, env={**os.environ, "KATA_LANG": "zh", "GITHUB_OUTPUT": str(output),
                                                       "GITHUB_STEP_SUMMARY": str(step_summary)})
    assert done.returncode == 1, done.stderr   # points missing: the run shows as failed, once all is written
    encoded = parse_outputs(output.read_text())["result"]
    size, summary_size = len(encoded), len(step_summary.read_bytes())
    print(f"reporter input {size} bytes, job summary {summary_size} bytes")
    assert size < REPORTER_INPUT and summary_size < JOB_SUMMARY
    result = json.loads(base64.b64decode(encoded))
    assert result["max_score"] == TOTAL_POINTS and sum(test["score"] for test in result["tests"]) == 0
    assert all(test["message"].endswith(message("reporter.cut", "zh")) for test in result["tests"])
    details = step_summary.read_text(encoding="utf-8").split("<details")[1:]
    assert len(details) == len(INFOS) and all(CJK in block for block in details)   # every failure, more of it
