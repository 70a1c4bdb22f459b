"""The judge against fake children (``selftests/fakes.py``): every order of events, every malformed
event, silence, crashes, retirement, the deadline and requeueing, in milliseconds.

The expected records are the real answer key's, so a correct answer is what the reference does;
the clock is a fake one, so a time limit is exact and a hang costs nothing. What each case proves
end to end, with real processes, stays in test_trust.py, test_hostile.py and test_isolation.py.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from kata_harness.content.curriculum import load_curriculum
from kata_harness.isolation import channel
from kata_harness.isolation.protocol import LINE_LIMIT, NESTING_LIMIT, nesting_of_line
from kata_harness.judging import answer_key, judge, verdicts
from kata_harness.judging.expectations import Recorded
from kata_harness.judging.verdicts import Status
from kata_harness.layout import LAYOUT
from selftests.fakes import (
    RETIRE,
    Die,
    FakeClock,
    FakeLane,
    LaneDies,
    Line,
    Send,
    SerialProcess,
    Silence,
    answered,
    done,
    importing,
    kata_error,
    missing,
    observed,
    start,
)

KEY = answer_key.load(LAYOUT.answer_key).expected
FUNCTIONS = {f.qualified: f for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions}
K01 = [name for name in FUNCTIONS if name.startswith("k01_creation.")]
K01_NAMES = [name.split(".")[1] for name in K01]   # arange_inclusive, evenly_spaced, filled, mask_like
K02 = [name for name in FUNCTIONS if name.startswith("k02_creation_traps.")]
K03 = [name for name in FUNCTIONS if name.startswith("k03_dtypes.")]
K04 = [name for name in FUNCTIONS if name.startswith("k04_promotion.")]


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    """The judge's clock, replaced by one that moves only when a fake child lets time pass."""
    fake = FakeClock()
    monkeypatch.setattr(judge, "time", fake)
    return fake


def _grade(clock: FakeClock, functions: list[str], scripts=None, expected: dict | None = None, **options):
    """Grade ``functions`` through a ``FakeLane`` replaying ``scripts`` against ``expected`` (the
    key's records by default; a correct answer observes what the key holds); returns (grading, lane)."""
    records = KEY if expected is None else expected
    lane = FakeLane(clock, KEY, scripts)
    grading = judge.grade([FUNCTIONS[name] for name in functions], Path("/nowhere"), Recorded(records), lane=lane,
                          **options)
    return grading, lane


def _status(grading) -> dict:
    """{function: status} of a grading."""
    return {name: verdict.status.value for name, verdict in grading.verdicts.items()}


def _reason(grading, name: str):
    """(message key, fields) of a function's error verdict."""
    reason = grading.verdicts[name].reason
    assert reason, f"{name} has no reason: {grading.verdicts[name]}"
    return reason.key, reason.fields


def _only_failing(grading, failing: dict) -> None:
    """``failing`` ({function: (status, message key)}) fared so, and every other function passed."""
    found = {name: (verdict.status.value, verdict.reason.key if verdict.reason else None)
             for name, verdict in grading.verdicts.items() if verdict.status != Status.PASSED}
    assert found == failing


def _with(function: str, change) -> dict:
    """The observations of a correct answer for ``function``, changed by ``change(observations)``."""
    observations = copy.deepcopy(KEY[function]["observations"])
    change(observations)
    return observations


# --- the order the job fixes ------------------------------------------------------------------------


def test_a_correct_answer_passes_every_function_of_every_kata(clock):
    grading, lane = _grade(clock, K01 + K02)
    assert _status(grading) == dict.fromkeys(K01 + K02, "passed")
    assert set(grading.durations) == set(K01 + K02) and all(d > 0 for d in grading.durations.values())
    assert lane.jobs() == [K01, K02]                       # one job per kata, in order
    assert [child.stopped for child in lane.children] == [True, True]   # ended cleanly: the process serves on
    assert lane.process == 1


def test_every_job_is_queued_before_the_first_is_followed(clock):
    """The learner's side works while the expected results are collected."""
    lane = FakeLane(clock, KEY)
    submitted_before_reading = []
    submit = lane.submit

    def counting_submit(job):
        submitted_before_reading.append(not lane.followed())
        return submit(job)

    lane.submit = counting_submit   # type: ignore[method-assign]
    judge.grade([FUNCTIONS[name] for name in K01 + K02 + K03], Path("/nowhere"), Recorded(KEY), lane=lane)
    assert submitted_before_reading == [True, True, True]


