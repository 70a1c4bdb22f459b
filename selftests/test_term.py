"""The instructor's term: the deadline and the late policy from the instructor's record (never from a
student's tags or commit dates), the roster, each student's feedback, shared solutions, a class
graded in shards and merged, the LMS exports, and a progress display that fits where it goes.

The class (``selftests/term_class.py``) is graded in this process on the kept warm children
(``warm.grade_here``, unsandboxed, against the answer key): once whole, and once in two shards."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
from pathlib import Path

import pytest

from kata_harness.batch import engine as batch
from kata_harness.content.curriculum import load_curriculum
from kata_harness.isolation import repository
from kata_harness.layout import LAYOUT
from kata_harness.outputs import class_report, feedback, gradebook, progress
from kata_harness.platforms import lms
from kata_harness.term import identity, late, plan, record, roster, shards, shared
from kata_harness.usage import UsageError
from selftests import term_class
from selftests.classes import synthetic_gradebook
from selftests.term_class import CUTOFF, DEADLINE, EXTENDED, folder_name, make_term_class
from selftests.warm import grade_here

KATAS = load_curriculum(LAYOUT.curriculum)
FUNCTIONS = [f for kata in KATAS for f in kata.functions]
POINTS = sum(f.points for f in FUNCTIONS if f.kata in term_class.KATAS)   # what a solved submission earns
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _batch(where: Path, out: Path, *more: str) -> str:
    """Grade the class of ``where`` with every option of the term (and ``more``)."""
    done = grade_here("batch", str(where / "download"), "--out", str(out), "--no-sandbox", "-j", "1",
                      "--against", "answer-key", "--record", str(where / "scores.json"), "--at", DEADLINE,
                      "--late", f"{CUTOFF}=0.5", "--extensions", str(where / "extensions.csv"),
                      "--roster", str(where / "roster.csv"), "--lang", "en", *more)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "\r" not in done.stderr   # not a terminal: plain progress lines
    return done.stderr


@pytest.fixture(scope="module")
def term(tmp_path_factory):
    """The class, graded once with a roster, the platform's record, a deadline, a late rule and an
    extension, feedback and the report: (its folder, {submission: row}, what batch printed)."""
    if shutil.which("git") is None:
        pytest.skip("needs git")
    where = tmp_path_factory.mktemp("term")
    counted = make_term_class(where)
    printed = _batch(where, where / "gradebook.json", "--feedback", str(where / "feedback"),
                     "--report", str(where / "report.html"))
    rows = json.loads((where / "gradebook.json").read_text(encoding="utf-8"))
    return where, {row["submission"]: row for row in rows}, counted, printed


def _row(term_run, user: str) -> dict:
    return term_run[1][folder_name(user)]


# --- the deadline comes from the record (issue: trust, round 3, item 2) ------------------------------

@needs_git
def test_a_students_tags_and_commit_dates_choose_the_commit_without_a_record(tmp_path):
    """The attack, working where it should: bob's tag named before the deadline and his commit dated
    before it, both made after it, decide what ``--at 'submit/*'`` and ``--at DATE`` read."""
    counted = make_term_class(tmp_path)
    bob = tmp_path / "download" / folder_name("bob")
    assert repository.resolve(bob, "submit/*").commit == counted["bob"]
    assert repository.resolve(bob, DEADLINE).commit == counted["bob"]   # its committer date says Nov 30


def test_the_record_decides_what_is_graded_and_when_it_was_submitted(term):
    where, rows, counted, printed = term
    alice, bob = _row(term, "alice"), _row(term, "bob")
    # alice's later push came after the last cutoff: her submission by the deadline counts, in full.
    assert alice["raw_score"] == alice["score"] == POINTS and alice["late_factor"] == 1
    assert alice["submitted_at"] == "2026-11-30T11:04:00Z" and counted["alice"][:12] in alice["notes"]
    # bob's forged tag and date do not make his late commit on time: the platform graded it on Dec 2.
    assert bob["submitted_at"] == "2026-12-02T09:00:00Z" and counted["bob"][:12] in bob["notes"]
    assert (bob["raw_score"], bob["late_factor"], bob["penalty"], bob["final_score"], bob["score"]) == \
        (POINTS, 0.5, POINTS / 2, POINTS / 2, POINTS / 2)
    dave, erin = _row(term, "dave"), _row(term, "erin")
    assert dave["score"] == 0 and "is not in this repository: not graded" in dave["notes"]
    assert erin["score"] == 0 and "no submission in the record scores.json" in erin["notes"]
    assert "chooses each commit by what the student wrote" not in printed   # said only where no record decides


@needs_git
def test_with_a_record_a_tag_counts_only_for_a_commit_the_record_names(tmp_path):
    """``--at TAG --record``: a tag on a commit the record never graded is refused, with a note; a
    tag on one it graded is read there, and its time is the record's, not the tag's name."""
    counted = make_term_class(tmp_path)
    mallory = tmp_path / "download" / folder_name("mallory")
    term_class.commit(mallory, {"k01_creation.py": (term_class.ROOT / "reference" / "k01_creation.py").read_text()},
                      "2026-11-30T10:00:00Z", tag="submit/2026-11-30T10-00-00Z-mmmmmmm")
    scores = json.loads((tmp_path / "scores.json").read_text())
    entries = scores["assignments"]["hw1"]["entries"]
    entries.append({"owner": "mallory", "submissions": [term_class._result("mallory", "e" * 40, "2026-11-30T10:01:00Z",
                                                                        "submit/x", "2026-11-30T10:00:00Z")]})
    (tmp_path / "scores.json").write_text(json.dumps(scores))
    settled = plan.settle(at="submit/*", record=str(tmp_path / "scores.json"), roster_file=None, extensions=None,
                          out=tmp_path / "g.json")
    katas = {kata.name for kata in KATAS}
    refused = batch.Submission(folder_name("mallory"), mallory)
    batch.read_submission(refused, katas, "submit/*", settled)
    assert refused.files is None and refused.submitted is None
    assert any("which the record scores.json does not name: not graded" in note for note in refused.notes)
    bob = batch.Submission(folder_name("bob"), tmp_path / "download" / folder_name("bob"))
    batch.read_submission(bob, katas, "submit/*", settled)
    assert bob.files and bob.submitted is not None and bob.submitted.commit == counted["bob"]
    assert record.time_text(bob.submitted.at) == "2026-12-02T09:00:00Z"


def test_the_record_is_read_from_a_csv_or_from_classroom_50s_scores(tmp_path):
    sha = "a" * 40
    (tmp_path / "times.csv").write_text(   # an LMS's export: times, no commits
        "\ufeffsubmission,submitted_at,anything\n"
        " alice,2026-11-30 23:58:01 UTC,x\nalice,2026-12-01T08:00+08:00,\nbob,2026-11-30,\n", encoding="utf-8")
    times = record.read_record(tmp_path / "times.csv")   # cells are trimmed: " alice" is written "alice"
    assert [record.time_text(s.at) for s in times.of("ALICE")] == ["2026-11-30T23:58:01Z", "2026-12-01T00:00:00Z"]
    assert record.time_text(times.latest("alice", record.parse_time("2026-12-01T00:00Z")).at) == "2026-12-01T00:00:00Z"
    assert times.latest("alice", record.parse_time("2026-11-30T23:59Z")).where.endswith("line 2")
    assert times.of("carol") == [] and not times.problems
    (tmp_path / "fetch.csv").write_text(f"submission,submitted_at,commit\nalice,2026-12-01,{sha.upper()}\nbob,2026-12-01,\n")
    fetched = record.read_record(tmp_path / "fetch.csv")
    assert fetched.naming("alice", sha) is not None and fetched.of("bob") == []   # a fetch that found no commit
    assert fetched.problems == ["fetch.csv line 3: no commit, where the record names commits: not used"]
    for bad, why in (("alice,yesterday,\n", "not a date and time"), (f"alice,2026-11-30,{sha[:12]}\n", "not a full SHA"),
                     (",2026-11-30,\n", "no submission named")):
        (tmp_path / "bad.csv").write_text("submission,submitted_at,commit\n" + bad)
        with pytest.raises(record.RecordError, match=why):
            record.read_record(tmp_path / "bad.csv")
    (tmp_path / "bad.csv").write_text("student,time\nalice,2026-11-30\n")
    with pytest.raises(record.RecordError, match="no column submission, submitted_at"):
        record.read_record(tmp_path / "bad.csv")

    counted = make_term_class(tmp_path / "class")
    scores = record.read_record(tmp_path / "class" / "scores.json")
    bob = scores.of(folder_name("bob"))
    assert scores.of("bob") == []   # filed under its repository's name only (a login can equal a classmate's folder)
    # graded_at (the platform's clock), never datetime (the commit's own date, which bob set)
    assert [record.time_text(s.at) for s in bob] == ["2026-11-29T10:02:00Z", "2026-12-02T09:00:00Z"]
    assert bob[-1].commit == counted["bob"]
    data = json.loads((tmp_path / "class" / "scores.json").read_text())
    del data["assignments"]["hw1"]["entries"][0]["submissions"][0]["graded_at"]
    data["assignments"]["hw2"] = {"type": "individual", "entries": []}
    (tmp_path / "two.json").write_text(json.dumps(data))
    two = record.read_record(tmp_path / "two.json")
    assert len(two.problems) == 1 and "datetime is the commit's own date" in two.problems[0]
    assert two.of("alice") == [] and two.of(folder_name("alice"))   # two assignments: only the clone's full name
    (tmp_path / "other.json").write_text('{"schema": "something/else"}')
    with pytest.raises(record.RecordError, match="Classroom 50's scores.json"):
        record.read_record(tmp_path / "other.json")


# --- term files refused before grading (issue: trust, round 4, item 3) -----------------------------

def _settle(tmp_path: Path, **files: str):
    """``plan.settle`` as batch calls it, on the files written from ``files`` ({option: text}; a
    record's name ends as its text says: ``{`` a scores.json, else a CSV)."""
    arguments: dict = {"at": DEADLINE, "record": None, "roster_file": None, "extensions": None,
                       "out": tmp_path / "g.json", "folders": ["alice", "bob"]}
    for option, text in files.items():
        stem = option.removesuffix("_file")
        path = tmp_path / (f"{stem}.json" if text.startswith("{") else f"{stem}.csv")
        path.write_text(text, encoding="utf-8")
        arguments[option] = str(path)
    return plan.settle(**arguments)


RECORD = "submission,submitted_at\nalice,2026-11-30T10:00Z\nbob,2026-11-30T11:00Z\n"


def test_a_scores_json_nested_thousands_deep_is_refused_before_grading(tmp_path):
    deep = '{"schema": ' + "[" * 5000 + "]" * 5000 + "}"
    with pytest.raises(RecursionError):   # the primitive: an ordinary reader of the file dies of it
        json.loads(deep)
    (tmp_path / "scores.json").write_text(deep, encoding="utf-8")
    with pytest.raises(record.RecordError, match="scores.json: nested too deep"):
        record.read_record(tmp_path / "scores.json")
    with pytest.raises(UsageError, match="nested too deep"):
        _settle(tmp_path, record=deep)
    deeper = '{"schema": "classroom50/scores/v1", "assignments": {"hw1": {"entries": [{"owner": "bob", ' \
             '"submissions": ' + "[" * 100_000 + "]" * 100_000 + "}]}}}"
    with pytest.raises(UsageError, match="nested too deep"):   # deep inside an entry as well
        _settle(tmp_path, record=deeper)


def test_a_csv_that_names_a_column_twice_is_refused_not_read_by_its_last(tmp_path):
    text = "submission,student,email,id,email\nbob,Bob Li,bob@uni.example,S1,mallory@uni.example\n"
    # the primitive: an ordinary CSV reader keeps the last of two columns of one name, without a word
    assert next(csv.DictReader(io.StringIO(text)))["email"] == "mallory@uni.example"
    with pytest.raises(UsageError, match=r"roster.csv, line 1: the column email is named more than once"):
        _settle(tmp_path, roster_file=text)
    for option, header in (("record", "submission,submitted_at,Submitted_At"), ("extensions", "submission,due,due")):
        with pytest.raises(UsageError, match=r", line 1: the column \w+ is named more than once"):
            _settle(tmp_path, **({"record": RECORD} if option == "extensions" else {}),
                    **{option: f"{header}\nbob,2026-11-30T10:00Z,2026-11-30T10:00Z\n"})
    # a spreadsheet's trailing unnamed columns are no column twice
    assert roster.read_roster(_written(tmp_path / "ok.csv", "submission,student,email,id,,\nbob,B,b@x,1,,\n")).students


def _written(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_roster_with_one_email_or_id_on_two_students_is_refused_naming_both_lines(tmp_path):
    head = "submission,student,email,id\n"
    twice = head + "alice,Alice,alice@uni.example,S1\nbob,Bob,bob@uni.example,S2\nmallory,M,ALICE@uni.example,S3\n"
    # the primitive: a look-up by email finds the first of the two, so mallory's extension (or grade) is alice's
    both = roster.Roster((roster.Student("alice", "Alice", "alice@uni.example", "S1"),
                          roster.Student("mallory", "M", "ALICE@uni.example", "S3")))
    assert both.find_by("email", "ALICE@uni.example").submission == "alice"
    with pytest.raises(UsageError, match=r"roster.csv, line 4: email ALICE@uni.example is on line 2 too"):
        _settle(tmp_path, roster_file=twice)
    with pytest.raises(UsageError, match=r"line 3: id S1 is on line 2 too"):
        _settle(tmp_path, roster_file=head + "alice,Alice,a@x,S1\nbob,Bob,b@x,S1\n")
    with pytest.raises(UsageError, match=r"line 3: submission bob is on line 2 too"):
        _settle(tmp_path, roster_file=head + "Bob,Bob,a@x,S1\nbob,Bob,b@x,S2\n")
    # an id or email not given yet is nobody's: two blanks are no clash
    assert len(_settle(tmp_path, roster_file=head + "alice,Alice,,\nbob,Bob,,\n").roster.students) == 2


def test_an_extension_given_twice_or_to_nobody_is_refused_naming_its_lines(tmp_path):
    head = "submission,student,email,id\n"
    students = head + "alice,Alice,alice@uni.example,S1\nbob,Bob,bob@uni.example,S2\n"
    kept = _settle(tmp_path, record=RECORD, roster_file=students, extensions="email,deadline\nbob@uni.example,2026-12-04\n")
    assert kept.policy.deadline_for("bob") == record.parse_time("2026-12-04")
    for text, why in (("submission,deadline\nbob,2026-12-04\nBob,2026-12-09\n", r"line 3: Bob has an extension on line 2 too"),
                      ("email,deadline\nbob@uni.example,2026-12-04\n"
                       "alice@uni.example,2026-12-04\nBOB@uni.example,2026-12-04\n", r"line 4: bob has an extension on line 2"),
                      ("submission,deadline\nbbo,2026-12-04\n", r"line 2: bbo is no student of the class \(not on the roster")):
        with pytest.raises(UsageError, match=why):
            _settle(tmp_path, record=RECORD, roster_file=students, extensions=text)
    # a folder the roster does not list is still the class's (graded and noted "not on the roster")
    unlisted = head + "alice,Alice,alice@uni.example,S1\n"
    assert _settle(tmp_path, record=RECORD, roster_file=unlisted, extensions="submission,deadline\nbob,2026-12-04\n").policy.extensions
    # with no roster, an extension names a folder of the class or a submission of the record
    assert _settle(tmp_path, record=RECORD, extensions="submission,deadline\nALICE,2026-12-04\n").policy.extensions
    with pytest.raises(UsageError, match=r"extensions.csv, line 2: alcie is no student of the class \(no folder"):
        _settle(tmp_path, record=RECORD, extensions="submission,deadline\nalcie,2026-12-04\n")


def test_record_names_that_differ_only_by_case_are_refused_on_both_rows_naming_the_lines(tmp_path):
    text = RECORD + "Bob,2026-11-30T12:00Z\n"
    settled = _settle(tmp_path, record=text)
    assert settled.record.clash("bob") == ["bob", "Bob"] and settled.record.of("bob") == []   # nothing merged
    assert len(settled.record.problems) == 1
    assert "'bob': record.csv line 3; 'Bob': record.csv line 4" in settled.record.problems[0]
    submission = batch.Submission("bob", tmp_path)
    batch.read_submission(submission, {"k01_x"}, None, settled)
    assert submission.files is None and "neither is graded" in submission.notes[0]
    assert "record.csv line 3" in submission.notes[0] and "record.csv line 4" in submission.notes[0]
    assert settled.record.of("alice") and not settled.record.clash("alice")


def test_a_canvas_export_that_names_a_column_twice_is_refused(tmp_path):
    rows = [{**gradebook.row("bob", [], FUNCTIONS, None), "score": 9, "email": "bob@uni.example", "id": "S2"}]
    head = "Student,ID,SIS User ID,SIS Login ID,Section"
    twice = f"{head},SIS Login ID,Katas\nBob Li,7,S2,bob@uni.example,A,alice@uni.example,\n"
    # the primitive: a CSV reader by column name keeps the last one, so bob's row matches alice's login
    assert next(csv.DictReader(io.StringIO(twice)))["SIS Login ID"] == "alice@uni.example"
    with pytest.raises(lms.ExportError, match="line 1: SIS Login ID named more than once"):
        lms.canvas(rows, twice, "Katas")
    with pytest.raises(lms.ExportError, match=r"Katas \(1\), Katas \(2\) are all the assignment Katas"):
        lms.canvas(rows, f"{head},Katas (1),Katas (2)\nBob Li,7,S2,bob@uni.example,A,,\n", "Katas")
    filled = lms.canvas(rows, f"{head},Katas (1),Katas (2)\nBob Li,7,S2,bob@uni.example,A,,\n", "Katas (2)")
    assert filled.text.splitlines()[1].endswith(",9")


def test_batch_refuses_the_term_files_before_grading_with_the_lines_named(tmp_path):
    """The real ``grade.py batch``: each bad file ends it with a usage error before a kata is graded,
    and no gradebook is written."""
    for name in ("alice", "bob"):
        (tmp_path / "class" / name).mkdir(parents=True)
    (tmp_path / "roster.csv").write_text("submission,student,email,id\nalice,A,a@x,S1\nbob,B,b@x,S1\n")
    (tmp_path / "record.csv").write_text(RECORD)
    (tmp_path / "deep.json").write_text('{"schema": ' + "[" * 5000 + "]" * 5000 + "}")
    for options, why in ((["--roster", str(tmp_path / "roster.csv")], "roster.csv, line 3: id S1 is on line 2 too"),
                         (["--record", str(tmp_path / "deep.json"), "--at", DEADLINE], "deep.json: nested too deep")):
        done = grade_here("batch", str(tmp_path / "class"), "--out", str(tmp_path / "g.json"), "--no-sandbox",
                          "--against", "answer-key", *options)
        assert done.returncode == 2 and why in done.stderr and "Traceback" not in done.stderr
        assert not (tmp_path / "g.json").exists()
    # a shard nested as deep is refused by merge and export alike
    (tmp_path / "deep-shard.json").write_text("[" * 5000 + "]" * 5000)
    for command, why in ((["merge", str(tmp_path / "deep-shard.json"), "--out", str(tmp_path / "m.json")], "nested too deep"),
                         (["export", str(tmp_path / "deep-shard.json"), "--moodle", "--out", str(tmp_path / "m.csv")],
                          "is not a JSON gradebook")):
        done = grade_here(*command)
        assert done.returncode == 2 and why in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_the_late_policy_is_checked_before_anything_is_graded(tmp_path):
    rule = late.parse_rule("2026-12-03T23:59Z=0.8")
    assert rule.factor == 0.8 and record.time_text(rule.until) == "2026-12-03T23:59:00Z"
    deadline = record.parse_time(DEADLINE)
    policy = late.Policy(deadline, (late.parse_rule("2026-12-07T00:00Z=0.5"), rule),
                         {"carol": record.parse_time("2026-12-02T00:00Z")})
    at = record.parse_time
    assert [policy.factor("bob", at(t)) for t in ("2026-12-01T00:00Z", "2026-12-02T00:00Z", "2026-12-05T00:00Z",
                                                  "2026-12-08T00:00Z")] == [1.0, 0.8, 0.5, 0.0]
    # carol's extension moves her deadline and both cutoffs by a day
    assert [policy.factor("Carol", at(t)) for t in ("2026-12-02T00:00Z", "2026-12-04T12:00Z", "2026-12-07T12:00Z")] == \
        [1.0, 0.8, 0.5]
    assert record.time_text(policy.last_accepted("carol")) == "2026-12-08T00:00:00Z"
    row = {"submission": "bob", "score": 7, "max_score": 10}
    assert late.penalised(row, policy, at("2026-12-02T00:00Z")) == {
        **row, "deadline": "2026-12-01T00:00:00Z", "raw_score": 7, "late_factor": 0.8, "penalty": 1.4,
        "final_score": 5.6, "score": 5.6}
    for bad in ("2026-12-03=1.5", "2026-12-03", "soon=0.5"):
        with pytest.raises(late.PolicyError):
            late.parse_rule(bad)
    with pytest.raises(late.PolicyError, match="after the deadline"):
        late.Policy(deadline, (late.parse_rule("2026-11-30T00:00Z=0.5"),))
    (tmp_path / "roster.csv").write_text("submission,student,email,id\ncarol-repo,张伟,Carol@uni.example,7\n", encoding="utf-8")
    students = roster.read_roster(tmp_path / "roster.csv")
    for header, who in (("email,deadline", "carol@uni.example"), ("student,due", "张伟"), ("id,deadline", "7"),
                        ("submission,deadline", "carol-repo")):
        (tmp_path / "ext.csv").write_text(f"{header}\n{who},2026-12-04\n", encoding="utf-8")
        assert late.read_extensions(tmp_path / "ext.csv", students) == {"carol-repo": at("2026-12-04")}
    (tmp_path / "ext.csv").write_text("email,deadline\nnobody@uni.example,2026-12-04\n")
    with pytest.raises(late.PolicyError, match="no student with email"):
        late.read_extensions(tmp_path / "ext.csv", students)
    assert plan.names_a_record(str(tmp_path / "roster.csv")) and not plan.names_a_record("submit/*")
    out = tmp_path / "g.json"
    (tmp_path / "r.csv").write_text("submission,submitted_at\na,2026-11-30\n")
    for options, why in (({"late_rules": ["2026-12-03=0.5"]}, "--late and --extensions apply to the times"),
                         ({"late_rules": ["2026-12-03=0.5"], "record": str(tmp_path / "r.csv")}, "the deadline as --at"),
                         ({"shard": "3/2"}, "--shard 3/2"), ({"shard": "1/2", "out": tmp_path / "g.csv"}, "give --out g.json"),
                         ({"roster_file": str(tmp_path / "missing.csv")}, "cannot be read")):
        arguments = {"at": None, "record": None, "roster_file": None, "extensions": None, "out": out, **options}
        with pytest.raises(UsageError, match=why):
            plan.settle(**arguments)


# --- the gradebook, the roster, the feedback ---------------------------------------------------------

def test_the_gradebook_carries_the_roster_and_the_late_policy(term):
    where, rows, _, _ = term
    carol, frank, zed = _row(term, "carol"), _row(term, "frank"), _row(term, "zed")
    assert (carol["student"], carol["email"], carol["id"]) == ("张伟", "carol@uni.example", "1003")
    assert carol["deadline"] == record.time_text(record.parse_time(EXTENDED)) and carol["late_factor"] == 1
    assert carol["score"] == POINTS   # after the deadline, within her extension
    assert frank["score"] == 0 and frank["notes"] == "no submission"
    assert all(entry["status"] == gradebook.NOT_GRADED for entry in frank["functions"].values())
    assert zed["student"] == "" and "not on the roster" in zed["notes"]
    assert _row(term, "bob")["student"] == "=Bob"   # the JSON keeps what the roster says
    for row in rows.values():
        assert row["project"] and row["official"] is False and row["graded_at"].endswith("Z")
    written = gradebook.encode(Path("g.csv"), list(rows.values()), FUNCTIONS).decode("utf-8-sig")
    table = list(csv.DictReader(io.StringIO(written)))
    assert list(table[0])[:6] == ["submission", "student", "email", "id", "score", "max_score"]
    assert list(table[0])[6:12] == ["submitted_at", "deadline", "raw_score", "late_factor", "penalty", "final_score"]
    assert list(table[0])[-4:] == ["notes", "graded_at", "project", "official"]
    shown = {line["submission"]: line for line in table}
    assert shown[folder_name("bob")]["student"] == "'=Bob"   # a display column, neutralised in the CSV
    assert shown[folder_name("bob")]["final_score"] == shown[folder_name("bob")]["score"] == str(late.number(POINTS / 2))


def test_each_student_gets_their_feedback(term):
    where, rows, _, printed = term
    folder = where / "feedback"
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{n}.{s}" for n in rows for s in ("md", "html"))
    assert f"feedback for {len(rows)} submissions" in printed
    for name, row in rows.items():
        text = (folder / f"{name}.md").read_text(encoding="utf-8")
        assert f"score {feedback._number(row['score'])}/{row['max_score']}\n" in text
        page = (folder / f"{name}.html").read_text(encoding="utf-8")
        assert "<script" not in page and f"score {feedback._number(row['score'])}/{row['max_score']}" in page
    bob = (folder / f"{folder_name('bob')}.md").read_text(encoding="utf-8")
    assert "after the deadline 2026-12-01T00:00:00Z: 50% of the 8 points earned count, 4" in bob
    assert "No submission of yours was found." in (folder / f"{folder_name('frank')}.md").read_text(encoding="utf-8")


def test_feedback_names_the_pitfall_section_and_hint_and_stays_in_its_folder(tmp_path):
    row = synthetic_gradebook(1, seed=3)[0]
    failed = next(q for q, e in row["functions"].items() if e["status"] == "failed")
    info = next(f for f in FUNCTIONS if f.qualified == failed)
    key = row["functions"][failed]["pitfall"]
    hostile = ["../../escape", "<img src=x onerror=alert(1)>", "CON", "a/b\\c", "..", "", ".hidden", "x" * 400, "A", "a"]
    rows = [{**row, "submission": name} for name in hostile]
    markup = "<script>alert(2)</script> | *bold* [link](http://x)"
    rows[1] = {**rows[1], "functions": {**row["functions"], failed: {**row["functions"][failed], "call": "f(`x`)",
                                                                     "differed": {"en": markup, "zh": markup}}}}
    folder = tmp_path / "out"
    folder.mkdir()
    written = feedback.write_all(folder, rows, KATAS, "zh")
    files = sorted(p.name for p in folder.iterdir())
    assert len(files) == 2 * len(hostile) and all((folder / name).resolve().parent == folder.resolve() for name in files)
    assert not any(part in ("..", "CON.md") or len(part.encode()) > 255 for part in files)
    names = {p.name for p in written.values()}
    assert names >= {"A (1).md", "a (2).md"} and "A.md" not in names   # a name two rows make is neither's
    text = written["<img src=x onerror=alert(1)>"].read_text(encoding="utf-8")
    assert "<img" not in text and "<script" not in text and "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "\\*bold\\* \\[link\\]" in text and "``f(`x`)``" in text
    assert f"陷阱：{feedback.pitfall_words(info, key, 'zh')}" in text and "讲义" in text
    assert feedback.hint_for(info, key, "zh") in text and f"score {row['score']}/{row['max_score']}" in text
    page = written["<img src=x onerror=alert(1)>"].with_suffix(".html").read_text(encoding="utf-8")
    assert "<img" not in page and "<script>" not in page and '<html lang="zh">' in page


# --- shared solutions, shards ------------------------------------------------------------------------

def test_shared_solutions_ignore_comments_and_whitespace_but_not_strings_or_the_stub():
    stub = (term_class.ROOT / "katas" / "k01_creation.py").read_bytes()
    solved = (term_class.ROOT / "reference" / "k01_creation.py").read_bytes()
    restyled = b"# mine\n" + solved.replace(b"    return", b"\treturn   ").replace(b"\n", b"\n\n")
    assert shared.fingerprint(restyled) == shared.fingerprint(solved)
    assert shared.fingerprint(solved.replace(b'"""', b'"""#', 1)) != shared.fingerprint(solved)   # a string's '#' counts
    stubs = {"k01_creation": shared.fingerprint(stub)}
    assert shared.fingerprints({"k01_creation.py": b"#x\n" + stub, "k02_creation_traps.py": b"  \n"}, stubs) == {}
    rows = [{"submission": name, "fingerprints": {"k01_creation": mark}}
            for name, mark in (("c", "1"), ("a", "1"), ("b", "2"), ("d", "1"), ("e", "2"))]
    assert shared.clusters(rows) == [shared.Cluster("k01_creation", ("a", "c", "d")), shared.Cluster("k01_creation", ("b", "e"))]
    marked = shared.mark([*rows, {"submission": "f", "shared": ["stale"]}])
    assert marked[0]["shared"] == [{"kata": "k01_creation", "size": 3, "submissions": ["a", "c", "d"]}]
    assert "shared" not in marked[-1]
    # A common way to write a kata is not listed on each of its rows (the gradebook would grow with the
    # square of the class), but the report still lists every member, once.
    common = [f"s{n:03d}" for n in range(shared.LISTED + 1)]
    marked = shared.mark([{"submission": name, "fingerprints": {"k02_creation_traps": "3"}} for name in common] + rows)
    assert marked[0]["shared"] == [{"kata": "k02_creation_traps", "size": len(common)}]
    assert class_report.shared_solutions(marked)[0] == ("k02_creation_traps", tuple(common))
    page = class_report.render(marked, KATAS, "en")
    assert f"<summary>{len(common)} submissions: a common way to write it" in page and all(name in page for name in common)


def test_the_gradebook_and_the_report_list_the_shared_solutions(term):
    where, rows, _, _ = term
    together = sorted(folder_name(u) for u in ("alice", "bob", "carol"))   # carol's is alice's, restyled
    for user in ("alice", "bob", "carol"):
        assert _row(term, user)["shared"] == [{"kata": kata, "size": 3, "submissions": together} for kata in term_class.KATAS]
    assert "shared" not in _row(term, "zed")   # the stubs are no solution
    page = (where / "report.html").read_text(encoding="utf-8")
    section = page[page.index('<section id="shared">'):]
    assert "A pointer for a conversation, not a verdict" in section
    assert section.count('<tr data-kata="') == 2 and all(name in section for name in together)


def test_every_submission_is_in_exactly_one_shard():
    names = [f"student{n:03d}" for n in range(200)] + ["张伟", "caf\udcff"]
    for count in (1, 2, 3, 7):
        parts = [shards.Shard(k, count) for k in range(1, count + 1)]
        assert all(sum(part.holds(name) for part in parts) == 1 for name in names)
    assert min(sum(shards.Shard(k, 3).holds(n) for n in names) for k in (1, 2, 3)) > 40   # and the parts are alike
    for bad in ("0/3", "4/3", "1", "a/b"):
        with pytest.raises(shards.ShardError):
            shards.parse_shard(bad)


@pytest.fixture(scope="module")
def sharded(term):
    """The same class graded in two shards, and merged: (each shard's rows, the merged rows)."""
    where = term[0]
    parts = []
    for number in (1, 2):
        _batch(where, where / f"shard-{number}.json", "--shard", f"{number}/2")
        parts.append(json.loads((where / f"shard-{number}.json").read_text(encoding="utf-8")))
    done = grade_here("merge", str(where / "shard-1.json"), str(where / "shard-2.json"), "--out", str(where / "merged.json"),
                      "--feedback", str(where / "merged-feedback"), "--lang", "en")
    assert done.returncode == 0, done.stderr
    return parts, json.loads((where / "merged.json").read_text(encoding="utf-8"))


def _same(row: dict) -> dict:
    return {k: v for k, v in row.items() if k != "graded_at"}


def test_the_merged_shards_are_the_unsharded_gradebook(term, sharded):
    where, rows, _, _ = term
    parts, merged = sharded
    names = [[row["submission"] for row in part] for part in parts]
    assert sorted(names[0] + names[1]) == sorted(rows) and not set(names[0]) & set(names[1]) and all(names)
    assert {row["shard"] for part in parts for row in part} == {"1/2", "2/2"}
    assert [_same(row) for row in merged] == [_same(rows[name]) for name in sorted(rows)]   # shared solutions found again
    assert sorted(p.name for p in (where / "merged-feedback").iterdir()) == sorted(p.name for p in (where / "feedback").iterdir())
    twice = grade_here("merge", str(where / "shard-1.json"), str(where / "shard-1.json"), "--out", str(where / "x.csv"))
    assert twice.returncode == 2 and "is in" in twice.stderr and not (where / "x.csv").exists()
    (where / "empty.json").write_text("[]\n")   # the part of a small class that no submission fell into
    done = grade_here("merge", str(where / "shard-1.json"), str(where / "empty.json"), str(where / "shard-2.json"),
                      "--out", str(where / "again.json"))
    assert done.returncode == 0 and json.loads((where / "again.json").read_text(encoding="utf-8")) == merged


def test_merge_refuses_shards_of_different_gradings():
    rows = synthetic_gradebook(4)
    official = [{**row, "official": True} for row in rows[:2]]
    with pytest.raises(shards.ShardError, match="officially"):
        shards.merged([("a", official), ("b", [{**row, "official": False} for row in rows[2:]])])
    fewer = [{**rows[2], "functions": dict(list(rows[2]["functions"].items())[:3])}]
    with pytest.raises(shards.ShardError, match="different functions"):
        shards.merged([("a", rows[:2]), ("b", fewer)])
    merged, warnings = shards.merged([("a", [{**rows[0], "shard": "1/3"}]), ("b", [{**rows[1], "shard": "2/3"}])])
    assert len(merged) == 2 and "is one missing" in warnings[0] and "shard" not in merged[0]


# --- into the LMS ------------------------------------------------------------------------------------

CANVAS = ("\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,Quiz 1 (111),Katas (4321),Current Score\n"
          "    Points Possible,,,,,10,,(read only)\n"
          "\"Liddell, Alice\",501,S1001,alice@uni.example,A,9,,90\n"
          "=HYPERLINK(\"x\"),502,S1002,=bob,A,7,,70\n"
          "Nobody,503,S1003,nobody@uni.example,B,5,,50\n"
          "\"Student, Test\",504,,,A,,,\n")


def _exported(tmp_path, *args: str) -> tuple[list[list[str]], str]:
    done = grade_here("export", *args, "--out", str(tmp_path / "out.csv"))
    assert done.returncode == 0, done.stderr
    return list(csv.reader(io.StringIO((tmp_path / "out.csv").read_text(encoding="utf-8-sig")))), done.stderr


def test_the_canvas_export_is_filled_and_moodle_gets_its_rows(tmp_path):
    rows = synthetic_gradebook(4)
    people = [("a", "alice@uni.example", "1001"), ("b", "x@y", "S1002"), ("c", "", ""), ("d", "dan@uni.example", "")]
    for row, (name, email, number) in zip(rows, people):
        row.update(submission=name, email=email, id=number)
    rows[1]["email"] = "=bob"   # a login that looks like a formula stays matchable
    rows[1]["score"] = 12.5
    (tmp_path / "g.json").write_text(json.dumps(rows))
    (tmp_path / "canvas.csv").write_text(CANVAS, encoding="utf-8")
    table, said = _exported(tmp_path, str(tmp_path / "g.json"), "--canvas", str(tmp_path / "canvas.csv"), "--column", "Katas")
    assert table[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Katas (4321)"]   # no other assignment
    assert table[1] == ["    Points Possible", "", "", "", "", str(rows[0]["max_score"])]
    assert table[2] == ["Liddell, Alice", "501", "S1001", "alice@uni.example", "A", str(rows[0]["score"])]
    assert table[3] == ["'=HYPERLINK(\"x\")", "502", "S1002", "=bob", "A", "12.5"]   # the name neutralised, the login not
    assert table[4][-1] == "" and table[5][-1] == "" and len(table) == 6
    assert "no score for Nobody" in said and "no score for Student, Test" in said
    assert "c matches no student" in said and "d matches no student" in said
    (tmp_path / "canvas.csv").write_text(CANVAS.replace("Katas (4321)", "Other"), encoding="utf-8")
    table, _ = _exported(tmp_path, str(tmp_path / "g.json"), "--canvas", str(tmp_path / "canvas.csv"), "--column", "Katas")
    assert table[0][-1] == "Katas"   # added: a new assignment
    table, said = _exported(tmp_path, str(tmp_path / "g.json"), "--moodle")
    assert table[0] == ["email", "grade"] and ["alice@uni.example", str(rows[0]["score"])] in table
    assert ["=bob", "12.5"] in table and "c matches no student" in said
    for args, why in ((["--moodle", "--canvas", "x"], "give --canvas"), (["--canvas", str(tmp_path / "canvas.csv")], "--column"),
                      (["--moodle"], "not a JSON gradebook")):
        source = str(tmp_path / "g.csv") if why == "not a JSON gradebook" else str(tmp_path / "g.json")
        done = grade_here("export", source, *args, "--out", str(tmp_path / "x.csv"))
        assert done.returncode == 2 and why in done.stderr


# --- one identity per student (issue: trust, round 4, item 1) ----------------------------------------

def _scores(*entries: tuple[str, str, str]) -> dict:
    """A one-assignment Classroom 50 scores.json: (owner, commit, graded_at) per submission."""
    return {"schema": "classroom50/scores/v1", "assignments": {"hw1": {"type": "individual", "entries": [
        {"owner": owner, "submissions": [{"submission": "submit/1", "classroom": "c", "commit": commit,
                                          "graded_at": at}]} for owner, commit, at in entries]}}}


def test_a_login_chosen_to_equal_a_classmates_folder_files_only_under_its_own_repository(tmp_path):
    # bob's clone is c-hw1-bob; mallory's login is "c-hw1-bob", so her clone is c-hw1-c-hw1-bob
    # and she submits later: filed also under the bare owner, it became bob's last submission.
    (tmp_path / "scores.json").write_text(json.dumps(_scores(("bob", "b" * 40, "2026-11-30T10:00Z"),
                                                             ("c-hw1-bob", "c" * 40, "2026-11-30T11:00Z"))))
    scores = record.read_record(tmp_path / "scores.json")
    assert [s.commit for s in scores.of("c-hw1-bob")] == ["b" * 40]
    assert [s.commit for s in scores.of("c-hw1-c-hw1-bob")] == ["c" * 40]
    assert scores.of("bob") == [] and not scores.clash("c-hw1-bob")
    # two owners the record cannot tell apart are refused by name, not merged into one history
    (tmp_path / "two.json").write_text(json.dumps(_scores(("Bob", "b" * 40, "2026-11-30T10:00Z"),
                                                          ("bob", "c" * 40, "2026-11-30T11:00Z"))))
    two = record.read_record(tmp_path / "two.json")
    assert two.clash("c-hw1-bob") == ["Bob", "bob"]
    submission = batch.Submission("c-hw1-bob", tmp_path)
    batch.read_submission(submission, {"k01_x"}, None, plan.TermPlan(record=two))
    assert submission.files is None and "'Bob' and 'bob' are one student's name" in submission.notes[0]


def _two_folders(where: Path, *names: str) -> list[batch.Submission]:
    kata = FUNCTIONS[0].kata
    for name in names:
        (where / name).mkdir()
        (where / name / f"{kata}.py").write_text("x = 1\n")
    return batch.collect(where, {kata})


def test_a_folder_that_differs_only_by_case_takes_nobodys_roster_identity_or_canvas_cell(tmp_path):
    (tmp_path / "class").mkdir()
    found = _two_folders(tmp_path / "class", "Bob", "bob")
    assert [s.files for s in found] == [None, None]
    assert all("are one student's name" in s.notes[0] and "neither is graded" in s.notes[0] for s in found)
    assert "'Bob'" in found[1].notes[0] and "'bob'" in found[0].notes[0]   # each row names the other
    (tmp_path / "roster.csv").write_text("submission,student,email,id\nbob,Bob Li,bob@uni.example,S1\n")
    students = roster.read_roster(tmp_path / "roster.csv")
    rows = [{**batch.row_for(s, FUNCTIONS, None), "score": 9} for s in found]   # even a score is not credited
    joined = roster.join(rows, students, FUNCTIONS)
    assert len(joined) == 2 and all(row["email"] == "" and "roster's columns are on neither" in row["notes"] for row in joined)
    cells = lms.canvas(joined, "Student,ID,SIS User ID,SIS Login ID,Section,Katas\nBob Li,7,S1,bob,A,\n", "Katas")
    assert cells.text.splitlines()[1].endswith(",")   # blank: neither folder's score is guessed to be his
    assert cells.unfilled == ["Bob Li"]


def test_a_folder_with_a_leading_space_takes_no_classmates_feedback_file(tmp_path):
    (tmp_path / "class").mkdir()
    found = _two_folders(tmp_path / "class", " bob", "bob")
    assert [s.files for s in found] == [None, None] and all("refused" in s.notes[0] for s in found)
    rows = [batch.row_for(s, FUNCTIONS, None) for s in found]
    (tmp_path / "feedback").mkdir()
    written = feedback.write_all(tmp_path / "feedback", rows, KATAS, "en")
    assert sorted(path.name for path in written.values()) == ["bob (1).md", "bob (2).md"]   # nobody's file is "bob.md"
    assert identity.key(" Ｂob ") == identity.key("bob") and identity.key("bob") != identity.key("bobby")


def test_a_roster_that_spells_a_folder_in_another_case_is_one_row_in_one_shard():
    # the roster writes "Bob", the clone is "bob": one student, whichever shard grades him
    names = [f"Student{n:02d}" for n in range(30)] + ["Bob", "ÉLODIE"]
    for count in (2, 3, 5):
        for name in names:
            assert [shards.Shard(k, count).holds(name) for k in range(1, count + 1)] == \
                   [shards.Shard(k, count).holds(identity.key(name)) for k in range(1, count + 1)]
    students = roster.Roster(tuple(roster.Student(name, name, f"{n}@uni.example", str(n)) for n, name in enumerate(names)))
    graded = [{**gradebook.row(name.lower(), [], FUNCTIONS, None), "score": 7} for name in names]
    rows = []
    for k in (1, 2, 3):
        part = shards.Shard(k, 3)
        book = roster.join([row for row in graded if part.holds(row["submission"])], students, FUNCTIONS, keep=part.holds)
        rows += [{**row, "shard": str(part)} for row in book]
    merged, _ = shards.merged([("all", rows)])
    assert len(merged) == len(names) and all(row["score"] == 7 and row["email"] for row in merged)
    with pytest.raises(shards.ShardError, match="is in all and in again"):   # one student twice is refused
        shards.merged([("all", rows[:1]), ("again", [{**rows[0], "submission": rows[0]["submission"].upper()}])])


# --- progress, permissions, the report's ranking ------------------------------------------------------

class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_plain_lines_every_few_seconds_off_a_terminal_and_a_bar_on_one():
    clock, stream = _Clock(), io.StringIO()
    shown = progress.Progress(10, stream, every=5, clock=clock)
    for number in range(10):
        clock.now += 1.5
        shown.step("张伟" if number == 4 else f"s{number}")
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue() and len(lines) == 4   # the first, one every 5 s, and the last
    assert lines[0] == "batch: 1/10 graded (10%), ETA 14 s, last: s0"
    assert lines[-1] == "batch: 10/10 graded (100%), done in 15 s, last: s9"
    # printed at 7.5 s and 13.5 s: the names done since the line before (the last three, and how many more)
    assert lines[1].endswith("last: s2, s3, 张伟 (+1 more)") and lines[2].endswith("last: s6, s7, s8 (+1 more)")
    long = progress.fitted("张伟" * 20)
    assert long.endswith("…") and progress.columns(long) <= progress.NAME_COLUMNS and progress.columns("张伟") == 4
    pytest.importorskip("tqdm")
    terminal = _Terminal()
    bar = progress.Progress(3, terminal)
    for name in ("a", "b", "张伟"):   # tqdm redraws at most ten times a second, and always at the end
        bar.step(name)
    assert "\r" in terminal.getvalue() and "3/3" in terminal.getvalue() and "张伟" in terminal.getvalue()


@pytest.mark.skipif(os.name == "nt", reason="POSIX permissions")
def test_a_written_gradebook_report_or_feedback_is_readable_as_the_umask_says(tmp_path):
    from kata_harness.files import write_atomically

    old = os.umask(0o027)
    try:
        write_atomically(tmp_path / "report.html", b"x")
    finally:
        os.umask(old)
    assert (tmp_path / "report.html").stat().st_mode & 0o777 == 0o640


def test_what_to_teach_next_ranks_by_how_many_fell_in():
    rows = synthetic_gradebook(7, seed=1)
    a, b = "k09_contiguity.flatten_transposed", "k11_broadcasting.normalize_rows"
    for number, row in enumerate(rows):
        for qualified in row["functions"]:
            row["functions"][qualified] = {"status": "todo", "points": 0}
        caught = {"status": "failed", "points": 0, "pitfall": "values", "section": "§5", "call": "", "differed": {}}
        row["functions"][a] = caught if number < 3 else {"status": "passed", "points": 1}   # 3 of 7
        if number < 2:
            row["functions"][b] = caught if number == 0 else {"status": "passed", "points": 1}   # 1 of 2
    summary = class_report.summarise(rows, "en")
    assert [p.qualified for p in summary.teach_next()] == [a, b]
    assert summary.pitfalls[1].share > summary.pitfalls[0].share   # the larger share ranks second


def test_the_report_says_when_and_how_and_shows_chinese_names(tmp_path):
    rows = synthetic_gradebook(3)
    for number, row in enumerate(rows):
        row.update(student=["张伟", "李娜", "Ann"][number], graded_at=f"2026-12-0{number + 1}T10:00:00Z",
                   project="abc123def456", official=True)
    page = class_report.render(rows, KATAS, "zh")
    assert 'data-from="2026-12-01T10:00:00Z" data-to="2026-12-03T10:00:00Z"' in page and "abc123def456" in page
    assert "正式评分，包括隐藏检查" in page and "张伟" in page
    for family in ("PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC"):
        assert page.count(family) >= 3   # the text, the code and the charts' labels
