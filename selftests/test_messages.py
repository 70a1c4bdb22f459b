"""The learner's messages read well: where a difference was found, 0-dim values, errors without
a message or cut short, a missing import, probes in words, and the closing line of a partial run."""

import ast

import pytest

from kata_harness.aspects.compare import Tolerance, tidy_cut
from kata_harness.content.curriculum import load_curriculum
from kata_harness.content.messages import MESSAGES
from kata_harness.judging.verdicts import Verdict, compare_case
from kata_harness.layout import LAYOUT, ROOT
from kata_harness.outputs import text as text_report
from kata_harness.outputs.explanations import pitfall_text, render, section_text

KATAS = load_curriculum(LAYOUT.curriculum)
INFO = {f.qualified: f for kata in KATAS for f in kata.functions}


def _tensor(values, shape, dtype="torch.float32"):
    return {"kind": "tensor", "class": "Tensor", "shape": shape, "dtype": dtype, "device": "cpu",
            "requires_grad": False, "leaf": True, "history": False, "contiguous": True, "values": values}


def _observation(result, inputs=(), names=(), probes=None, raised=None):
    observation = {"call": "f(x)", "label": None, "names": list(names), "printed": ""}
    if raised:
        observation["raised"] = raised
        return observation
    observation.update(result=result, inputs=list(inputs))
    if probes is not None:
        observation["probes"] = probes
    return observation


def _message(yours, expected, aspects=("shape", "dtype", "device", "values", "inputs", "container"),
             info="k11_broadcasting.mse", lang="en"):
    found = compare_case(yours, expected, aspects, Tolerance())
    verdict = Verdict("failed", "cpu", "f(x)", None, found)
    return render(verdict, INFO[info], lang)


def test_a_path_into_an_input_belongs_to_its_name():
    module = {"kind": "module", "class": "Linear", "training": [True],
              "params": [["weight", _tensor([1.0], [1])]], "buffers": []}
    changed = {**module, "params": [["weight", _tensor([2.0], [1])]]}
    result = _tensor([0.0], [1])
    text = _message(_observation(result, [changed], ["model"]), _observation(result, [module], ["model"]))
    assert "the input `model.weight` after the call: values differ at [0]" in text
    zh = _message(_observation(result, [changed], ["model"]), _observation(result, [module], ["model"]), lang="zh")
    assert "调用之后的输入 `model.weight`" in zh


def test_a_zero_dim_result_names_no_position():
    text = _message(_observation(_tensor(2.5, [])), _observation(_tensor(2.0, [])))
    assert "the result: yours is 2.5, expected 2" in text and "[]" not in text


def test_an_exception_without_a_message_ends_cleanly():
    raised = {"type": "StopIteration", "message": "", "todo": False, "exit": False}
    text = _message(_observation(None, raised=raised), _observation(_tensor(1.0, [])))
    assert "your function raised StopIteration" in text and "StopIteration:" not in text


def test_a_long_error_is_cut_between_words():
    sentence = "one of the variables needed for gradient computation has been modified by an inplace operation"
    cut = tidy_cut(sentence + "; expected version 0 instead. Hint: enable anomaly detection with torch.aut", 150)
    assert cut.endswith("instead. ...") and "torch.aut" not in cut
    assert tidy_cut("short and whole") == "short and whole"
    assert tidy_cut("a message the child shortened in the middle of a wo ...") == \
        "a message the child shortened in the middle of a ..."


def test_a_name_error_asks_for_the_import():
    raised = {"type": "NameError", "message": "name 'F' is not defined", "todo": False, "exit": False}
    text = _message(_observation(None, raised=raised), _observation(_tensor(1.0, [])))
    assert "import torch.nn.functional as F" in text and "broadcast" not in text.split("Pitfall:")[1].lower()
    raised["message"] = "name 'reslt' is not defined"
    assert "check its spelling" in _message(_observation(None, raised=raised), _observation(_tensor(1.0, [])))


def test_every_probe_is_described_in_words_in_both_languages():
    probes = set()
    for path in (ROOT / "tests").glob("test_k*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Probe" and node.args \
                    and isinstance(node.args[0], ast.Constant):
                probes.add(node.args[0].value)
    assert probes, "no probes found"
    missing = sorted(name for name in probes if f"probe.{name}" not in MESSAGES)
    assert not missing, f"probes without a description in kata_harness/content/messages.py: {missing}"


def test_a_probe_difference_names_what_was_observed_not_the_check():
    expected = _observation(None, probes={"python_random": {"kind": "float", "value": 0.5}})
    expected["result"] = {"kind": "none"}
    yours = {**expected, "probes": {"python_random": {"kind": "float", "value": 0.7}}}
    text = _message(yours, expected, aspects=("container",), info="k20_reproducibility.set_seed")
    assert "three random.random() draws right after the call: yours is 0.7" in text
    assert "the check" not in text


def test_sections_are_joined_the_way_each_language_writes_them():
    info = INFO["k16_leaves.trainable"]
    assert pitfall_text(info, None, None, "en").endswith("(lesson §3.6, §4.5, docs/lesson.md)")
    assert pitfall_text(info, None, None, "zh").endswith("（讲义 §3.6、§4.5，docs/lesson.zh.md）")
    assert section_text("§5.1, §7", "zh") == "§5.1、§7"


def test_a_message_points_to_the_notes_of_its_kata_s_lesson():
    later = next(info for info in INFO.values() if info.lesson.name != "lesson1")
    assert pitfall_text(later, None, None, "en").endswith(f"(lesson {later.section}, {later.lesson.notes['en']})")
    assert pitfall_text(later, None, None, "zh").endswith(
        f"（讲义 {section_text(later.section, 'zh')}，{later.lesson.notes['zh']}）")
    assert later.lesson.notes["en"] != INFO["k16_leaves.trainable"].lesson.notes["en"]


@pytest.mark.parametrize("selected, closing", [(None, "all_done"), ("k01_creation", "selection_done")])
def test_the_closing_line_fits_what_was_graded(selected, closing):
    chosen = [kata for kata in KATAS if selected in (None, kata.name)]
    doc = {"score": 0, "max_score": 0, "katas": [
        {"kata": kata.name, "score": 0, "max_score": 0,
         "functions": [{"name": f.name, "status": "passed", "score": f.points, "max_score": f.points,
                        "message": "", "differed": "", "pitfall": "", "hint": ""} for f in kata.functions]} for kata in chosen]}
    text = text_report.text(doc, KATAS, lang="en")
    assert MESSAGES[f"grade.{closing}"]["en"] in text


def test_a_measured_count_reads_as_a_teacher_says_it():
    """A count is told in words ("yours holds 4 items, and should hold 0"), not as "length 4"."""
    en = MESSAGES["aspect.length"]["en"].format(where="the result", yours=4, expected=0)
    zh = MESSAGES["aspect.length"]["zh"].format(where="返回值", yours=4, expected=0)
    assert en == "the result: yours holds 4 items, and should hold 0" and "length" not in en
    assert zh == "返回值：你的有 4 项，应当有 0 项" and "长度" not in zh
    assert "取最大的差" not in MESSAGES["probe.least_squares_fit"]["zh"]
