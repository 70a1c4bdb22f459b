"""The practice-feedback workflow (the template's .github/workflows/classroom.yml): its grading step on
a released template, its failure paths, and the result formats (classroom, gradescope, markdown).

The grading step is run as Actions runs it: the step's script in bash, with the step's env and
GITHUB_OUTPUT / GITHUB_STEP_SUMMARY pointing at files; its log is read as the runner reads workflow
commands (``::stop-commands::`` included), and its outputs as the runner parses GITHUB_OUTPUT. The
step writes everything itself (no reporter action): what a tool that reads the reporter's format
records is the sum of the tests' scores out of ``max_score``, and nothing at all when
``max_score`` is 0. The bounds on the result and on the job summary are in test_workflow_limits.py.

The golden results of each format, per example submission, are in test_examples.py.
"""

import ast
import base64
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time

import pytest
import yaml

from kata_harness.content.curriculum import load_curriculum
from kata_harness.outputs import summary
from selftests.gradekit import ROOT, check_classroom, graded_in, parse_outputs, read_until, rest_of_output, student_template

# The workflow step and run_autograder are bash scripts, run as Linux runners run them.
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs bash")

WORKFLOW = ROOT / "templates" / "student" / ".github" / "workflows" / "classroom.yml"
TOTAL_POINTS = sum(f.points for kata in load_curriculum() for f in kata.functions)
# The wrong answer planted in the template (an int64 result), and what the curriculum says about it.
WRONG_FILLED = "\ndef filled(shape, value):\n    return torch.full(shape, value)\n"
FILLED = next(f for kata in load_curriculum() for f in kata.functions if f.qualified == "k01_creation.filled")
FILLED_PITFALL = FILLED.pitfall("dtype")["en"]


def _workflow():
    return yaml.safe_load(WORKFLOW.read_text())


def _steps():
    return _workflow()["jobs"]["practice-feedback"]["steps"]


def _step(step_id=None, uses=None):
    return next(s for s in _steps() if (step_id and s.get("id") == step_id) or (uses and s.get("uses", "").startswith(uses)))