def test_a_verdict_of_the_expected_source_stands_whatever_the_child_observes(clock):
    """A function the key lacks errors (not in the key); its correct observations change nothing."""
    records = {name: record for name, record in KEY.items() if name != K01[1]}
    grading, _ = _grade(clock, K01, expected=records)
    _only_failing(grading, {K01[1]: ("error", "error.not_in_key")})


def test_a_wrong_value_fails_naming_what_differed(clock):
    wrong = _with(K01[2], lambda obs: obs["cpu"][0]["result"].update(dtype="torch.int64"))
    script = answered("k01_creation", K01_NAMES)
    script[6] = observed("k01_creation", "filled", wrong)
    grading, lane = _grade(clock, K01, {"k01_creation": [script]})
    _only_failing(grading, {K01[2]: ("failed", None)})
    assert grading.verdicts[K01[2]].difference.aspect == "dtype"
    assert lane.children[0].stopped is True   # a wrong answer is no misbehaviour


def test_a_stub_is_todo(clock):
    def raised(observations):
        for case in observations["cpu"]:
            case.pop("result")
            case["raised"] = {"type": "NotImplementedError", "message": "write it", "todo": True}

    script = answered("k01_creation", K01_NAMES)
    script[2] = observed("k01_creation", "arange_inclusive", _with(K01[0], raised))
    grading, _ = _grade(clock, K01, {"k01_creation": [script]})
    _only_failing(grading, {K01[0]: ("todo", None)})


def test_a_missing_function_is_not_found_and_the_rest_is_graded(clock):
    script = answered("k01_creation", K01_NAMES)
    script[6] = missing("k01_creation", "filled")
    grading, lane = _grade(clock, K01, {"k01_creation": [script]})
    _only_failing(grading, {K01[2]: ("error", "error.not_found")})
    assert len(lane.children) == 1 and lane.children[0].stopped is True


def test_a_kata_error_costs_its_whole_kata_and_nothing_else(clock):
    script = [importing("k01_creation"), kata_error("k01_creation", "error.syntax", {"file": "k01_creation.py", "line": 3}),
              done()]
    grading, lane = _grade(clock, K01 + K02, {"k01_creation": [script]})
    _only_failing(grading, dict.fromkeys(K01, ("error", "error.syntax")))
    assert _reason(grading, K01[0]) == ("error.syntax", {"file": "k01_creation.py", "line": 3})
    assert len(lane.children) == 2 and all(child.stopped for child in lane.children)


@pytest.mark.parametrize("reason", [
    "error.syntax",                                  # not a pair
    ["error.crash", {}],                             # a key a child may not give
    ["error.import", ["not", "a", "table"]],
    ["error.import", {"error": ["nested"]}],          # only words and numbers go into a message
    ["error.import", {}, "extra"],
], ids=["not a pair", "foreign key", "fields not a table", "nested field", "three parts"])
def test_a_malformed_kata_error_is_a_protocol_error_of_the_kata(clock, reason):
    script = [importing("k01_creation"), Send("kata_error", {"kata": "k01_creation", "reason": reason}), done()]
    grading, lane = _grade(clock, K01, {"k01_creation": [script]})
    _only_failing(grading, dict.fromkeys(K01, ("error", "error.protocol")))
    assert _reason(grading, K01[0])[1] == {"what": "a malformed kata error"}
    assert lane.children[0].stopped is False


# Scripts for k01 that break the order; each is a correct answer with one step replaced (at that
# index) or inserted, and the function it must cost. After "importing" the child is importing the
# kata, so an event out of place there costs the whole kata; between functions, the next one.
IMPORTING, FIRST_START, FIRST_OBSERVED, SECOND_START = 0, 1, 2, 3
OUT_OF_ORDER = {
    "start before importing": (IMPORTING, start("k01_creation", "arange_inclusive"), K01[:1], "'start' where 'importing"),
    "importing another kata": (IMPORTING, importing("k02_creation_traps"), K01[:1], "where 'importing k01_creation'"),
    "importing without devices": (IMPORTING, Send("importing", {"kata": "k01_creation"}), K01[:1], "devices"),
    "devices that are not names": (IMPORTING, importing("k01_creation", [1, 2]), K01[:1], "devices"),
    "observed before start": (FIRST_START, observed("k01_creation", "arange_inclusive"), K01,
                              "where 'start k01_creation.arange_inclusive' was due"),
    "a function skipped": (FIRST_START, start("k01_creation", "evenly_spaced"), K01, "arange_inclusive"),
    "a second start": (FIRST_OBSERVED, start("k01_creation", "arange_inclusive"), K01[:1],
                       "where the observations of k01_creation.arange_inclusive were due"),
    "a heartbeat": (FIRST_OBSERVED, Send("heartbeat"), K01[:1], "'heartbeat'"),
    "another function observed": (FIRST_OBSERVED, observed("k01_creation", "filled"), K01[:1], "were due"),
    "observations that are not a table": (FIRST_OBSERVED, observed("k01_creation", "arange_inclusive", []), K01[:1],
                                          "not a table"),
    "done too early": (SECOND_START, done(), K01[1:2], "'done' where 'start k01_creation.evenly_spaced'"),
    "an event of another job": (SECOND_START, Send("start", {"kata": "k01_creation", "function": "evenly_spaced"},
                                                   job="another-job"), K01[1:2], "another job"),
    "retired after importing": (FIRST_START, Send("retired"), K01, "'retired'"),
}


