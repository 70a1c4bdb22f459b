"""Hidden cases: a submission that looks its answers up in the public answer key earns practice
points only; honest solutions earn full marks both ways; a missing or wrong secret gives an error
result; no hidden expected value leaves the instructor's side; the encrypted key and the live
reference agree.

One copy of this project is frozen with ``SECRET`` (so it holds ``tests/hidden_key.dat``) and a
student template is released from it, once for the whole module (``built_once``). The template holds
no hidden key: official grading happens in the instructor's project (``--solutions`` or ``batch``). ``SECRET`` is
``KATA_SECRET`` when set: an instructor can check that every correct idiom passes the hidden cases
their own secret draws.
"""

from __future__ import annotations

import inspect
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from kata_harness.content.curriculum import load_curriculum
from kata_harness.judging import answer_key, hidden
from kata_harness.judging.expectations import Recorded
from kata_harness.judging.verdicts import verdict_for
from kata_harness.layout import LAYOUT, Layout
from kata_harness.observation.local import devices_for, load_kata_spec, load_module, observe_devices
from kata_harness.spec import Case, Function, array, randn, tensor, transposed
from selftests.gradekit import ROOT, graded_in
from selftests.once import built_once
from selftests.variants import load_all

SECRET = os.environ.get("KATA_SECRET", "").strip() or "selftest-secret-7Qm2xV9c"
LOOKUP = ROOT / "selftests" / "fixtures" / "key_lookup" / "k01_creation.py"
K01_POINTS = sum(f.points for kata in load_curriculum(LAYOUT.curriculum) if kata.name == "k01_creation" for f in kata.functions)
K01_FUNCTIONS = sum(1 for kata in load_curriculum(LAYOUT.curriculum) if kata.name == "k01_creation" for f in kata.functions)
PROJECT_FILES = ("grade.py", "pyproject.toml", "conftest.py", "README.md")
PROJECT_FOLDERS = ("kata_harness", "tests", "curriculum", "katas", "reference", "docs", "templates")


def _environment(secret: str | None = None, sandbox: bool = True) -> dict:
    """This environment without KATA_SECRET, then with ``secret``; ``sandbox=False`` runs learner
    code unsandboxed, as on a laptop without bubblewrap (so that it can read the answer key)."""
    environment = {k: v for k, v in os.environ.items() if k not in ("KATA_SECRET", "KATA_SANDBOX")}
    if secret is not None:
        environment["KATA_SECRET"] = secret
    if not sandbox:
        environment["KATA_SANDBOX"] = "none"
    return environment


def _grade_py(root: Path, *args: str, secret: str | None = None, sandbox: bool = True,
              timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(root / "grade.py"), *args], capture_output=True, text=True,
                          cwd=root, timeout=timeout, env=_environment(secret, sandbox))


def _graded(root: Path, *args: str, secret: str | None = None, sandbox: bool = True):
    """``root``'s own ``grade.py ARGS`` with ``_environment``'s variables, graded in this process
    on the kept children (``gradekit.graded_in``): the run ``root``'s grade.py would settle."""
    return graded_in(root, *args, env={"KATA_SECRET": secret, "KATA_SANDBOX": None if sandbox else "none"})


def _json(root: Path, *args: str, **options) -> dict:
    """The document ``root``'s ``grade.py ARGS`` prints (a --format that prints JSON)."""
    return json.loads(_graded(root, *args, **options).render())


def _points(classroom: dict) -> tuple[int, int]:
    return sum(test["score"] for test in classroom["tests"]), classroom["max_score"]


@pytest.fixture(scope="module")
def instructor(tmp_path_factory):
    """(a copy of this project frozen with SECRET, the student template released from it)."""
    def build(folder: Path) -> None:
        project = folder / "project"
        skip = shutil.ignore_patterns("__pycache__", "*.pyc", "hidden_key.dat")
        for name in PROJECT_FILES:
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, project / name)
        for name in PROJECT_FOLDERS:
            shutil.copytree(ROOT / name, project / name, ignore=skip)
        frozen = _grade_py(project, "freeze", secret=SECRET)
        assert frozen.returncode == 0, frozen.stderr[-3000:]
        released = _grade_py(project, "release", str(folder / "template"), secret=SECRET)
        assert released.returncode == 0, released.stderr[-3000:]

    built = built_once(tmp_path_factory, "hidden-cases", build)
    return built / "project", built / "template"