def _classroom_step():
    """kata_harness/platforms/classroom_step.py, loaded from its file (it is a standalone script)."""
    spec = importlib.util.spec_from_file_location("classroom_step", ROOT / "kata_harness" / "platforms" / "classroom_step.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """One released student template for all these tests, shared with test_release.py and
    test_workflow_limits.py (a release grades twice to check itself)."""
    return student_template(tmp_path_factory)


@pytest.fixture
def repo(template, tmp_path):
    """A student's repository: a fresh copy of the template."""
    copy = tmp_path / "repo"
    shutil.copytree(template, copy)
    return copy


def workflow_commands(log):
    """The workflow commands the runner would act on in ``log``: (command, properties, message),
    honouring ``::stop-commands::TOKEN`` ... ``::TOKEN::``."""
    commands, stopped = [], None
    for line in log.splitlines():
        if stopped is not None:
            if line == f"::{stopped}::":
                stopped = None
            continue
        found = re.match(r"::([a-z-]+)(?: ([^:]*))?::(.*)$", line)
        if not found:
            continue
        command, properties, text = found.groups()
        if command == "stop-commands":
            stopped = text
            continue
        parsed = dict(part.split("=", 1) for part in (properties or "").split(",") if "=" in part)
        commands.append((command, parsed, text))
    return commands


def _unescaped(text):
    return text.replace("%2C", ",").replace("%3A", ":").replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%")


def _run_grading_step(repo, tmp_path, *, install="success", path=None, full=False):
    """Run the workflow's grading step as Actions would; returns (log, job summary, result). Its exit
    status is 0 with full marks (``full``), 1 otherwise (the run shows as failed)."""
    output, step_summary = tmp_path / "github_output", tmp_path / "step_summary.md"
    output.write_text("")
    step_summary.write_text("")
    step = _step("katas")
    # The step's env, with the expressions Actions would evaluate.
    values = {"${{ steps.install.outcome }}": install}
    env = {name: values.get(str(value), str(value)) for name, value in step.get("env", {}).items()}
    assert not [value for value in env.values() if "${{" in value]
    env = {**os.environ, **env, "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(step_summary)}
    if path:
        env["PATH"] = path
    done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=repo, capture_output=True, text=True, timeout=900,
                          env=env)
    assert done.returncode == (0 if full else 1), done.stderr
    outputs = parse_outputs(output.read_text())
    result = json.loads(base64.b64decode(outputs["result"]))
    points = sum(test["score"] for test in result["tests"])
    assert outputs["points"] == str(points) and outputs["max-points"] == str(result["max_score"])
    assert outputs["status"] == result["status"] and (points == result["max_score"]) == full
    return done.stdout + done.stderr, step_summary.read_text(), result


def _recorded(result):
    """(points, maximum) as the reporter sends them to Classroom; None when it sends nothing."""
    if not result["max_score"]:
        return None
    return sum(test["score"] for test in result["tests"]), result["max_score"]


def _assert_zero_with_reason(log, step_summary, result, *words):
    """Grading failed: 0 points out of the real maximum, and the reason everywhere the student looks."""
    check_classroom(result, total=TOTAL_POINTS)
    assert _recorded(result) == (0, TOTAL_POINTS)
    assert result["status"] == "error"
    reason = result["tests"][0]["message"]
    assert all(word in reason for word in words), reason
    commands = workflow_commands(log)
    assert [_unescaped(text) for command, _, text in commands if command == "error"] == [reason]
    assert [_unescaped(text) for command, _, text in commands if command == "notice"] == \
        [f"Points 0/{TOTAL_POINTS} / 得分 0/{TOTAL_POINTS}"]
    assert f"0/{TOTAL_POINTS}" in step_summary and reason.split(" / ")[0] in step_summary


def test_workflow_installs_pinned_wheels_by_name_never_the_repository_and_always_grades_and_reports():
    workflow = _workflow()
    assert "push" in workflow["on"]
    assert workflow["permissions"] == {"contents": "read"}   # nothing to write, no checks, no secrets
    assert "secrets." not in WORKFLOW.read_text()             # the secret never goes to student CI
    assert workflow["concurrency"]["cancel-in-progress"] is True and "github.ref" in workflow["concurrency"]["group"]
    assert workflow["jobs"]["practice-feedback"]["name"]
    for step in _steps():   # every action pinned by a full commit, its version in a comment
        if "uses" in step:
            assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", step["uses"]), step["uses"]
            line = next(line for line in WORKFLOW.read_text().splitlines() if step["uses"] in line)
            assert re.search(r"# v\d", line), line
    assert _step(uses="actions/checkout")["with"]["persist-credentials"] is False
    setup = _step(uses="actions/setup-python")
    assert setup["with"]["cache"] == "pip"
    install = _step("install")
    prefix = "python -m pip install --only-binary :all: "   # wheels only: no package builds anything
    commands = [line.strip() for line in install["run"].splitlines() if line.strip()]
    assert all(line.startswith(prefix) for line in commands)
    assert "torch==2.13.0" in commands[0] and "--index-url https://download.pytorch.org/whl/cpu" in commands[0]
    for line in commands:   # packages by name and pinned: nothing of the repository is built or installed
        packages = line.removeprefix(prefix).replace("--index-url https://download.pytorch.org/whl/cpu", "").split()
        assert packages and all(re.fullmatch(r"[A-Za-z0-9_.-]+==[0-9][0-9A-Za-z.+]*", p) for p in packages), line
    assert install["working-directory"] == "${{ runner.temp }}"   # not where a pip/ folder of the repo is
    bubblewrap = next(s for s in _steps() if "bubblewrap" in s.get("run", ""))
    assert "sudo apt-get install -y bubblewrap" in bubblewrap["run"] and bubblewrap["continue-on-error"] is True
    assert "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0" in bubblewrap["run"]   # Ubuntu 24.04
    grading = _step("katas")
    assert grading["if"].replace(" ", "") in ("always()", "${{!cancelled()}}")   # also after a failed install
    assert "KATA_SECRET" not in grading["env"]
    assert grading["env"]["INSTALL_OUTCOME"].replace(" ", "") == "${{steps.install.outcome}}"
    assert grading["timeout-minutes"] * 60 > _classroom_step().GRADE_TIMEOUT   # the script stops grade.py first
    # No action after grading: the step writes the summary, the annotations and the outputs itself.
    assert _steps()[-1] == grading and {s["uses"].split("@")[0] for s in _steps() if "uses" in s} == \
        {"actions/checkout", "actions/setup-python"}
    assert "autograding-grading-reporter" not in WORKFLOW.read_text()
    outputs = workflow["jobs"]["practice-feedback"]["outputs"]
    assert {name: value.replace(" ", "") for name, value in outputs.items()} == {
        name: f"${{{{steps.katas.outputs.{name}}}}}" for name in ("points", "max-points", "status")}


def test_a_release_carries_the_workflow_and_the_devcontainer_and_the_step_grades_the_answer_key(template):
    assert (template / ".github" / "workflows" / "classroom.yml").read_text() == WORKFLOW.read_text()
    assert '"--against", "answer-key"' in (ROOT / "kata_harness" / "platforms" / "classroom_step.py").read_text()
    devcontainer = json.loads((template / ".devcontainer" / "devcontainer.json").read_text())
    version = re.fullmatch(r"mcr\.microsoft\.com/devcontainers/python:(\d+)\.(\d+)", devcontainer["image"])
    assert version and (int(version[1]), int(version[2])) >= _classroom_step().MIN_PYTHON
    install = devcontainer["onCreateCommand"]   # CPU PyTorch by name, from outside the repository
    assert install.startswith("cd /tmp && ") and "torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu" in install
    assert "-e ." not in install and " . " not in install + " "


HOSTILE_PRINT = '''
def mean_value(x):
    print("::stop-commands::learner")
    raise ValueError("out\\n::error file=katas/k03_dtypes.py,line=1::forged 70/70\\n::notice::Points 70/70\\n"
                     "::learner::\\n::error::forged again")
'''


@pytest.mark.e2e
def test_one_failing_function_shows_its_pitfall_in_the_log_and_the_summary(repo, tmp_path):
    """One wrong answer and one function whose exception is made of workflow commands: the log and the
    summary show both; the annotations are exactly one error on each function's ``def`` line and the
    points, escaped, and nothing learner code printed or raised turns into a command."""
    for path in (ROOT / "reference").glob("*.py"):
        shutil.copy(path, repo / "katas" / path.name)
    with (repo / "katas" / "k01_creation.py").open("a") as handle:
        handle.write(WRONG_FILLED)
    with (repo / "katas" / "k03_dtypes.py").open("a") as handle:
        handle.write(HOSTILE_PRINT)
    log, step_summary, result = _run_grading_step(repo, tmp_path)
    commands = workflow_commands(log)
    assert [command for command, _, _ in commands] == ["error", "error", "notice"], commands
    lines = {name: next(number for number, line in enumerate((repo / "katas" / f"{name}.py").read_text().splitlines(), 1)
                        if line.startswith(f"def {function}("))   # its first def, where the learner writes it
             for name, function in (("k01_creation", "filled"), ("k03_dtypes", "mean_value"))}
    (_, filled, filled_text), (_, mean, mean_text), (_, _, points) = commands
    assert filled == {"file": "katas/k01_creation.py", "line": str(lines["k01_creation"]),
                      "title": "k01_creation.filled%3A failed / 未通过"}
    assert FILLED_PITFALL in _unescaped(filled_text) and "\n" not in filled_text
    assert mean["file"] == "katas/k03_dtypes.py" and mean["title"] == "k03_dtypes.mean_value%3A failed / 未通过"
    assert "forged" in _unescaped(mean_text) and "%0A::error" in mean_text   # the learner's text, inert
    assert _unescaped(points) == f"Points {TOTAL_POINTS - 2}/{TOTAL_POINTS} / 得分 {TOTAL_POINTS - 2}/{TOTAL_POINTS}"
    check_classroom(result)
    assert _recorded(result) == (TOTAL_POINTS - 2, TOTAL_POINTS)
    failing = [t for t in result["tests"] if t["status"] != "pass"]
    assert [t["name"] for t in failing] == ["k01_creation.filled", "k03_dtypes.mean_value"]
    assert FILLED_PITFALL in failing[0]["message"]
    # The log: the learner's text report, ending with the score.
    assert FILLED_PITFALL in log and f"score {TOTAL_POINTS - 2}/{TOTAL_POINTS}" in log
    # The job summary: the score, a table row per function, and the failure in full.
    assert f"score {TOTAL_POINTS - 2}/{TOTAL_POINTS}" in step_summary
    assert "| ❌ | `filled` | 0/1 |" in step_summary and "| ✅ | `mask_like` | 1/1 |" in step_summary
    assert FILLED_PITFALL in step_summary and f"Hint: {FILLED.hint(1)}" in step_summary


@pytest.mark.e2e
def test_grade_py_broken_still_records_zero_out_of_the_real_maximum(repo, tmp_path):
    (repo / "grade.py").write_text("raise SystemExit('broken on purpose')\n")
    log, step_summary, result = _run_grading_step(repo, tmp_path)
    _assert_zero_with_reason(log, step_summary, result, "grade.py did not produce a result", "broken on purpose")


@pytest.mark.e2e
def test_python_without_torch_still_records_zero_out_of_the_real_maximum(repo, tmp_path):
    bare = tmp_path / "bare-venv"   # a Python without torch, as after a failed or skipped install
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True, timeout=120)
    log, step_summary, result = _run_grading_step(repo, tmp_path, path=f"{bare / 'bin'}{os.pathsep}{os.environ['PATH']}")
    _assert_zero_with_reason(log, step_summary, result, "PyTorch is not installed")