@pytest.mark.parametrize("case", sorted(OUT_OF_ORDER))
def test_an_event_out_of_order_costs_what_the_child_was_doing_and_a_fresh_job_grades_the_rest(clock, case):
    index, step, charged, what = OUT_OF_ORDER[case]
    script = answered("k01_creation", K01_NAMES)
    script[index] = step
    grading, lane = _grade(clock, K01 + K02, {"k01_creation": [script]})
    _only_failing(grading, dict.fromkeys(charged, ("error", "error.protocol")))
    assert what in _reason(grading, charged[0])[1]["what"]
    # Its process serves no other job: the job queued on it is sent again, then the rest of the kata.
    assert lane.children[0].stopped is False
    rest = K01[K01.index(charged[-1]) + 1:]   # those before were decided already
    assert lane.jobs() == [K01, K02, K02] + ([rest] if rest else [])


MALFORMED_LINES = {
    "not JSON": (b'{"event": "observed", \n', "not JSON"),
    "not an event": (b'[1, 2, 3]\n', "not an event"),
    "no kind": (b'{"kata": "k01_creation"}\n', "not an event"),
    "too long": (b'{"event": "observed", "x": "' + b"x" * LINE_LIMIT + b'"}\n', "line too long or cut off"),
    "cut off": (b'{"event": "done"}', "line too long or cut off"),
    "nested too deep": (b'{"event": "observed", "x": ' + b"[" * (NESTING_LIMIT + 5) + b"]" * (NESTING_LIMIT + 5) + b"}\n",
                        f"nested more than {NESTING_LIMIT} levels deep"),
    "nested past the decoder": (b'{"event": "observed", "x": ' + b"[" * 20000 + b"]" * 20000 + b"}\n", "not JSON"),
    # Strings ending in escapes before the nesting: counted as the decoder reads them.
    "nested too deep after escapes": (b'{"event": "observed", "s": "\\\\", "t": "\\"[", "x": '
                                      + b"[" * (NESTING_LIMIT + 5) + b"]" * (NESTING_LIMIT + 5) + b"}\n",
                                      f"nested more than {NESTING_LIMIT} levels deep"),
    "not UTF-8": ('{"event": "observed"}'.encode("utf-16") + b"\n", "not JSON"),
}


def _levels(value) -> int:
    """Levels of lists and objects in a decoded value, walked (what ``nesting_of_line`` counts)."""
    inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
    return 0 if inner is None else 1 + max(map(_levels, inner), default=0)


NESTED_LINES = [b'3', b'"[[{"', b'[]', b'[[[[]]]]', b'{"a": "x\\\\"}', b'{"a": "[[[\\"{"}',
                b'{"a": [[["\\\\\\"]"]]]}', b'{"k": "\\u005b", "v": [1, [2, {"w": []}]]}',
                '{"中": ["中[", {}], "]": "}}}"}'.encode(), b'[{"\\"": "\\\\\\""}, [[]]]',
                b'{"event": "observed", "x": ' + b"[" * 150 + b"]" * 150 + b"}"]


@pytest.mark.parametrize("raw", NESTED_LINES)
def test_the_nesting_of_a_line_is_that_of_its_value(raw):
    assert nesting_of_line(raw) == _levels(json.loads(raw))


@pytest.mark.parametrize("case", sorted(MALFORMED_LINES))
def test_a_malformed_line_costs_the_function_it_came_in(clock, case):
    raw, why = MALFORMED_LINES[case]
    script = answered("k01_creation", K01_NAMES)
    script[FIRST_OBSERVED] = Line(raw)
    grading, lane = _grade(clock, K01, {"k01_creation": [script]})
    _only_failing(grading, {K01[0]: ("error", "error.protocol")})
    assert _reason(grading, K01[0])[1] == {"what": why}
    assert lane.children[0].stopped is False and lane.jobs() == [K01, K01[1:]]


