"""The practice workflow's grading step: ``python3 kata_harness/platforms/classroom_step.py``.

It grades once (``grade.py --format workflow --against answer-key``: the template's public cases,
whatever ``reference/`` a student adds) and writes everything the student sees itself, with no
other action after it:

- the step's log: the learner's text report (printed with GitHub's workflow commands turned off,
  so that nothing learner code printed or raised can raise an annotation or set an output);
- ``$GITHUB_STEP_SUMMARY``: the Markdown summary;
- annotations: an error for each function that failed or raised (at most ``ANNOTATIONS``, which
  GitHub shows per step), on its line in ``katas/kNN_*.py``, and a notice with the points, as
  ``::error file=...,line=...,title=...::...`` workflow commands, escaped as GitHub documents;
- ``$GITHUB_OUTPUT``: ``points``, ``max-points``, ``status`` (pass, fail or error) and ``result``
  (the reporter's document, GitHub Classroom's format that course tools still read, as base64
  UTF-8 JSON), each written between delimiters that are drawn at random and appear in no value.

The step exits 1 when points are missing (the run then shows as failed, as the retired reporter
made it) and 0 with full marks, always after writing all of the above. When anything goes wrong
(the install failed, the wrong Python, no PyTorch, grade.py crashed or printed nonsense) it still
writes a result: 0 points out of the real maximum, read from ``curriculum/*.toml``, with the
reason in a test's message, an annotation and the summary. The maximum is never 0: a tool that
reads the result records nothing at all for 0. The student controls this repository: what it
reports is practice feedback.

The outputs stay within the platform's limits whatever the messages hold: grade.py cuts them
(``official.REPORTER_BYTES``, ``summary.SUMMARY_BYTES``), and this step checks again.

Standalone on purpose: standard library only, no import of the kata_harness package, and
nothing newer than Python 3.7, so that it runs where grade.py cannot.
"""

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import uuid

# The student's repository this step grades: it runs as a script from the repository's checkout,
# and its own place (kata_harness/platforms/ there) names it.
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # kata_harness/platforms/..
MIN_PYTHON = (3, 10)        # pyproject.toml's requires-python (a self-test keeps them equal)
DEADLINE = 600              # grade.py prints a complete result within this many seconds ...
GRADE_TIMEOUT = 660         # ... and is stopped after this many, should it hang itself
MESSAGE_LIMIT = 500         # the reporter's messages, as grade.py's --format classroom caps them
# A tool that reads the result from one environment variable (as the retired reporter did) meets
# Linux's limit on one environment string, 128 KiB (E2BIG); GitHub shows no job summary over 1 MiB.
RESULT_LIMIT = 100000       # bytes of the base64 result
SUMMARY_LIMIT = 1 << 20     # bytes of the job summary
ANNOTATIONS = 10            # error annotations GitHub keeps for one step
NOT_ANNOTATED = ("passed", "todo")   # a stub still to do is no error; the summary lists it
PRACTICE = ("> Practice feedback: public checks only. Your instructor makes the official grade. / "
            "练习反馈：只运行公开检查。正式成绩由老师评定。\n\n")
PROBE = ("import importlib.util, sys; "
         "print(sys.version_info[0], sys.version_info[1], importlib.util.find_spec('torch') is not None)")


def max_points(curriculum):
    """The points of every kata function in ``curriculum/k*.toml`` (None when there are none).
    Never raises: it is what the step falls back on."""
    try:
        texts = []
        for name in sorted(os.listdir(curriculum)):
            if name.startswith("k") and name.endswith(".toml"):
                with open(os.path.join(curriculum, name), encoding="utf-8", errors="replace") as handle:
                    texts.append(handle.read())
    except OSError:
        return None
    return sum(_points(text) for text in texts) or None


def _points(text):
    """The points of the functions in one curriculum file (a function without ``points`` has 1)."""
    try:
        import tomllib  # deferred: Python 3.11 and newer only (this step runs on 3.7 and newer)
        functions = tomllib.loads(text).get("functions", {})
        return sum(int(entry.get("points", 1)) for entry in functions.values())
    except (ImportError, ValueError, TypeError, AttributeError):
        return _points_by_hand(text)


def _points_by_hand(text):
    """What ``_points`` reads without tomllib (Python < 3.11, or a damaged file): the
    ``[functions.NAME]`` tables and their ``points = N`` lines."""
    total, in_function, points = 0, False, 1
    for line in text.splitlines() + ["[end]"]:
        header = re.match(r"\s*\[([^\[\]]+)\]\s*(#.*)?$", line)
        if header:
            total += points if in_function else 0
            in_function, points = bool(re.match(r"functions\.[^.\s]+$", header.group(1).strip())), 1
            continue
        value = re.match(r"\s*points\s*=\s*(\d+)", line)
        if value and in_function:
            points = int(value.group(1))
    return total


def _message(english, chinese):
    return "{} / {}".format(english, chinese)


def _python():
    """The interpreter the install step installed into: ``python`` on PATH, as in ``python -m pip``."""
    return shutil.which("python") or sys.executable