@pytest.mark.e2e
def test_wrong_python_still_records_zero_out_of_the_real_maximum(repo, tmp_path):
    fake = tmp_path / "old-python"   # a `python` that answers the step's probe as Python 3.8 with torch would
    fake.mkdir()
    (fake / "python").write_text("#!/bin/sh\necho 3 8 True\n")
    (fake / "python").chmod(0o755)
    log, step_summary, result = _run_grading_step(repo, tmp_path, path=f"{fake}{os.pathsep}{os.environ['PATH']}")
    _assert_zero_with_reason(log, step_summary, result, "the wrong Python", "3.8", "3.10 or newer")


@pytest.mark.e2e
def test_failed_install_still_records_zero_out_of_the_real_maximum(repo, tmp_path):
    log, step_summary, result = _run_grading_step(repo, tmp_path, install="failure")
    _assert_zero_with_reason(log, step_summary, result, "install", "failure")


@pytest.mark.e2e
def test_without_a_curriculum_a_zero_is_still_recorded(repo, tmp_path):
    (repo / "grade.py").write_text("raise SystemExit(1)\n")
    shutil.rmtree(repo / "curriculum")
    _, _, result = _run_grading_step(repo, tmp_path)
    assert _recorded(result) == (0, 1) and "curriculum/ is missing" in result["tests"][0]["message"]