def test_an_extra_event_after_the_last_function_costs_nothing_but_the_process(clock):
    script = answered("k01_creation", K01_NAMES)
    script.insert(-1, start("k01_creation", "filled"))
    grading, lane = _grade(clock, K01 + K02, {"k01_creation": [script]})
    assert _status(grading) == dict.fromkeys(K01 + K02, "passed")
    assert lane.children[0].stopped is False and lane.jobs() == [K01, K02, K02]


def test_unreadable_observations_are_a_protocol_error_and_the_process_is_not_reused(clock):
    """The job itself ends as it should, but what it sent cannot be judged: a patched observer."""
    script = answered("k01_creation", K01_NAMES)
    script[FIRST_OBSERVED] = observed("k01_creation", "arange_inclusive", {"cpu": "nonsense"})
    grading, lane = _grade(clock, K01, {"k01_creation": [script]})
    _only_failing(grading, {K01[0]: ("error", "error.protocol")})
    assert lane.children[0].stopped is False and len(lane.children) == 1


# --- silence and time limits --------------------------------------------------------------------------


def test_silence_before_importing_costs_the_first_function_after_the_startup_limit(clock):
    grading, lane = _grade(clock, K01, {"k01_creation": [[Silence()]]})
    _only_failing(grading, {K01[0]: ("error", "error.timeout")})
    assert _reason(grading, K01[0])[1] == {"seconds": judge.STARTUP_TIMEOUT}
    assert lane.children[0].waits == [judge.STARTUP_TIMEOUT]
    assert lane.children[0].stopped is False and lane.jobs() == [K01, K01[1:]]


def test_silence_while_importing_costs_the_whole_kata(clock):
    grading, _ = _grade(clock, K01 + K02, {"k01_creation": [[importing("k01_creation"), Silence()]]},
                        function_timeout=0.5)
    _only_failing(grading, dict.fromkeys(K01, ("error", "error.timeout")))
    assert _reason(grading, K01[0])[1] == {"seconds": 0.5}


def test_silence_in_a_function_costs_that_function_after_its_limit_and_a_fresh_process_grades_the_rest(clock):
    script = [importing("k01_creation"), start("k01_creation", "arange_inclusive"), observed("k01_creation", "arange_inclusive"),
              start("k01_creation", "evenly_spaced"), Silence()]
    grading, lane = _grade(clock, K01 + K02, {"k01_creation": [script]}, function_timeout=0.5)
    _only_failing(grading, {K01[1]: ("error", "error.timeout")})
    assert _reason(grading, K01[1])[1] == {"seconds": 0.5}
    hung = lane.children[0]
    assert hung.waits[-1] == pytest.approx(0.5)   # the limit, counted from the function's start
    assert hung.stopped is False
    # The hang took the process with it: the queued k02 job is sent again, then the rest of k01.
    assert lane.jobs() == [K01, K02, K02, K01[2:]]
    assert [child.functions for child in lane.followed()] == [K01, K02, K01[2:]]


def test_a_spec_that_allows_more_time_gets_it(clock):
    train = "k18_grad_accumulation.train"
    script = [importing("k18_grad_accumulation"), start("k18_grad_accumulation", "train"), Silence()]
    grading, lane = _grade(clock, [train], {"k18_grad_accumulation": [script]}, function_timeout=0.5)
    assert KEY[train]["timeout"] == 20
    assert _reason(grading, train) == ("error.timeout", {"seconds": 20})
    assert lane.children[0].waits[-1] == pytest.approx(20)


def test_hidden_cases_stretch_the_time_limit_in_proportion():
    record = {"timeout": None, "plan": {"public": 5}, "observations": {"cpu": [{}] * 7}}
    assert judge.time_limit(record, 5.0) == pytest.approx(7.0)
    assert judge.time_limit({**record, "timeout": 20}, 5.0) == pytest.approx(28.0)
    assert judge.time_limit({**record, "plan": {"public": 7}}, 5.0) == 5.0


def test_silence_between_functions_costs_the_next_one(clock):
    script = [importing("k01_creation"), start("k01_creation", "arange_inclusive"), observed("k01_creation", "arange_inclusive"),
              Silence()]
    grading, _ = _grade(clock, K01, {"k01_creation": [script]}, function_timeout=0.5)
    _only_failing(grading, {K01[1]: ("error", "error.timeout")})


def test_an_answer_that_comes_too_late_is_a_timeout(clock):
    """The event is there, but it arrived after the function's limit had passed."""
    script = answered("k01_creation", K01_NAMES)
    script[FIRST_OBSERVED] = observed("k01_creation", "arange_inclusive", after=0.6)
    grading, _ = _grade(clock, K01, {"k01_creation": [script]}, function_timeout=0.5)
    _only_failing(grading, {K01[0]: ("error", "error.timeout")})