@pytest.fixture
def student(instructor, tmp_path):
    """A student's repository: a fresh copy of the released template."""
    copy = tmp_path / "repo"
    shutil.copytree(instructor[1], copy)
    return copy


# --- the declarative part ---------------------------------------------------------------------


def test_a_plan_runs_declared_hidden_cases_then_redraws_randomised_ones_at_most_doubling():
    function = Function("f", [Case(1), Case(randn(2)), Case(tensor([1.0])), Case(array(randn(3))),
                              Case(transposed(randn(2, 3))), Case(5, hidden=True)])
    plan = function.hidden_plan("kx")
    assert plan == {"public": 5, "hidden": [[5, function.seed("kx", 5)], [1, None], [3, None], [4, None]]}
    assert [case for case, _ in function.runs("kx")] == function.cases[:5]   # hidden=True: official only
    capped = Function("g", [Case(randn(2)), Case(randn(3)), Case(7, hidden=True)])
    assert capped.hidden_plan("kx")["hidden"] == [[2, capped.seed("kx", 2)], [0, None]]
    with pytest.raises(ValueError, match="hidden"):
        Function("h", [Case(1), Case(2, hidden=True), Case(3, hidden=True)])


def test_every_function_has_a_hidden_case():
    """Official grading checks every function on inputs no student file holds: randomised cases are
    drawn again from the secret, and a function whose inputs are all literal declares its own
    ``Case(..., hidden=True)``."""
    missing = [info.qualified for kata in load_curriculum(LAYOUT.curriculum) for info in kata.functions
               if not load_kata_spec(kata.name, LAYOUT.tests).function(info.name).hidden_plan(kata.name)["hidden"]]
    assert not missing, f"no hidden case: {missing}"


def test_hidden_seeds_come_from_the_secret_and_fit_a_generator():
    plan = {"public": 2, "hidden": [[0, None], [1, None]]}
    ours, theirs = hidden.extras_for(plan, SECRET, "k16_leaves.trainable"), \
        hidden.extras_for(plan, "another", "k16_leaves.trainable")
    seeds = [seed for _, seed in ours + theirs]
    assert len(set(seeds)) == 4 and all(0 <= seed < 2 ** 63 for seed in seeds)
    assert ours == hidden.extras_for(plan, SECRET, "k16_leaves.trainable")


# --- a key-lookup submission --------------------------------------------------------------------


@pytest.mark.e2e
def test_the_template_holds_no_hidden_key(instructor):
    project, template = instructor
    assert (project / Layout.HIDDEN_KEY).is_file() and not (template / Layout.HIDDEN_KEY).exists()


@pytest.mark.e2e
def test_key_lookup_earns_full_practice_marks_and_no_official_marks(instructor, student):
    """Unsandboxed, so that it can read tests/answer_key.dat: only the hidden cases stop it, in the
    instructor's project, where the hidden key is."""
    project, _ = instructor
    shutil.copy(LOOKUP, student / "katas" / "k01_creation.py")
    practice = _json(student, "k01", "--format", "json", sandbox=False)
    assert practice["official"] is False and practice["integrity"]["ok"] is True
    assert practice["score"] == practice["max_score"] == K01_POINTS
    handed_in = ["--solutions", str(student / "katas"), "--against", "answer-key"]
    practice = _json(project, "k01", *handed_in, "--format", "json", sandbox=False)
    not_run = hidden.read_header(project)["checks"]
    assert practice["score"] == K01_POINTS
    assert practice["hidden_checks_not_run"] == sum(n for name, n in not_run.items() if name.startswith("k01_")) > 0
    text = _graded(project, "k01", *handed_in, sandbox=False).render()
    assert f"{practice['hidden_checks_not_run']} more checks run only in official grading" in text

    official = _json(project, "k01", *handed_in, "--format", "classroom", secret=SECRET, sandbox=False)
    assert _points(official) == (0, K01_POINTS)
    for test in official["tests"]:   # failed on a hidden case, told without the expected value
        assert test["status"] == "fail" and "run only in official grading" in test["message"], test["message"]


