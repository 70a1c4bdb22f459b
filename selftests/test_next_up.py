"""What a learner meets besides the katas: the "Next:" line points to where the learner is, and watch
mode moves on once the kata it watches is done."""

from kata_harness.content.curriculum import load_curriculum
from kata_harness.layout import LAYOUT
from kata_harness.outputs.text import text

KATAS = load_curriculum(LAYOUT.curriculum)


def _doc(passed: set[str] = frozenset(), failed: set[str] = frozenset()) -> dict:
    """A grading document of every kata: stubs, except the functions named passed or failed."""
    katas = []
    for kata in KATAS:
        entries = []
        for f in kata.functions:
            status = "passed" if f.qualified in passed else "failed" if f.qualified in failed else "todo"
            entries.append({"name": f.name, "status": status, "score": f.points if status == "passed" else 0,
                            "max_score": f.points, "differed": "", "message": f"{f.name}: {status}", "hint": ""})
        katas.append({"kata": kata.name, "score": sum(e["score"] for e in entries),
                      "max_score": sum(e["max_score"] for e in entries), "functions": entries})
    return {"katas": katas, "score": 0, "max_score": 0}


def _first(lesson: str):
    return next(f for kata in KATAS for f in kata.functions if f.lesson.name == lesson)


def test_a_learner_of_the_second_lesson_is_not_sent_back_to_the_first_kata():
    started = _first("lesson2")
    out = text(_doc(failed={started.qualified}), KATAS, lang="en")
    assert f"Next: {started.qualified}" in out
    assert "and its next function first: python grade.py lesson2" in out
    assert "并从它的下一个函数开始：python grade.py lesson2" in text(_doc(failed={started.qualified}), KATAS, lang="zh")


def test_a_learner_who_has_begun_nothing_starts_at_the_first_kata():
    out = text(_doc(), KATAS, lang="en")
    assert f"Next: {KATAS[0].functions[0].qualified}" in out
    assert "and its next function first: python grade.py lesson1" in out


def test_the_second_lesson_comes_next_once_the_first_is_done():
    first_lesson = {f.qualified for kata in KATAS for f in kata.functions if f.lesson.name == "lesson1"}
    assert f"Next: {_first('lesson2').qualified}" in text(_doc(passed=first_lesson), KATAS, lang="en")


def test_one_lesson_graded_alone_needs_no_word_on_how_to_grade_it_alone():
    lesson2 = [kata.name for kata in KATAS if kata.lesson.name == "lesson2"]
    doc = _doc()
    doc["katas"] = [kata for kata in doc["katas"] if kata["kata"] in lesson2]
    out = text(doc, KATAS, lang="en")
    assert f"Next: {_first('lesson2').qualified}" in out and "its next function first" not in out


class _Lane:
    def start(self):
        pass

    def stop(self):
        pass


def _watcher(monkeypatch, tmp_path, passing: set[str], watched: str):
    """A Watcher of one kata whose grading is simulated: the functions in ``passing`` pass."""
    import io

    from kata_harness.commands import watch
    from kata_harness.judging.judge import Grading
    from kata_harness.judging.verdicts import Status, Verdict

    graded = []

    def fake_grade(functions, solutions, expected, *, lane):
        graded.append(sorted({f.kata for f in functions}))
        return Grading(verdicts={f.qualified: Verdict(Status.PASSED if f.qualified in passing else Status.TODO)
                                 for f in functions})

    monkeypatch.setattr(watch, "grade", fake_grade)
    monkeypatch.setattr(watch.Watcher, "_show", lambda self, shown: None)
    functions = [f for kata in KATAS if kata.name == watched for f in kata.functions]
    display = watch.Display("en", str(tmp_path), None, out=io.StringIO())
    watcher = watch.Watcher(KATAS, functions, tmp_path, None, display, lane=_Lane())
    watcher.grade_all()
    return watcher, graded, display.out


def test_watch_moves_on_to_the_next_kata_once_the_watched_one_is_done(monkeypatch, tmp_path):
    k22 = next(kata for kata in KATAS if kata.name == "k22_backward")
    done = {f.qualified for f in k22.functions}
    watcher, graded, out = _watcher(monkeypatch, tmp_path, done, "k22_backward")
    assert watcher.move_on() == ["k23_retain_graph"]
    assert graded[-1] == ["k23_retain_graph"] and "Watching k23_retain_graph too now" in out.getvalue()
    assert {f.kata for f in watcher.functions} == {"k22_backward", "k23_retain_graph"}
    assert watcher.move_on() == []   # k23 does not pass yet: stay


def test_watch_stays_while_the_watched_kata_still_fails(monkeypatch, tmp_path):
    watcher, graded, out = _watcher(monkeypatch, tmp_path, set(), "k22_backward")
    assert watcher.move_on() == [] and graded == [["k22_backward"]] and out.getvalue() == ""


def test_watch_skips_katas_that_already_pass(monkeypatch, tmp_path):
    passing = {f.qualified for kata in KATAS if kata.name in ("k22_backward", "k23_retain_graph") for f in kata.functions}
    watcher, graded, out = _watcher(monkeypatch, tmp_path, passing, "k22_backward")
    assert watcher.move_on() == ["k23_retain_graph", "k24_nonleaf_grads"]
    assert "k22_backward: every function passes. Watching k24_nonleaf_grads too now" in out.getvalue()