def test_no_event_extends_a_functions_time_limit(clock):
    """Whatever else a hung function's threads send, the next wait is what is left of its limit."""
    script = [importing("k01_creation"), start("k01_creation", "arange_inclusive"),
              Send("start", {"kata": "k01_creation", "function": "arange_inclusive"}, after=0.3)]
    grading, lane = _grade(clock, K01, {"k01_creation": [script]}, function_timeout=0.5)
    assert grading.verdicts[K01[0]].status == Status.ERROR   # the repeated start is refused ...
    assert lane.children[0].waits[-1] == pytest.approx(0.5)   # ... and the wait for it was the limit


# --- crashes -----------------------------------------------------------------------------------------


def test_a_crash_in_a_function_costs_it_with_the_end_of_its_output(clock):
    script = [importing("k01_creation"), start("k01_creation", "arange_inclusive"),
              Die("exit status 7", "x" * 1000 + "THE-END")]
    grading, lane = _grade(clock, K01 + K02, {"k01_creation": [script]})
    _only_failing(grading, {K01[0]: ("error", "error.crash")})
    verdict = grading.verdicts[K01[0]]
    assert verdict.reason.fields == {"reason": "exit status 7"}
    assert len(verdict.printed) == 300 and verdict.printed.endswith("THE-END")
    # The job's process ended by itself: the lane's serves on, and only the rest of k01 is sent again.
    assert lane.process == 1 and lane.jobs() == [K01, K02, K01[1:]]


def test_a_crash_between_functions_costs_the_next_one(clock):
    script = [importing("k01_creation"), start("k01_creation", "arange_inclusive"), observed("k01_creation", "arange_inclusive"),
              Die("killed by SIGKILL")]
    grading, lane = _grade(clock, K01, {"k01_creation": [script]})
    _only_failing(grading, {K01[1]: ("error", "error.crash")})
    assert _reason(grading, K01[1])[1] == {"reason": "killed by SIGKILL"}
    assert lane.jobs() == [K01, K01[2:]]


def test_a_crash_before_importing_costs_the_first_function(clock):
    grading, _ = _grade(clock, K01, {"k01_creation": [[Die()]]})
    _only_failing(grading, {K01[0]: ("error", "error.crash")})


def test_a_crash_after_the_last_function_costs_nothing(clock):
    script = answered("k01_creation", K01_NAMES)[:-1] + [Die()]
    grading, lane = _grade(clock, K01 + K02, {"k01_creation": [script]})
    assert _status(grading) == dict.fromkeys(K01 + K02, "passed")
    assert lane.children[0].stopped is False and lane.jobs() == [K01, K02]


def test_every_restart_makes_progress(clock):
    """A child that dies at once every time costs one function per try, never loops."""
    grading, lane = _grade(clock, K01, {"k01_creation": [[Die()]] * 10})
    assert _status(grading) == dict.fromkeys(K01, "error")
    assert lane.jobs() == [K01, K01[1:], K01[2:], K01[3:]]


# --- retirement, requeueing, the deadline -------------------------------------------------------------


def test_a_child_that_retires_at_once_costs_nothing_and_the_job_runs_again_later(clock):
    grading, lane = _grade(clock, K01 + K02, {"k01_creation": [[Send("retired")]]})
    assert _status(grading) == dict.fromkeys(K01 + K02, "passed")
    # A retired child serves no other job: the queued one is sent again, and the retired job behind it.
    assert lane.jobs() == [K01, K02, K02, K01]
    assert lane.children[0].stopped is False


def test_a_retired_event_of_another_job_is_a_protocol_error(clock):
    grading, _ = _grade(clock, K01, {"k01_creation": [[Send("retired", job="another-job")]]})
    _only_failing(grading, {K01[0]: ("error", "error.protocol")})


def test_jobs_queued_on_a_process_that_ended_are_sent_again_in_order(clock):
    """A zygote killed after a job: the jobs already sent to it never run, and are sent again."""
    script = answered("k01_creation", K01_NAMES) + [LaneDies()]
    script.insert(-2, LaneDies())   # the lane's process ends before the job's last event is read
    grading, lane = _grade(clock, K01 + K02 + K03, {"k01_creation": [script]})
    assert _status(grading) == dict.fromkeys(K01 + K02 + K03, "passed")
    assert lane.jobs() == [K01, K02, K03, K02, K03]
    assert [child.functions for child in lane.followed()] == [K01, K02, K03]
    assert all(child.process == 2 for child in lane.followed()[1:])


