"""grade.py's command line (kata_harness/commands/): every subcommand in --help, grading as the
default, one usage error printed once, `check` for kata authors, `release --max-hint-level`
and `--force`, watch's --against and practice line, and one staleness rule for grade.py and pytest alike.

No kata name is written here: the katas and functions used are taken from the curriculum."""

import copy
import json
import shutil
import subprocess
import sys

import pytest

from kata_harness.commands import build_parser
from kata_harness.content import curriculum
from kata_harness.content.curriculum import load_curriculum, tomllib
from kata_harness.judging import answer_key, hidden
from kata_harness.layout import LAYOUT, Layout
from selftests.gradekit import ROOT, grade_json, project_copy, read_until, rest_of_output, run, run_in, statuses
from selftests.warm import grade_here

CURRICULUM = load_curriculum(LAYOUT.curriculum)
SUBCOMMANDS = ("grade", "watch", "hint", "reset", "freeze", "release", "batch", "report", "export", "merge", "check")


def _first(kata_index: int = 0):
    """A kata and its first function, by position in the curriculum."""
    kata = CURRICULUM[kata_index]
    return kata, kata.functions[0]


# --- the command line -----------------------------------------------------------------------------

def test_help_lists_every_subcommand_and_each_has_its_own_help():
    """grade.py's own parser and command, in this process (a light command starts no child)."""
    done = grade_here("--help")
    assert done.returncode == 0 and done.stderr == ""
    for name in SUBCOMMANDS:
        assert f"    {name} " in done.stdout, name
    assert set(build_parser().subcommands) == set(SUBCOMMANDS)
    for name in SUBCOMMANDS:
        own = grade_here(name, "--help")
        assert own.returncode == 0 and "usage: grade.py" in own.stdout, name
    assert "--max-hint-level" in grade_here("release", "--help").stdout


@pytest.mark.e2e
def test_a_real_grade_py_prints_the_same_help():
    """The help and a usage error as a learner's ``python grade.py`` prints them (its bootstrap, its
    exit status), once end to end; the tests above run the same parser in this process."""
    done = run("--help")
    assert done.returncode == 0 and done.stderr == "" and done.stdout == grade_here("--help").stdout
    refused = run("--format", "nope")
    assert refused.returncode == 2 and refused.stdout == "" and refused.stderr == grade_here("--format", "nope").stderr


def test_the_documented_command_list_names_every_subcommand():
    """The command line's list (docs/grading.md) has a line for every subcommand, and the
    development page tells that the self-tests expect untouched stubs."""
    grading = (ROOT / "docs" / "grading.md").read_text(encoding="utf-8")
    listing = grading.split("## The command line", 1)[1].split("```", 2)[1]
    for name in SUBCOMMANDS:
        assert f"python grade.py {name} " in listing or (name == "grade" and "python grade.py [grade]" in listing), name
    tests = (ROOT / "docs" / "development.md").read_text(encoding="utf-8").split("## The project's own tests", 1)[1]
    assert "untouched stubs" in tests.split("`python -m pytest selftests` proves", 1)[0]


def test_grading_is_the_default_subcommand():
    kata, _ = _first()
    implicit = grade_json(kata.name)
    explicit = grade_json("grade", kata.name)
    assert [k["kata"] for k in implicit["katas"]] == [k["kata"] for k in explicit["katas"]] == [kata.name]
    assert statuses(implicit) == statuses(explicit)


@pytest.mark.parametrize("argv", [["--format", "nope"], ["watch", "--interval"], ["batch"], ["release"],
                                  ["hint", "x", "--level", "0"], ["check", "--nope"]],
                         ids=lambda argv: " ".join(argv))
def test_a_usage_error_is_printed_once_with_exit_status_2(argv):
    done = grade_here(*argv)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("usage: grade.py") == 1 and done.stderr.count("error:") == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_a_typo_answers_with_the_kata_or_function_probably_meant():
    """`hint add_bais`, `grade.py k5`: the one line of the usage error names what was probably meant,
    among katas and functions alike."""
    kata, function = _first(4)
    typo = function.name[:-2] + function.name[-1] + function.name[-2]   # the last two letters swapped
    number = f"k{int(kata.number[1:])}"                                    # k5 for k05
    for argv, meant in ((["hint", typo], function.name), (["hint", f"{kata.name}.{typo}"], function.qualified),
                        ([number], kata.number)):
        done = grade_here(*argv, "--lang", "en")
        assert done.returncode == 2 and done.stdout == "", done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
        assert f"(did you mean `{meant}`?)" in done.stderr, done.stderr
    chinese = grade_here("hint", typo, "--lang", "zh")
    assert f"（你是不是想输入 `{function.name}`？）" in chinese.stderr, chinese.stderr
    nothing = grade_here("hint", "qqqqqqqqqq", "--lang", "en")
    assert nothing.returncode == 2 and "did you mean" not in nothing.stderr