def _problem_with(python):
    """Why ``python`` cannot grade (the wrong version, no PyTorch), or None when it can."""
    try:
        done = subprocess.run([python, "-c", PROBE], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=120)
        major, minor, torch = done.stdout.split()
        version = (int(major), int(minor))
    except (OSError, ValueError, subprocess.SubprocessError):
        return _message("{} does not run".format(python), "{} 无法运行".format(python))
    if version < MIN_PYTHON:
        wanted = "{}.{}".format(*MIN_PYTHON)
        found = "{}.{}".format(*version)
        return _message("the wrong Python: {} is {}, the katas need {} or newer (see the workflow's setup-python "
                        "step)".format(python, found, wanted),
                        "Python 版本不对：{} 是 {}，练习需要 {} 或更新的版本（见工作流的 setup-python 步骤）"
                        .format(python, found, wanted))
    if torch != "True":
        return _message("PyTorch is not installed for {} (see the log of the install step)".format(python),
                        "{} 没有安装 PyTorch（请查看安装步骤的日志）".format(python))
    return None


def _last_line(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""


def _valid(result):
    """A result in the reporter's format that records a grade (a positive maximum)."""
    return (isinstance(result, dict) and result.get("version") == 1
            and result.get("status") in ("pass", "fail", "error")
            and isinstance(result.get("max_score"), int) and result["max_score"] > 0
            and isinstance(result.get("tests"), list) and result["tests"]
            and all(isinstance(t, dict) and isinstance(t.get("score"), (int, float)) for t in result["tests"]))


def grade(python):
    """Run grade.py once: (the workflow bundle, None), or (None, why it gave none)."""
    command = [python, os.path.join(REPOSITORY, "grade.py"), "--format", "workflow", "--against", "answer-key",
               "--deadline", str(DEADLINE)]
    try:
        done = subprocess.run(command, cwd=REPOSITORY, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              encoding="utf-8", errors="replace", timeout=GRADE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, _message("grade.py did not finish within {} s".format(GRADE_TIMEOUT),
                              "grade.py 在 {} 秒内没有结束".format(GRADE_TIMEOUT))
    except OSError as error:
        return None, _message("grade.py could not start: {}".format(error), "grade.py 无法启动：{}".format(error))
    _log(done.stderr)   # the log: a traceback tells the instructor why
    try:
        bundle = json.loads(done.stdout)
        if _valid(bundle["classroom"]) and isinstance(bundle["text"], str) and isinstance(bundle["markdown"], str) \
                and isinstance(bundle.get("statuses", {}), dict):
            return bundle, None
    except (ValueError, KeyError, TypeError):
        pass
    detail = _last_line(done.stderr)
    return None, _message(
        "grade.py did not produce a result (exit status {}){}".format(done.returncode, ": " + detail if detail else ""),
        "grade.py 没有给出结果（退出状态 {}），请查看本步骤的日志".format(done.returncode))


def error_result(reason, maximum):
    """0 points out of ``maximum``, with ``reason``: the result when grading failed."""
    return {"version": 1, "status": "error", "max_score": maximum, "tests": [{
        "name": "grading", "status": "error", "score": 0, "message": _cut(reason, MESSAGE_LIMIT),
        "test_code": "python grade.py", "filename": "grade.py", "line_no": 1, "duration": 0}]}


def _cut(text, limit):
    """``text`` in at most about ``limit`` characters, saying where it was cut."""
    return text if len(text) <= limit else text[:limit] + " " + _message("[… cut here]", "[……在此截断]")


def _encoded(result):
    """``result`` as base64 UTF-8 JSON (the reporter's input, as tools that read its format take it)."""
    return base64.b64encode(json.dumps(result, ensure_ascii=False).encode("utf-8")).decode("ascii")


def _fitting_summary(markdown):
    """``markdown`` for the job summary, cut (and saying so) where it would pass GitHub's limit."""
    data = markdown.encode("utf-8")
    if len(data) <= SUMMARY_LIMIT - 1000:
        return markdown
    return data[:SUMMARY_LIMIT - 1000].decode("utf-8", "ignore") + "\n\n" + _message(
        "(cut here: the summary was too large; the log of the grading step has the whole report)",
        "（在此截断：摘要过大；评分步骤的日志中有完整报告）") + "\n"


def _command_text(text):
    """``text`` as the message of a workflow command (``::error::``), escaped as GitHub documents:
    it would end at a line break."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _command_property(text):
    """``text`` as a property of a workflow command (``file=``, ``title=``): escaped like a message,
    and ``:`` and ``,`` too, which end a property."""
    return _command_text(text).replace(":", "%3A").replace(",", "%2C")


def _annotation(kind, message, **properties):
    """One workflow command line: ``::kind name=value,...::message``."""
    shown = ",".join("{}={}".format(name, _command_property(str(value))) for name, value in properties.items())
    return "::{}{}::{}".format(kind, " " + shown if shown else "", _command_text(message))


def _log(text):
    """Print ``text`` (which may quote learner code) to the log with workflow commands turned off,
    under a token nobody can know in advance."""
    if not text.strip():
        return
    token = uuid.uuid4().hex
    print("::stop-commands::" + token)
    print(text.rstrip("\n"))
    print("::{}::".format(token))
    sys.stdout.flush()


def annotations(result, statuses):
    """The step's annotations: an error for each function that failed or raised (its first test of
    the result, on the line of its ``def``), at most ``ANNOTATIONS``, then a notice with the points."""
    lines = []  # type: list
    seen, left_out = set(), 0
    for test in result["tests"]:
        function = test["test_code"].replace("python grade.py", "").strip() or test["name"]
        if test["status"] == "pass" or function in seen or statuses.get(function) in NOT_ANNOTATED:
            continue
        seen.add(function)
        if len(lines) == ANNOTATIONS:
            left_out += 1
            continue
        verdict = _message("error", "出错") if test["status"] == "error" else _message("failed", "未通过")
        lines.append(_annotation("error", test["message"], file=test["filename"], line=test["line_no"],
                                 title="{}: {}".format(function, verdict)))
    return lines + [points_notice(result, left_out)]


def points_notice(result, left_out=0):
    """The notice with the points (and how many failed functions had no annotation of their own)."""
    points, maximum = sum(test["score"] for test in result["tests"]), result["max_score"]
    note = _message("Points {}/{}".format(points, maximum), "得分 {}/{}".format(points, maximum))
    if left_out:
        note += " " + _message("({} more functions failed: see the run's summary)".format(left_out),
                               "（另有 {} 个函数未通过：见运行摘要）".format(left_out))
    return _annotation("notice", note, title=_message("Practice feedback", "练习反馈"))


def _output_lines(name, value):
    """One step output in GitHub's multiline form, between delimiters drawn at random: no value can
    end it early or add an output of its own."""
    while True:
        delimiter = "ghadelimiter_" + uuid.uuid4().hex
        if delimiter not in value:
            return "{}<<{}\n{}\n{}\n".format(name, delimiter, value, delimiter)


def outputs(result):
    """The step's outputs: ``points``, ``max-points``, ``status`` and ``result`` (base64 JSON)."""
    points = sum(test["score"] for test in result["tests"])
    values = (("points", str(points)), ("max-points", str(result["max_score"])), ("status", result["status"]),
              ("result", _encoded(result)))
    return "".join(_output_lines(name, value) for name, value in values)


def _failure_summary(reason, maximum):
    """The job summary when grading failed; the reason is shown as code (it may quote grade.py's output)."""
    fence = "`" * max([3] + [len(run) + 1 for run in re.findall(r"`+", reason)])
    return "## Grading failed / 评分失败: 0/{}\n\n{}text\n{}\n{}\n".format(maximum, fence, reason, fence)


def _append(variable, text):
    """Append ``text`` to the file an Actions variable names (nothing when run elsewhere)."""
    path = os.environ.get(variable)
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(text)


def main():
    """Grade, or explain why not; always write the log, the summary, the annotations and the outputs.
    The exit status is 0 with full marks and 1 otherwise (the run shows as failed), once all is written."""
    install = os.environ.get("INSTALL_OUTCOME", "")   # empty: not told (run outside the workflow)
    python = _python()
    bundle, reason = None, None
    if install not in ("", "success"):
        reason = _message("installing PyTorch and the katas did not succeed ({}): see the log of the install "
                          "step".format(install), "安装 PyTorch 和练习没有成功（{}）：请查看安装步骤的日志".format(install))
    else:
        reason = _problem_with(python)
    if reason is None:
        bundle, reason = grade(python)
    size = len(_encoded(bundle["classroom"])) if bundle is not None else 0
    if bundle is not None and size > RESULT_LIMIT:   # grade.py keeps it smaller; a tool that reads it could not
        _log(bundle["text"])
        bundle, reason = None, _message(
            "grade.py's result is too large ({} bytes, at most {}); the report above has it all"
            .format(size, RESULT_LIMIT), "grade.py 的结果太大；上面的报告中有全部内容")
    if bundle is not None:
        result, statuses = bundle["classroom"], bundle.get("statuses", {})
        _log(bundle["text"])
        _append("GITHUB_STEP_SUMMARY", _fitting_summary(PRACTICE + bundle["markdown"]))
    else:
        maximum = max_points(os.path.join(REPOSITORY, "curriculum"))
        if maximum is None:   # curriculum/ is gone: still record a zero, out of 1, rather than no grade
            maximum = 1
            reason += " " + _message("(curriculum/ is missing: the real maximum is unknown)",
                                     "（缺少 curriculum/：无法得知满分）")
        result = error_result(reason, maximum)
        print(_annotation("error", reason, title=_message("Grading failed", "评分失败")))
        print(points_notice(result))
        _append("GITHUB_STEP_SUMMARY", _failure_summary(reason, maximum))
    if bundle is not None:
        print("\n".join(annotations(result, statuses)))
    _append("GITHUB_OUTPUT", outputs(result))
    sys.stdout.flush()
    return 0 if sum(test["score"] for test in result["tests"]) == result["max_score"] else 1


if __name__ == "__main__":
    sys.exit(main())