def test_the_real_maximum_is_read_with_and_without_tomllib(monkeypatch):
    step = _classroom_step()
    assert step.max_points(str(ROOT / "curriculum")) == TOTAL_POINTS
    monkeypatch.setitem(sys.modules, "tomllib", None)   # Python < 3.11: the step reads the TOML by hand
    assert step.max_points(str(ROOT / "curriculum")) == TOTAL_POINTS
    assert step.max_points(str(ROOT / "no-such-folder")) is None


def test_the_step_needs_no_new_python_itself():
    """It explains a wrong Python, so it must run on one: its syntax is Python 3.7's."""
    ast.parse((ROOT / "kata_harness" / "platforms" / "classroom_step.py").read_text(encoding="utf-8"), feature_version=(3, 7))
    wanted = re.search(r'requires-python\s*=\s*">=(\d+)\.(\d+)"', (ROOT / "pyproject.toml").read_text())
    assert (int(wanted.group(1)), int(wanted.group(2))) == _classroom_step().MIN_PYTHON


def test_summary_shows_learner_text_only_as_code():
    """A message can quote learner code (an exception it raised): it must not add rows, HTML or links."""
    hostile = "x | ✅ | forged | 1/1 |\n```\n</details><img src=x onerror=alert(1)> [link](http://example.com)"
    katas = [kata for kata in load_curriculum() if kata.name == "k01_creation"]
    functions = [{"name": f.name, "status": "passed", "score": f.points, "max_score": f.points, "message": "",
                  "differed": "", "pitfall": "", "hint": ""} for f in katas[0].functions]
    functions[2] = {**functions[2], "status": "failed", "score": 0, "message": f"What differed: {hostile}",
                    "differed": hostile, "pitfall": "a pitfall", "hint": "a hint"}
    doc = {"score": 6, "max_score": 7, "lang": "en", "katas": [{"kata": "k01_creation", "score": 6, "max_score": 7,
                                                  "functions": functions}]}
    text = summary.markdown(doc, katas, lang="en")
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(rows) == 1 + len(functions)   # the header and one row per function: no forged row
    assert rows[3].endswith("| `x \\| ✅ \\| forged \\| 1/1 \\|` |")   # the first line, as one code span
    fenced = re.findall(r"(?ms)^(`{3,})text\n(.*?)\n\1$", text)
    assert [fence for fence, _ in fenced] == ["````"]   # longer than the ``` inside the message
    assert "<img src=x" in fenced[0][1] and "a hint" in fenced[0][1]
    outside = re.sub(r"(?ms)^(`{3,})text\n.*?\n\1$", "", text)
    assert "<img" not in outside and "](http" not in outside and outside.count("</details>") == 1