def test_katas_are_dealt_there_and_back_to_lanes_side_by_side_and_a_lane_that_ends_sends_again_only_its_own(clock):
    """With a lane beside the first, the katas' jobs go to the two there and back (first, second,
    second, first: each runs its own one after another, the two at once) and are followed in the
    katas' order; when one lane's process ends, only the jobs queued on that lane are sent again.
    A lane given twice is one lane."""
    script = answered("k01_creation", K01_NAMES) + [LaneDies()]
    script.insert(-2, LaneDies())   # the first lane's process ends before k01's last event is read
    first, second = FakeLane(clock, KEY, {"k01_creation": [script]}), FakeLane(clock, KEY)
    functions = [FUNCTIONS[name] for name in K01 + K02 + K03 + K04]
    grading = judge.grade(functions, Path("/nowhere"), Recorded(KEY), lane=first, beside=[second, first])
    assert _status(grading) == dict.fromkeys(K01 + K02 + K03 + K04, "passed")
    assert first.jobs() == [K01, K04, K04] and second.jobs() == [K02, K03]
    assert [child.functions for child in first.followed()] == [K01, K04]
    assert [child.functions for child in second.followed()] == [K02, K03]
    assert second.process == 1   # untouched by the first lane's end

    alone = FakeLane(clock, KEY)
    judge.grade(functions, Path("/nowhere"), Recorded(KEY), lane=alone, beside=[alone])
    assert alone.jobs() == [K01, K02, K03, K04]


def test_katas_are_dealt_there_and_back_so_that_the_dearer_later_katas_are_shared():
    """Two lanes get 0 1 1 0 0 1 ..., three 0 1 2 2 1 0 0 ...: every lane gets one of each pair of
    neighbours at the turn, so neither is left all the dearer katas of the end."""
    assert [judge.dealt_to(index, 2) for index in range(8)] == [0, 1, 1, 0, 0, 1, 1, 0]
    assert [judge.dealt_to(index, 3) for index in range(7)] == [0, 1, 2, 2, 1, 0, 0]
    assert {judge.dealt_to(index, 1) for index in range(5)} == {0}


def test_the_deadline_stops_grading_and_leaves_no_function_without_a_verdict(clock):
    script = [importing("k02_creation_traps"), start("k02_creation_traps", "class_counts"), Silence()]
    grading, lane = _grade(clock, K01 + K02 + K03, {"k02_creation_traps": [script]}, deadline=3.0)
    assert _status(grading) == {**dict.fromkeys(K01, "passed"), **dict.fromkeys(K02 + K03, "error")}
    assert {_reason(grading, name)[0] for name in K02 + K03} == {"error.deadline"}
    assert [child.functions for child in lane.followed()] == [K01, K02]   # k03 was never followed
    assert lane.children[1].waits[-1] < 3.0   # the wait ends at the deadline, not at the time limit


def test_a_job_that_ends_after_the_deadline_leaves_the_rest_ungraded(clock):
    slow = answered("k01_creation", K01_NAMES)
    slow[-2] = observed("k01_creation", "mask_like", after=4.0)
    grading, _ = _grade(clock, K01 + K02, {"k01_creation": [slow]}, deadline=3.0, function_timeout=5.0)
    assert _status(grading) == {**dict.fromkeys(K01, "passed"), **dict.fromkeys(K02, "error")}
    assert {_reason(grading, name)[0] for name in K02} == {"error.deadline"}


# --- the fork-free lane of macOS and Windows: one warm child, job after job ----------------------------


def _serial(clock, monkeypatch, *processes: list):
    """A real ``channel.SerialChild`` whose processes are ``SerialProcess``es with these replies,
    started in turn; returns (the lane, the processes)."""
    made = [SerialProcess(clock, KEY, replies) for replies in processes]
    spare = list(made)
    monkeypatch.setattr(channel, "Child", lambda **options: spare.pop(0))
    return channel.SerialChild(project=LAYOUT), made


def test_a_serial_child_that_retires_after_a_job_hands_the_rest_to_a_fresh_one(clock, monkeypatch):
    """It found that the first job changed what the next would see: nothing is charged."""
    lane, (first, fresh) = _serial(clock, monkeypatch, [None, RETIRE], [])
    grading = judge.grade([FUNCTIONS[name] for name in K01 + K02 + K03], Path("/nowhere"), Recorded(KEY), lane=lane)
    assert _status(grading) == dict.fromkeys(K01 + K02 + K03, "passed")
    assert [job["functions"][0][0] for job in first.jobs] == ["k01_creation", "k02_creation_traps", "k03_dtypes"]
    assert [job["functions"][0][0] for job in fresh.jobs] == ["k03_dtypes", "k02_creation_traps"]
    assert first.ended and lane.process is fresh