@pytest.mark.e2e
def test_key_lookup_earns_nothing_in_batch_with_the_secret_and_an_honest_submission_everything(instructor, tmp_path):
    project, _ = instructor
    submissions = tmp_path / "submissions"
    (submissions / "lookup").mkdir(parents=True)
    (submissions / "honest").mkdir()
    shutil.copy(LOOKUP, submissions / "lookup" / "k01_creation.py")
    shutil.copy(ROOT / "reference" / "k01_creation.py", submissions / "honest" / "k01_creation.py")

    def k01_scores(secret):
        book = tmp_path / f"book-{bool(secret)}.json"
        done = _grade_py(project, "batch", str(submissions), "--out", str(book), "--no-sandbox", "-j", "1",
                         secret=secret)
        assert done.returncode == 0, done.stderr[-3000:]
        return {row["submission"]: sum(v for k, v in row.items() if k.startswith("k01_creation.")) for row in
                json.loads(book.read_text(encoding="utf-8"))}

    assert k01_scores(None) == {"lookup": K01_POINTS, "honest": K01_POINTS}   # the lookup works here too ...
    assert k01_scores(SECRET) == {"lookup": 0, "honest": K01_POINTS}          # ... but not on hidden cases


@pytest.mark.e2e
def test_gradescope_autograder_with_the_secret_grades_hidden_cases(instructor, tmp_path):
    project, _ = instructor
    archive = tmp_path / "autograder.zip"
    done = _grade_py(project, "release", "--gradescope", str(archive), secret=SECRET)
    assert done.returncode == 0, done.stderr[-3000:]
    with zipfile.ZipFile(archive) as opened:
        assert opened.read("kata_secret").decode().strip() == SECRET
        opened.extractall(tmp_path / "ag" / "source")
    (tmp_path / "ag" / "submission").mkdir()
    shutil.copy(LOOKUP, tmp_path / "ag" / "submission" / "k01_creation.py")
    environment = {**_environment(sandbox=False), "AUTOGRADER_ROOT": str(tmp_path / "ag"), "KATA_PYTHON": sys.executable}
    subprocess.run(["bash", str(tmp_path / "ag" / "source" / "run_autograder")], env=environment, timeout=900,
                   capture_output=True)
    results = json.loads((tmp_path / "ag" / "results" / "results.json").read_text(encoding="utf-8"))
    k01 = [test for test in results["tests"] if test["tags"] == ["k01_creation"]]
    assert len(k01) == K01_FUNCTIONS and all(test["score"] == 0 for test in k01)


# --- honest solutions ---------------------------------------------------------------------------


def _variant_solution(kata: str, choice: int) -> str:
    """A kata file made of other correct idioms from selftests/variants: for each function its
    ``choice``-th right variant (the last one where there are fewer)."""
    right = {}
    for variant in load_all():
        if variant.kata == kata and variant.correct:
            right.setdefault(variant.function, []).append(variant.implementation)
    parts = ["import torch\n"]
    for function, implementations in right.items():
        source = inspect.getsource(implementations[min(choice, len(implementations) - 1)])
        lines = [line for line in source.splitlines() if not line.startswith("@")]
        lines[0] = f"def {function}(" + lines[0].split("(", 1)[1]
        parts.append("\n".join(lines) + "\n")
    return "\n\n".join(parts)


@pytest.mark.e2e
def test_honest_solutions_score_full_marks_in_practice_and_official_grading(instructor, student):
    """The reference, and k01 written with other correct idioms (every idiom of every kata is
    judged on the hidden cases in-process below): in practice in the template, officially in the
    instructor's project against its hidden key."""
    project, _ = instructor
    folders = {"reference": ROOT / "reference", "variants": student / "variants"}
    folders["variants"].mkdir()
    (folders["variants"] / "k01_creation.py").write_text(_variant_solution("k01_creation", 1), encoding="utf-8")
    for name, folder in folders.items():
        practice = _json(student, "k01", "--solutions", str(folder), "--format", "json")
        official = _json(project, "k01", "--solutions", str(folder), "--against", "answer-key", "--format", "json",
                         secret=SECRET)
        assert practice["official"] is False and official["official"] is True
        assert practice["score"] == official["score"] == K01_POINTS, (name, official)