def test_a_command_after_an_option_is_named_and_written_first():
    """`grade.py --lang zh hint add_bias` reads `hint` as a selector: the one line of the usage error
    says it is a command and gives the line with it first, which runs."""
    _, function = _first()
    done = grade_here("--lang", "en", "hint", function.name)
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, done.stderr
    line = f"python grade.py hint --lang en {function.name}"
    assert "'hint' is a command, not a kata" in done.stderr and line in done.stderr, done.stderr
    assert grade_here(*line.split()[2:]).returncode == 0
    assert "'hint' 是一个命令" in grade_here("--lang", "zh", "hint", function.name).stderr


def test_past_the_last_hint_level_says_no_more_hints_in_both_languages():
    _, function = _first()
    levels = len(function.hints)
    english = grade_here("hint", function.qualified, "--level", str(levels + 1), "--lang", "en")
    chinese = grade_here("hint", function.qualified, "--level", str(levels + 1), "--lang", "zh")
    assert english.returncode == chinese.returncode == 2
    assert "no more hints" in english.stderr and f"1-{levels}" in english.stderr
    assert "没有更多提示" in chinese.stderr
    assert len(english.stderr.strip().splitlines()) == 1


# --- one source of expected results, one staleness rule ---------------------------------------------

def test_the_staleness_rule_counts_the_reference_only_in_an_instructors_project(tmp_path):
    kata, _ = _first()
    for folder, text in (("tests", f"test_{kata.name}.py"), ("curriculum", f"{kata.name}.toml")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / text).write_text("")
    (tmp_path / "reference").mkdir()
    (tmp_path / "reference" / f"{kata.name}.py").write_text("# frozen\n")
    key = answer_key.AnswerKey(torch_version="", katas={kata.name: answer_key.kata_digest(kata.name, tmp_path)},
                               reference=answer_key.reference_digest(tmp_path), expected={})
    assert key.stale_katas(tmp_path) == []
    (tmp_path / "reference" / f"{kata.name}.py").write_text("# edited after the freeze\n")
    assert key.staleness(tmp_path) == {kata.name: "reference/ changed"}
    (tmp_path / Layout.MANIFEST).write_text("{}")   # a student template: its reference/ is not the instructor's
    assert key.stale_katas(tmp_path) == []
    (tmp_path / "tests" / f"test_{kata.name}.py").write_text("# changed\n")
    assert key.stale_katas(tmp_path) == [kata.name]


@pytest.mark.e2e
def test_grade_and_pytest_report_a_stale_kata_alike(tmp_path):
    """Without reference/, a test module changed after the freeze makes its kata stale for grade.py and
    for plain pytest, with the same message; the other katas are graded as before."""
    project = project_copy(tmp_path / "project", reference=False)
    kata, _ = _first()
    tests = project / "tests" / f"test_{kata.name}.py"
    tests.write_text(tests.read_text(encoding="utf-8") + "\n# changed after the freeze\n", encoding="utf-8")
    other = CURRICULUM[1]
    done = run_in(project, kata.name, other.name, "--format", "json", "--lang", "en")
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads(done.stdout)
    assert doc["graded_against"] == "answer-key"
    for entry in doc["katas"]:
        for function in entry["functions"]:
            if entry["kata"] == kata.name:
                assert function["status"] == "error" and "out of date" in function["message"]
            else:
                assert function["status"] == "todo"
    plain = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"tests/{tests.name}",
                            "--lang", "en"], capture_output=True, text=True, cwd=project, timeout=300)
    assert plain.returncode == 1 and "answer key is out of date for this kata" in plain.stdout, plain.stdout[-2000:]


# --- watch -------------------------------------------------------------------------------------------