def test_a_fresh_serial_child_that_retires_breaks_the_protocol(clock, monkeypatch):
    """No job ran in it yet, so nothing can have changed it: a retired first job is a forgery."""
    lane, (forger, _) = _serial(clock, monkeypatch, [RETIRE], [])
    grading = judge.grade([FUNCTIONS[name] for name in K01], Path("/nowhere"), Recorded(KEY), lane=lane)
    _only_failing(grading, {K01[0]: ("error", "error.protocol")})
    assert _reason(grading, K01[0])[1] == {"what": "a fresh child retired"}


def test_a_serial_job_reads_only_its_own_events(clock, monkeypatch):
    """Lines an earlier job's thread left behind (another id, or none) are nobody's answer."""
    stray = [Send("observed", {"kata": "k02_creation_traps", "function": "class_counts", "observations": {}},
                  job=other) for other in ("an-earlier-job", None)]
    reply = stray + answered("k02_creation_traps", [name.split(".")[1] for name in K02])
    lane, (process,) = _serial(clock, monkeypatch, [None, reply])
    grading = judge.grade([FUNCTIONS[name] for name in K01 + K02], Path("/nowhere"), Recorded(KEY), lane=lane)
    assert _status(grading) == dict.fromkeys(K01 + K02, "passed")
    assert len(process.jobs) == 2 and lane.process is process


# --- incomplete observations and devices -----------------------------------------------------------


def _verdict(function: str, observations, usable=None, record=None):
    """``verdict_for`` against the key's record of ``function`` (or ``record``), as the judge calls it."""
    record = record or next(iter(Recorded(KEY).collect([FUNCTIONS[function]], float("inf"))))[1]
    return verdicts.verdict_for(record, observations, usable)


INCOMPLETE = {
    "a case missing": (K01[0], lambda obs: obs["cpu"].pop(), "a wrong number of cases on cpu"),
    "a device missing": (K01[3], lambda obs: obs.pop("meta"), "no observations on meta"),
    "a device nobody asked for": (K01[0], lambda obs: obs.update(mps=obs["cpu"]), "devices nobody asked for"),
    "a field missing": (K01[0], lambda obs: obs["cpu"][2]["result"].pop("history"), "cpu[2].result.history"),
    "the inputs missing": (K01[0], lambda obs: obs["cpu"][0].pop("inputs"), "cpu[0].inputs"),
    "a 0-dim value dropped": ("k11_broadcasting.mse", lambda obs: obs["cpu"][0]["result"].update(values=None),
                              "cpu[0].result.values"),
    "a probe dropped": ("k19_inference.predict", lambda obs: obs["cpu"][0]["probes"].clear(), "cpu[0].probes."),
    "not a list of cases": (K01[0], lambda obs: obs.update(cpu={"0": obs["cpu"][0]}), "a wrong number of cases on cpu"),
}


@pytest.mark.parametrize("case", sorted(INCOMPLETE))
def test_incomplete_observations_never_pass(case):
    """``incomplete`` names the gap; the verdict is a protocol error, or a failure where the
    comparison itself already finds the gap a difference."""
    function, change, what = INCOMPLETE[case]
    assert what in verdicts.incomplete(_with(function, change), KEY[function]["observations"])
    verdict = _verdict(function, _with(function, change))
    assert verdict.status in (Status.ERROR, Status.FAILED)
    if verdict.status == Status.ERROR:
        assert verdict.reason.key == "error.protocol"


def test_complete_observations_are_complete():
    for name in K01 + K03 + ["k11_broadcasting.mse"]:
        assert verdicts.incomplete(copy.deepcopy(KEY[name]["observations"]), KEY[name]["observations"]) is None
        assert _verdict(name, copy.deepcopy(KEY[name]["observations"])).status == Status.PASSED


def test_nothing_is_asked_where_the_expected_record_has_nothing():
    """A meta tensor has no values: a learner's None there is complete; a dict's items pair by key."""
    expected = {"cpu": [{"result": {"kind": "tensor", "values": None}}]}
    assert verdicts.incomplete({"cpu": [{"result": {"kind": "tensor", "values": None}}]}, expected) is None
    keyed = {"cpu": [{"result": {"kind": "dict", "keys": ["a", "b"], "items": [{"value": 1}, {"value": 2}]}}]}
    swapped = {"cpu": [{"result": {"kind": "dict", "keys": ["b", "a"], "items": [{"value": 2}, {"value": 1}]}}]}
    assert verdicts.incomplete(swapped, keyed) is None
    gap = {"cpu": [{"result": {"kind": "dict", "keys": ["b", "a"], "items": [{"value": 2}, {}]}}]}
    assert verdicts.incomplete(gap, keyed) == "an incomplete observation (cpu[0].result.items[0].value)"   # a's