# --- a missing or wrong secret ------------------------------------------------------------------


@pytest.mark.e2e
@pytest.mark.parametrize("problem", ["missing", "wrong", "wrong file"])
def test_official_grading_without_the_right_secret_is_an_error_result_naming_it(instructor, problem, tmp_path):
    """In the instructor's project, against its hidden key (and, for a wrong secret, against the live
    reference: the secret must open the hidden key wherever one exists); in a template, which has
    none, any secret is an error naming it."""
    project, template = instructor
    secret = {"missing": "", "wrong": "not-the-secret"}.get(problem)
    extra = ["--against", "answer-key"]
    if problem == "wrong file":
        (tmp_path / "secret.txt").write_text("not-the-secret\n")
        extra += ["--secret-file", str(tmp_path / "secret.txt")]
    # One kata shows it: the secret is read once for the whole grading, whichever katas are graded.
    classroom = _json(project, "k01", "--format", "classroom", *extra, secret=secret)
    if problem == "missing":   # student CI's format is practice and never needs the secret ...
        assert _points(classroom) == (0, K01_POINTS) and classroom["status"] == "fail"
        assert not any("KATA_SECRET" in test["message"] for test in classroom["tests"])
    else:                      # ... but a wrong secret given to it is an error there too
        assert _points(classroom) == (0, K01_POINTS) and classroom["status"] == "error"
        assert all(test["status"] == "error" and "KATA_SECRET" in test["message"] for test in classroom["tests"])
    gradescope = _json(project, "k01", "--format", "gradescope", *extra, secret=secret)
    assert gradescope["score"] == 0 and sum(test["max_score"] for test in gradescope["tests"]) == K01_POINTS
    assert all("KATA_SECRET" in test["output"] for test in gradescope["tests"])
    if problem == "wrong":   # against the live reference too, where the hidden key is not read to grade
        live = _json(project, "k01", "--solutions", "reference", "--format", "gradescope", secret=secret)
        assert live["score"] == 0 and all("KATA_SECRET" in test["output"] for test in live["tests"])
    if problem == "wrong":   # the template has no hidden key for any secret to open
        in_template = _json(template, "k01", "--format", "gradescope", secret=SECRET)
        assert in_template["score"] == 0 and all("KATA_SECRET" in test["output"] for test in in_template["tests"])


@pytest.mark.e2e
def test_student_ci_formats_grade_the_public_cases_without_the_secret(instructor):
    """classroom and workflow are practice formats: with a hidden key (the instructor's project) and
    no secret, an honest solution earns its public points there (not 0), and the summary says what
    official grading adds."""
    project, _ = instructor
    honest = ["--solutions", str(ROOT / "reference"), "--against", "answer-key"]
    classroom = _json(project, "k01", *honest, "--format", "classroom")
    assert _points(classroom) == (K01_POINTS, K01_POINTS) and classroom["status"] == "pass"
    bundle = _json(project, "k01", *honest, "--format", "workflow")
    assert _points(bundle["classroom"]) == (K01_POINTS, K01_POINTS)
    assert "more checks run only in official grading" in bundle["markdown"]
    practice = _json(project, "k01", *honest, "--format", "json")
    assert practice["official"] is False and practice["hidden_checks_not_run"] > 0


@pytest.mark.e2e
def test_without_a_hidden_key_official_formats_grade_the_public_cases_as_before(student):
    assert not (student / Layout.HIDDEN_KEY).exists()   # a template never has one
    (student / "grading-manifest.json").unlink()   # no longer a template (that file is a grading file)
    shutil.copy(ROOT / "reference" / "k01_creation.py", student / "katas" / "k01_creation.py")
    classroom = _json(student, "k01", "--format", "classroom")
    assert _points(classroom) == (K01_POINTS, K01_POINTS)


@pytest.mark.e2e
def test_freeze_and_release_refuse_to_leave_the_hidden_key_behind(instructor, tmp_path):
    project, _ = instructor
    key = (project / Layout.HIDDEN_KEY).read_bytes()
    frozen = _grade_py(project, "freeze")
    assert frozen.returncode == 2 and "KATA_SECRET" in frozen.stderr
    released = _grade_py(project, "release", str(tmp_path / "out"))
    assert released.returncode == 2 and "secret" in released.stderr and not (tmp_path / "out").exists()
    assert (project / Layout.HIDDEN_KEY).read_bytes() == key