@pytest.mark.e2e
def test_watch_honours_against_and_prints_the_practice_line(tmp_path):
    project = project_copy(tmp_path / "project", reference=False)
    kata, function = _first()
    refused = run_in(project, "watch", kata.name, "--against", "reference", "--lang", "en")
    assert refused.returncode == 2 and "no reference/ folder" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    # A hidden key whose header announces two hidden checks of one watched function (watch reads
    # only the header: hidden checks never run in practice).
    hidden.write_key("a secret", {function.qualified: [[0, 1], [0, 2]]}, {function.qualified: {"cpu": [{}, {}]}},
                     project)
    process = subprocess.Popen([sys.executable, str(project / "grade.py"), "watch", kata.name, "--lang", "en",
                                "--against", "answer-key", "--poll", "--interval", "0.2"], cwd=project,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = read_until(process, "watching")
        assert "2 more checks run only in official grading" in first
        assert f"score 0/{sum(f.points for f in kata.functions)}" in first
    finally:
        process.kill()
        rest_of_output(process)


# --- check -------------------------------------------------------------------------------------------

def test_check_passes_on_this_project():
    done = grade_here("check")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "check: OK" in done.stdout and "reference full marks, stubs todo" in done.stdout


def test_check_names_a_key_that_does_not_give_the_reference_full_marks():
    """What the referee observes now is judged against the key's records: where they agree, no
    problem; where one value moved beyond the tolerance (a key frozen with other kernels), that
    function is named."""
    from kata_harness.commands import check

    key = answer_key.load(LAYOUT.answer_key)
    functions = [f for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions]
    assert check.against_the_key(functions, key.expected, key, ROOT) == []
    moved = copy.deepcopy(key.expected)
    name = "k01_creation.evenly_spaced"
    moved[name]["observations"]["cpu"][0]["result"]["values"][1] += 1.0
    problems = check.against_the_key(functions, moved, key, ROOT)
    assert len(problems) == 1 and problems[0].startswith(f"tests/answer_key.dat: the reference does not score "
                                                         f"full marks against it: {name} (failed: ")


def _rewrite(path, change) -> None:
    """Apply ``change`` to the parsed curriculum file ``path`` and write it back."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(curriculum.dumps_kata(data), encoding="utf-8")


@pytest.mark.e2e
def test_check_names_every_planted_fault(tmp_path):
    project = project_copy(tmp_path / "project")
    (no_stub, _), (typo, typo_fn), (hint_key, hint_fn), (no_zh, no_zh_fn), (raising, raising_fn), \
        (solved, solved_fn), (changed, _), (no_curriculum, _), (no_lesson, _) = [_first(i) for i in range(9)]
    (project / "katas" / f"{no_stub.name}.py").unlink()
    curriculum_dir = project / "curriculum"
    _rewrite(curriculum_dir / f"{typo.name}.toml",
             lambda d: d["functions"][typo_fn.name]["pitfalls"].update(devcie={"en": "x", "zh": "x"}))
    _rewrite(curriculum_dir / f"{hint_key.name}.toml",
             lambda d: d["functions"][hint_fn.name].update(hint=d["functions"][hint_fn.name].pop("hints")))
    _rewrite(curriculum_dir / f"{no_zh.name}.toml", lambda d: d["functions"][no_zh_fn.name]["hints"][1].pop("zh"))
    with (project / "reference" / f"{raising.name}.py").open("a", encoding="utf-8") as reference:
        reference.write(f"\n\ndef {raising_fn.name}(*args, **kwargs):\n    raise RuntimeError('planted')\n")
    shutil.copy(ROOT / "reference" / f"{solved.name}.py", project / "katas" / f"{solved.name}.py")
    tests = project / "tests" / f"test_{changed.name}.py"
    tests.write_text(tests.read_text(encoding="utf-8") + "\n# changed after the freeze\n", encoding="utf-8")
    (curriculum_dir / f"{no_curriculum.name}.toml").unlink()
    _rewrite(curriculum_dir / f"{no_lesson.name}.toml", lambda d: d.update(lesson="lesson9"))
    missing_notes = curriculum.load_lessons(curriculum_dir)[-1]
    (project / missing_notes.notes["zh"]).unlink()

    done = run_in(project, "check", timeout=900)
    assert done.returncode == 1, done.stdout[-4000:] + done.stderr[-2000:]
    report = done.stdout
    assert "Traceback" not in report + done.stderr
    expected = [
        f"katas/{no_stub.name}.py: missing",
        f"curriculum/{typo.name}.toml: `functions.{typo_fn.name}.pitfalls.devcie` is no aspect, case label or probe",
        f"curriculum/{hint_key.name}.toml: unknown key `functions.{hint_fn.name}.hint` (did you mean `hints`?)",
        f"curriculum/{no_zh.name}.toml: `functions.{no_zh_fn.name}.hints[2]` has no zh text",
        f"reference/{raising.name}.py: `{raising_fn.name}` does not score full marks against itself",
        f"katas/{solved.name}.py: `{solved_fn.name}` is not a stub",
        f"tests/answer_key.dat: out of date for {changed.name} (its test module",
        "tests/answer_key.dat: out of date for every kata (reference/ changed since the freeze)",
        f"curriculum/{no_curriculum.name}.toml: missing",
        f"curriculum/{no_lesson.name}.toml: `lesson = \"lesson9\"` names no lesson of curriculum/lessons.toml",
        f"curriculum/lessons.toml: {missing_notes.name}'s notes {missing_notes.notes['zh']} are missing",
    ]
    for line in expected:
        assert line in report, f"{line!r} not in:\n{report}"
    assert report.startswith("check: ") and "problems" in report


# --- release --max-hint-level, --force -------------------------------------------------------------

@pytest.mark.e2e
def test_release_caps_the_hints_of_the_template_and_replaces_a_non_empty_folder_only_when_forced(tmp_path):
    """One release for two promises (a release grades twice to check itself): it refuses a folder
    that holds something of the instructor's unless forced, and --max-hint-level caps the hints."""
    out = tmp_path / "template"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    refused = run("release", str(out), "--max-hint-level", "1")
    assert refused.returncode == 2 and "--force" in refused.stderr
    assert (out / "notes.txt").read_text() == "mine"
    done = run("release", str(out), "--max-hint-level", "1", "--force", timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert not (out / "notes.txt").exists() and (out / "grade.py").exists()
    assert "hints capped at level 1" in done.stdout
    for path in sorted((out / "curriculum").glob("k*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert all(len(entry["hints"]) == 1 for entry in data["functions"].values()), path.name
    _, function = _first()
    first = run_in(out, "hint", function.qualified, "--level", "1", "--lang", "en")
    assert first.returncode == 0 and "1/1" in first.stdout
    for lang, words in (("en", "no more hints"), ("zh", "没有更多提示")):
        more = run_in(out, "hint", function.qualified, "--level", "2", "--lang", lang)
        assert more.returncode == 2 and words in more.stderr and "1-1" in more.stderr
    # The template is intact: its manifest covers the capped curriculum and its answer key is fresh.
    doc = json.loads(run_in(out, "--format", "json").stdout)
    assert doc["integrity"]["ok"] and doc["graded_against"] == "answer-key"
    assert set(statuses(doc).values()) == {"todo"}


def test_max_hint_level_needs_the_template():
    done = grade_here("release", "--gradescope", "x.zip", "--max-hint-level", "1")
    assert done.returncode == 2 and "--max-hint-level" in done.stderr


@pytest.mark.e2e
def test_a_release_that_refuses_leaves_no_half_written_folder(tmp_path):
    """A katas/ that holds a solved file is refused before anything is written: neither the new
    folder, nor a half of it, nor (with --force) the loss of what the folder held."""
    project = project_copy(tmp_path / "project")
    kata, _ = _first()
    shutil.copy(ROOT / "reference" / f"{kata.name}.py", project / "katas" / f"{kata.name}.py")
    out = tmp_path / "template"
    refused = run_in(project, "release", str(out))
    assert refused.returncode == 2 and f"{kata.name}.py changed" in refused.stderr, refused.stderr
    assert not out.exists() and not list(tmp_path.glob(".template.*"))
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "notes.txt").write_text("mine")
    forced = run_in(project, "release", str(kept), "--force")
    assert forced.returncode == 2 and (kept / "notes.txt").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept", "project"]


def test_a_release_whose_check_fails_leaves_no_folder_and_keeps_the_old_one(tmp_path, monkeypatch):
    """The template is written beside its target and takes its place only once checked: when the
    check fails, nothing of it stays, and a folder replaced with --force is still as it was."""
    from kata_harness.platforms import student

    monkeypatch.setattr(student, "verify", lambda project, out, secret=None: ["planted problem"])
    out = tmp_path / "template"
    assert student.release(Layout(ROOT), out) == ["planted problem"]
    assert not list(tmp_path.iterdir())
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert student.release(Layout(ROOT), out, force=True) == ["planted problem"]
    assert [p.name for p in tmp_path.iterdir()] == ["template"] and (out / "notes.txt").read_text() == "mine"