def test_a_module_with_other_submodules_has_a_mode_per_submodule_of_its_own():
    """A returned module holds one training flag per submodule: a network with activations between
    its layers has more of them than the expected one, and is complete; flags that are missing or
    not flags are a gap."""
    def module(training):
        return {"cpu": [{"result": {"kind": "module", "class": "Sequential", "training": training,
                                    "params": [], "buffers": []}}]}
    expected = module([True, True, True])
    assert verdicts.incomplete(module([True, True, True, True, True]), expected) is None
    gap = "an incomplete observation (cpu[0].result.training)"
    assert verdicts.incomplete(module(None), expected) == gap
    assert verdicts.incomplete(module([True, None]), expected) == gap


def _with_cuda(function: str) -> dict:
    """The key's record of ``function`` as a machine with a GPU would have frozen it."""
    record = copy.deepcopy(KEY[function])
    record["observations"]["cuda"] = copy.deepcopy(record["observations"]["cpu"])
    record["skipped"] = []
    return record


def test_a_gpu_the_child_said_it_could_use_must_be_observed(clock):
    mask_like = K01[3]
    records = {**KEY, mask_like: _with_cuda(mask_like)}
    usable = [importing("k01_creation", ["cpu", "meta", "cuda"])]
    grading, _ = _grade(clock, K01, {"k01_creation": [usable + answered("k01_creation", K01_NAMES)[1:]]},
                        expected=records)
    _only_failing(grading, {mask_like: ("error", "error.protocol")})
    assert _reason(grading, mask_like)[1] == {"what": "no observations on cuda"}
    # Without a GPU on the learner's side the same observations pass, cuda reported as skipped.
    grading, _ = _grade(clock, K01, expected=records)
    assert grading.verdicts[mask_like].status == Status.PASSED and grading.verdicts[mask_like].skipped == ["cuda"]


def test_meta_is_never_optional():
    mask_like = K01[3]
    verdict = _verdict(mask_like, _with(mask_like, lambda obs: obs.pop("meta")), usable=["cpu"])
    assert verdict.status == Status.ERROR and verdict.reason.fields == {"what": "no observations on meta"}


def test_observations_on_an_optional_device_the_key_lacks_are_set_aside():
    """An answer key frozen without a GPU, graded on a machine with one: the GPU's observations
    (whatever they hold) neither count nor break the verdict."""
    mask_like = K01[3]
    with_gpu = _with(mask_like, lambda obs: obs.update(cuda=[{"nonsense": True}]))
    verdict = _verdict(mask_like, with_gpu, usable=["cpu", "meta", "cuda"])
    assert verdict.status == Status.PASSED and verdict.skipped == ["cuda"]


def test_a_recorded_run_may_lack_an_optional_device():
    """``usable`` unknown (None): a missing GPU is skipped, not held against the learner."""
    mask_like = K01[3]
    verdict = _verdict(mask_like, copy.deepcopy(KEY[mask_like]["observations"]), record=_with_cuda(mask_like))
    assert verdict.status == Status.PASSED and verdict.skipped == ["cuda"]


# --- hidden cases --------------------------------------------------------------------------------


def _hidden_record(function: str, hidden: int = 2) -> dict:
    """The key's record of ``function`` with its last ``hidden`` cases counted as hidden ones."""
    record = copy.deepcopy(KEY[function])
    record["plan"] = {"public": len(record["observations"]["cpu"]) - hidden}
    return record


def test_a_difference_only_on_a_hidden_case_is_told_without_its_expected_value():
    filled = K01[2]
    wrong = _with(filled, lambda obs: obs["cpu"][-1]["result"].update(dtype="torch.int64"))
    verdict = _verdict(filled, wrong, record=_hidden_record(filled))
    assert verdict.status == Status.FAILED
    assert verdict.difference.key == "hidden.differs" and "torch.float32" not in json.dumps(verdict.difference.fields)


def test_a_difference_on_a_public_case_is_told_in_full_even_with_hidden_cases():
    filled = K01[2]
    wrong = _with(filled, lambda obs: [case["result"].update(dtype="torch.int64") for case in obs["cpu"]])
    verdict = _verdict(filled, wrong, record=_hidden_record(filled))
    assert verdict.status == Status.FAILED and verdict.difference.key == "aspect.dtype"
    assert verdict.difference.fields["expected"] == "torch.float32"