# --- nothing hidden leaves the instructor's side ---------------------------------------------------


def _values(data, found: set) -> set:
    """The JSON of every ``values`` list anywhere in ``data`` (observations)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "values" and isinstance(value, list):
                found.add(json.dumps(value))
            _values(value, found)
    elif isinstance(data, list):
        for item in data:
            _values(item, found)
    return found


@pytest.mark.e2e
def test_no_expected_value_of_a_hidden_case_is_in_any_file_of_the_release(instructor):
    project, template = instructor
    secret_values = _values(hidden.decrypt(SECRET, project)["observations"], set())
    public = answer_key.load(template / "tests" / "answer_key.dat")
    decoded = json.dumps(public.__dict__)
    # Values that public cases share (an all-False mask, say) are public; short ones match by chance.
    searched = {value for value in secret_values - _values(public.expected, set()) if len(value) >= 20}
    assert len(searched) > 100
    files = {path: path.read_bytes() for path in template.rglob("*") if path.is_file()}
    leaks = [(value, str(path.relative_to(template))) for value in searched for path, raw in files.items()
             if value.encode() in raw]
    leaks += [(value, "the decoded public answer key") for value in searched if value in decoded]
    assert not leaks
    assert not [path for path, raw in files.items() if SECRET.encode() in raw]


# --- live reference and encrypted key agree ---------------------------------------------------------


def _corpus():
    """(function, label, implementation, correct or None): each variant, stub and reference function."""
    for variant in load_all():
        yield f"{variant.kata}.{variant.function}", variant.id, variant.implementation, variant.correct
    for kata in load_curriculum(LAYOUT.curriculum):
        stubs = load_module(ROOT / "katas" / f"{kata.name}.py")
        reference = load_module(ROOT / "reference" / f"{kata.name}.py")
        for info in kata.functions:
            yield info.qualified, f"{info.qualified}:stub", getattr(stubs, info.name), False
            yield info.qualified, f"{info.qualified}:reference", getattr(reference, info.name), True


@pytest.mark.e2e
def test_live_reference_and_encrypted_key_agree_and_every_correct_idiom_passes_the_hidden_cases(instructor):
    """For every function with hidden cases, each variant, stub and reference function is judged
    on public and hidden cases as grade.py's parent judges: against the live reference and against
    the two keys, the verdicts are identical; correct idioms pass and wrong answers fail."""
    project, _ = instructor
    opened = hidden.decrypt(SECRET, project)
    public = answer_key.load(project / "tests" / "answer_key.dat").expected
    functions = [info for kata in load_curriculum(LAYOUT.curriculum) for info in kata.functions]
    keyed = {info.qualified: event for info, event in
             Recorded(public, hidden=opened["observations"]).collect(functions, float("inf"))}
    live, verdicts = {}, {}
    for qualified, label, implementation, correct in _corpus():
        extras = opened["extras"].get(qualified)
        if not extras:
            continue   # no hidden case: the answer-key self-tests cover it
        kata, name = qualified.split(".")
        spec = load_kata_spec(kata, LAYOUT.tests).function(name)
        devices, _ = devices_for(spec)
        if qualified not in live:
            reference = getattr(load_module(ROOT / "reference" / f"{kata}.py"), name)
            observed = json.loads(json.dumps(observe_devices(reference, spec, kata, devices, extras=extras)))
            live[qualified] = {**public[qualified], "observations": observed}
        yours = json.loads(json.dumps(observe_devices(implementation, spec, kata, devices, extras=extras)))
        verdicts[label] = (correct, verdict_for(live[qualified], yours), verdict_for(keyed[qualified], yours))

    def shown(verdict):
        return verdict.status, verdict.difference, verdict.device, verdict.call, verdict.label

    assert len(verdicts) > 300
    assert not [label for label, (_, live, keyed) in verdicts.items() if shown(live) != shown(keyed)]
    assert not [label for label, (correct, live, _) in verdicts.items() if correct and live.status != "passed"]
    assert not [label for label, (correct, live, _) in verdicts.items() if not correct and live.status == "passed"]