def _interpreter_start() -> float:
    """Seconds this machine takes now to start a Python interpreter and end it (the part of a
    grade.py run before its clock starts), the slower of two tries."""
    times = []
    for _ in range(2):
        started = time.monotonic()
        subprocess.run([sys.executable, "-c", "pass"], check=True, timeout=120)
        times.append(time.monotonic() - started)
    return max(times)


@pytest.mark.e2e
def test_deadline_prints_a_complete_result_in_time(tmp_path):
    """A hang that the function's time limit (60 s) would let run past the deadline: grade.py
    prints a complete result within ``--deadline`` seconds of its own start, the hung function an
    error and what the deadline left ungraded named as such. The deadline counts from grade.py's
    first line, so the bound adds what starting an interpreter costs on this machine now (measured
    beside it: under load it is not nothing), never more."""
    solutions = tmp_path / "katas"
    solutions.mkdir()
    for path in (ROOT / "reference").glob("*.py"):
        shutil.copy(path, solutions / path.name)
    with (solutions / "k03_dtypes.py").open("a") as handle:
        handle.write("\ndef mean_value(x):\n    import time\n    time.sleep(1000)\n")
    before = _interpreter_start()
    started = time.monotonic()
    grading = subprocess.Popen([sys.executable, str(ROOT / "grade.py"), "--solutions", str(solutions), "--format",
                                "classroom", "--deadline", "25", "--timeout", "60"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    printed = read_until(grading, '"max_score"', timeout=120)   # the reporter's document is one line
    elapsed = time.monotonic() - started
    rest_of_output(grading, timeout=60)   # and then it ends, having stopped what it started
    start_cost = max(before, _interpreter_start())
    assert grading.returncode == 0 and elapsed < 25 + start_cost, (elapsed, start_cost)
    result = json.loads(printed)
    check_classroom(result)
    assert result["max_score"] == TOTAL_POINTS
    by_name = {t["name"]: t for t in result["tests"]}
    assert by_name["k01_creation.filled"]["status"] == "pass"
    assert by_name["k03_dtypes.mean_value"]["status"] == "error"
    assert "deadline" in by_name["k15_bmi.bmi_report (point 1 of 2)"]["message"]


def test_tampered_template_earns_nothing_in_official_formats(repo):
    """A grading file edited in the template: both official formats give 0 and name it. Graded once
    in this process (``graded_in``, on the warm children: the edited file is the pytest setup, not
    a kata spec) and rendered in each format; the workflow step above runs the template's real
    grade.py, and test_release.py names added, changed and removed files."""
    for path in (ROOT / "reference").glob("*.py"):
        shutil.copy(path, repo / "katas" / path.name)
    with (repo / "conftest.py").open("a", encoding="utf-8") as conftest:
        conftest.write("# edited by the student\n")
    result = graded_in(repo, "k15")
    classroom = json.loads(result.render("classroom"))
    gradescope = json.loads(result.render("gradescope"))
    assert result.doc["integrity"] == {"ok": False, "modified": ["conftest.py"]}
    assert all(t["score"] == 0 and "conftest.py" in t["message"] for t in classroom["tests"])
    assert gradescope["score"] == 0 and "conftest.py" in gradescope["output"]


def test_workflow_commands_and_outputs_are_escaped_as_github_documents():
    step = _classroom_step()
    assert step._annotation("error", "50%\r\nnext", file="a,b:c.py", line=3, title="t: u, v") == \
        "::error file=a%2Cb%3Ac.py,line=3,title=t%3A u%2C v::50%25%0D%0Anext"
    hostile = "a\nstatus=pass\npoints=70\nghadelimiter_0123\n"
    assert parse_outputs(step._output_lines("result", hostile)) == {"result": hostile}   # one output, as given
    result = {"version": 1, "status": "fail", "max_score": 3, "tests": [
        {"name": f, "status": status, "score": int(status == "pass"), "message": f"{f} message",
         "test_code": f"python grade.py {f}", "filename": "katas/k01_creation.py", "line_no": n, "duration": 0}
        for n, (f, status) in enumerate((("k01_creation.a", "pass"), ("k01_creation.b", "fail"),
                                         ("k01_creation.c", "fail")), 1)]}
    lines = step.annotations(result, {"k01_creation.a": "passed", "k01_creation.b": "failed",
                                      "k01_creation.c": "todo"})
    assert [line.split(" ", 1)[0] for line in lines] == ["::error", "::notice"]   # a stub still to do is no error
    assert "line=2" in lines[0] and "Points 1/3" in lines[1]
    many = {**result, "max_score": 15, "tests": [{**result["tests"][1], "test_code": f"python grade.py k.f{n}"}
                                                  for n in range(15)]}
    lines = step.annotations(many, {})
    assert len(lines) == step.ANNOTATIONS + 1 and "5 more functions failed" in lines[-1]


@pytest.mark.e2e
def test_full_marks_end_the_step_with_status_0_and_no_error(repo, tmp_path):
    """A grading with every point (grade.py stood in for by one that prints such a result): exit 0,
    the outputs, one notice with the points and no error annotation."""
    full = {"version": 1, "status": "pass", "max_score": 2, "tests": [
        {"name": f"k01_creation.f{n}", "status": "pass", "score": 1, "message": "", "test_code":
         f"python grade.py k01_creation.f{n}", "filename": "katas/k01_creation.py", "line_no": 1, "duration": 0}
        for n in range(2)]}
    bundle = {"classroom": full, "text": "score 2/2", "markdown": "score 2/2", "statuses": {}}
    (repo / "grade.py").write_text(f"print({json.dumps(json.dumps(bundle))})\n")
    log, step_summary, result = _run_grading_step(repo, tmp_path, full=True)
    assert result == full and "score 2/2" in step_summary
    assert [(command, _unescaped(text)) for command, _, text in workflow_commands(log)] == [
        ("notice", "Points 2/2 / 得分 2/2")]
