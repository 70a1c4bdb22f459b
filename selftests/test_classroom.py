"""GitHub Classroom and Gradescope: the workflow's grading step, and both result formats.

Golden files: set KATA_UPDATE_GOLDEN=1 to rewrite selftests/golden/*.json after a deliberate
change of the formats or of the messages, then review the diff.
"""

import base64
import json
import os
import shutil
import subprocess
import time

import pytest
import yaml

from kata_harness.catalog import load_curriculum
from selftests.gradekit import ROOT, run

WORKFLOW = ROOT / ".github" / "workflows" / "classroom.yml"
MIXED = "selftests/fixtures/mixed_solutions"
GOLDEN = ROOT / "selftests" / "golden"
TOTAL_POINTS = sum(f.points for kata in load_curriculum() for f in kata.functions)


def _workflow():
    return yaml.safe_load(WORKFLOW.read_text())


def _steps():
    return _workflow()["jobs"]["run-autograding-tests"]["steps"]


def _step(step_id=None, uses=None):
    return next(s for s in _steps() if (step_id and s.get("id") == step_id) or (uses and s.get("uses", "").startswith(uses)))


def _run_grading_step(cwd, tmp_path):
    """Run the workflow's grading step as Actions would: bash, with a GITHUB_OUTPUT file."""
    output = tmp_path / "github_output"
    output.write_text("")
    script = _step("katas")["run"]
    done = subprocess.run(["bash", "-e", "-c", script], cwd=cwd, capture_output=True, text=True, timeout=1200,
                          env={**os.environ, "GITHUB_OUTPUT": str(output)})
    assert done.returncode == 0, done.stderr
    lines = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
    return json.loads(base64.b64decode(lines["result"]))


def _validate_classroom(result, fallback=False):
    assert result["version"] == 1
    assert result["status"] in ("pass", "fail", "error")
    # The fallback (grade.py itself broke) cannot know the points: 0 sends nothing to Classroom.
    assert isinstance(result["max_score"], int) and result["max_score"] == (0 if fallback else len(result["tests"]))
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


def test_workflow_runs_on_push_caches_pip_installs_cpu_torch_and_always_reports():
    workflow = _workflow()
    assert "push" in workflow["on"]
    setup = _step(uses="actions/setup-python")
    assert setup["with"]["cache"] == "pip"
    install = next(s for s in _steps() if "pip install" in s.get("run", ""))
    assert "torch==2.13.0" in install["run"] and "/whl/cpu" in install["run"] and "-e ." in install["run"]
    assert "--format classroom" in _step("katas")["run"]
    reporter = _step(uses="classroom-resources/autograding-grading-reporter@v1")
    assert reporter["if"] == "always()"
    assert reporter["with"]["runners"] == "katas"
    assert reporter["env"]["KATAS_RESULTS"].replace(" ", "") == "${{steps.katas.outputs.result}}"


def test_grading_step_writes_a_result_the_reporter_reads(tmp_path):
    project = tmp_path / "project"   # the step writes files where it runs: not into this checkout
    shutil.copytree(ROOT, project, ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info"))
    result = _run_grading_step(project, tmp_path)
    _validate_classroom(result)
    assert result["max_score"] == TOTAL_POINTS
    assert result["status"] == "fail" and all(t["status"] == "fail" for t in result["tests"])   # fresh stubs


def test_grading_step_writes_a_result_even_when_grade_py_breaks(tmp_path):
    broken = tmp_path / "project"
    broken.mkdir()
    (broken / "grade.py").write_text("raise SystemExit('broken on purpose')\n")
    result = _run_grading_step(broken, tmp_path)
    _validate_classroom(result, fallback=True)
    assert result["status"] == "error" and "did not produce a result" in result["tests"][0]["message"]


def _normalized(document: dict) -> dict:
    for test in document.get("tests", []):
        if "duration" in test:
            test["duration"] = 0
    if "execution_time" in document:
        document["execution_time"] = 0
    return document


@pytest.mark.parametrize("fmt", ["classroom", "gradescope"])
def test_golden_file(fmt):
    done = run("k01", "--solutions", MIXED, "--format", fmt, "--lang", "en")
    assert done.returncode == 0, done.stderr
    produced = _normalized(json.loads(done.stdout))
    golden = GOLDEN / f"{fmt}.json"
    if os.environ.get("KATA_UPDATE_GOLDEN"):
        golden.write_text(json.dumps(produced, indent=1, ensure_ascii=False) + "\n")
    assert produced == json.loads(golden.read_text())
    if fmt == "classroom":
        _validate_classroom(produced)
        assert [t["status"] for t in produced["tests"]] == ["pass", "fail", "fail", "error", "error", "fail", "pass"]
    else:
        assert produced["score"] == 2 and [t["max_score"] for t in produced["tests"]] == [1, 1, 1, 2, 1, 1]


def test_deadline_prints_a_complete_result_in_time(tmp_path):
    solutions = tmp_path / "katas"
    solutions.mkdir()
    for path in (ROOT / "reference").glob("*.py"):
        shutil.copy(path, solutions / path.name)
    with open(solutions / "k02_dtypes.py", "a") as handle:
        handle.write("\ndef mean_value(x):\n    import time\n    time.sleep(1000)\n")
    started = time.monotonic()
    done = run("--solutions", str(solutions), "--format", "classroom", "--deadline", "15", "--timeout", "60")
    elapsed = time.monotonic() - started
    assert done.returncode == 0 and elapsed < 15, elapsed
    result = json.loads(done.stdout)
    _validate_classroom(result)
    assert result["max_score"] == TOTAL_POINTS
    by_name = {t["name"]: t for t in result["tests"]}
    assert by_name["k01_creation.filled"]["status"] == "pass"
    assert by_name["k02_dtypes.mean_value"]["status"] == "error"
    assert "deadline" in by_name["k13_bmi.bmi_report (point 1 of 2)"]["message"]


def test_tampered_template_earns_nothing_in_official_formats(tmp_path):
    out = tmp_path / "template"
    assert run("release", str(out), timeout=900).returncode == 0
    for path in (ROOT / "reference").glob("*.py"):
        shutil.copy(path, out / "katas" / path.name)
    (out / "tests" / "conftest.py").write_text("# an added grading file\n")
    grade = [os.sys.executable, "grade.py", "k13"]
    classroom = json.loads(subprocess.run(grade + ["--format", "classroom"], cwd=out, capture_output=True,
                                          text=True, timeout=600).stdout)
    gradescope = json.loads(subprocess.run(grade + ["--format", "gradescope"], cwd=out, capture_output=True,
                                           text=True, timeout=600).stdout)
    assert all(t["score"] == 0 and "tests/conftest.py" in t["message"] for t in classroom["tests"])
    assert gradescope["score"] == 0 and "tests/conftest.py" in gradescope["output"]
