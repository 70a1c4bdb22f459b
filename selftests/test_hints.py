"""Hints climb: what a learner reads before hint level 3 (titles, pitfall texts, level-1 and
level-2 hints, the harness's messages, the stubs' docstrings, the glossary) holds no line of a
reference solution, so a template released with ``--max-hint-level 2`` gives no answer away; the
level-1 hint shown with a failure fits the pitfall found; and no kata hint follows a syntax error
or a missing import.

The lesson notes are left out on purpose: they teach each API with examples of their own, and
§6 is the worked example that k15 asks the learner to write again."""

import ast
import json
import re

import pytest

from kata_harness.aspects.compare import Difference
from kata_harness.content.curriculum import FunctionInfo, cap_hints, load_curriculum, tomllib
from kata_harness.content.messages import LANGUAGES, MESSAGES
from kata_harness.judging.verdicts import Status, Verdict
from kata_harness.layout import ROOT
from kata_harness.outputs.explanations import explain
from kata_harness.records import Reason

KATAS = load_curriculum()
INFO = {f.qualified: f for kata in KATAS for f in kata.functions}


def _squashed(text: str) -> str:
    """``text`` without whitespace and with one kind of quote: `x+b`, `x + b` and `x  +  b` match."""
    return re.sub(r"\s+", "", text).replace("'", '"')


def _is_api_name(node: ast.AST) -> bool:
    """A name, a constant or an attribute path such as ``leaf.grad`` or ``torch.backends.cudnn``."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, (ast.Name, ast.Constant))


def _trivial(code: str) -> bool:
    """Code that only names something: ``batch``, ``leaf.grad``, a literal such as ``[]``, an API
    called without arguments (``model.eval()``, ``torch.no_grad()``, ``optimizer.step()``), which a
    text names to teach it, or a given callable applied to given names (``model(x)``), which is
    how a contract says what to compute."""
    try:
        node = ast.parse(code, mode="eval").body
        ast.literal_eval(node)
        return True
    except SyntaxError:
        return len(_squashed(code)) < 8
    except ValueError:
        pass
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords \
            and all(isinstance(arg, ast.Name) for arg in node.args):
        return True
    if isinstance(node, ast.Call) and not node.args and not node.keywords:
        node = node.func
    return _is_api_name(node)


def _answer_code(source: str) -> set[str]:
    """Every piece of a reference function body that would give the answer away: each simple
    statement, the value it returns or assigns, and the header expression of an if, for, while or
    with (docstrings and trivial pieces left out)."""
    pieces = set()
    for function in ast.parse(source).body:
        if not isinstance(function, ast.FunctionDef):
            continue
        body = function.body[1:] if ast.get_docstring(function) else function.body
        for node in ast.walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(node, (ast.If, ast.While)):
                pieces.add(ast.get_source_segment(source, node.test))
            elif isinstance(node, ast.For):
                pieces.add(ast.get_source_segment(source, node.iter))
            elif isinstance(node, ast.With):
                pieces.update(ast.get_source_segment(source, item.context_expr) for item in node.items)
            elif isinstance(node, ast.stmt) and not isinstance(node, ast.Try):
                pieces.add(ast.get_source_segment(source, node))
                if isinstance(node, (ast.Return, ast.Assign)) and node.value is not None:
                    pieces.add(ast.get_source_segment(source, node.value))
    return {piece for piece in pieces if piece and not _trivial(piece)}


def _before_level_three():
    """(where, text) for everything a learner can read while hints stop at level 2."""
    for path in sorted((ROOT / "curriculum").glob("k*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for name, entry in data["functions"].items():
            where = f"{path.name} {name}"
            texts = [("title", entry["title"])] + [(f"pitfalls.{k}", v) for k, v in entry.get("pitfalls", {}).items()]
            texts += [(f"pitfall_hints.{k}", v) for k, v in entry.get("pitfall_hints", {}).items()]
            texts += [(f"hints[{level}]", v) for level, v in enumerate(entry.get("hints", [])[:2], 1)]
            for key, bilingual in texts:
                for lang in LANGUAGES:
                    yield f"{where} {key} ({lang})", bilingual[lang]
    for key, bilingual in MESSAGES.items():
        for lang in LANGUAGES:
            yield f"messages.py {key} ({lang})", bilingual[lang]
    for path in sorted((ROOT / "katas").glob("k*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Module, ast.FunctionDef)):
                yield f"katas/{path.name} {getattr(node, 'name', 'module')} docstring", ast.get_docstring(node) or ""
    yield "docs/glossary.md", (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")


def test_the_answer_code_is_found_in_a_reference():
    pieces = _answer_code((ROOT / "reference" / "k05_devices.py").read_text(encoding="utf-8"))
    assert "x + bias.to(x.device)" in pieces
    assert "next(model.parameters(), None)" in pieces
    assert not {"batch", "x.device"} & pieces   # what merely names something is not an answer
    assert _trivial("model.eval()") and not _trivial("x.detach().clone()") and not _trivial("torch.manual_seed(seed)")


@pytest.mark.parametrize("reference", sorted((ROOT / "reference").glob("k*.py")), ids=lambda p: p.stem)
def test_no_line_of_a_reference_appears_before_hint_level_three(reference):
    texts = [(where, _squashed(text)) for where, text in _before_level_three()]
    leaks = {piece: [where for where, text in texts if _squashed(piece) in text]
             for piece in sorted(_answer_code(reference.read_text(encoding="utf-8")))}
    leaks = {piece: where for piece, where in leaks.items() if where}
    assert not leaks, f"answer code of {reference.name} shown before hint level 3: {leaks}"


def _function(**pitfall_hints) -> FunctionInfo:
    return FunctionInfo(kata="k99_demo", name="demo", title={"en": "Demo", "zh": "示例"}, points=1, section="§3.5",
                        pitfalls={"default": {"en": "the default", "zh": "默认"},
                                  "absent_classes": {"en": "classes missing", "zh": "缺少类别"},
                                  "dtype": {"en": "wrong dtype", "zh": "dtype 不对"}},
                        hints=[{"en": "hint one", "zh": "提示一"}, {"en": "two", "zh": "二"}, {"en": "___", "zh": "___"}],
                        pitfall_hints=pitfall_hints)


def _failed(aspect: str, label=None, error: str = "") -> Verdict:
    found = Difference(aspect, "aspect.raises" if error else "aspect.value",
                       {"error": error} if error else {"yours": "a", "expected": "b"}, {"key": "where.result"})
    return Verdict(Status.FAILED, "cpu", "demo(x)", label, found)


def test_the_level_one_hint_is_the_one_written_for_the_pitfall_found():
    info = _function(absent_classes={"en": "count every class", "zh": "每个类别都要计数"})
    assert explain(_failed("values", label="absent_classes"), info).hint == "count every class"
    assert explain(_failed("values", label="absent_classes"), info, "zh").hint == "每个类别都要计数"
    assert explain(_failed("dtype"), info).hint == "hint one"       # no hint of its own: hint 1
    assert explain(_failed("shape"), info).hint == "hint one"       # explained by the default text


def test_no_kata_hint_after_a_syntax_error_or_a_missing_import():
    info = _function()
    missing = _failed("name_error", error="NameError: name 'torch' is not defined")
    assert explain(missing, info).hint == "" and "import torch" in explain(missing, info).pitfall
    syntax = Verdict(Status.ERROR, "cpu", "demo(x)", reason=Reason("error.syntax", {"line": 3, "error": "invalid syntax"}))
    assert explain(syntax, info).hint == ""


def test_a_simulated_gpu_failure_names_the_simulated_device():
    found = Difference("gpu_tensor", "aspect.value", {"yours": "TypeError", "expected": "np.ndarray"},
                       {"key": "where.probe", "name": "gpu_tensor"})
    verdict = Verdict(Status.FAILED, "cpu", "to_numpy(tensor([1.]))", None, found)
    assert "[on device: cuda:0, simulated on the CPU]" in explain(verdict, INFO["k13_numpy_bridge.to_numpy"]).called


def test_the_hints_of_single_pitfalls_are_level_one_and_go_with_it(tmp_path):
    path = tmp_path / "k99_demo.toml"
    path.write_text('# comment\ntitle = { en = "D", zh = "示" }\n\n[functions.demo]\ntitle = { en = "D", zh = "示" }\n'
                    'pitfalls.default = { en = "d", zh = "默" }\npitfalls.dtype = { en = "t", zh = "类" }\n'
                    'pitfall_hints.dtype = { en = "h", zh = "提" }\n'
                    'hints = [{ en = "1", zh = "一" }, { en = "2", zh = "二" }, { en = "___", zh = "___" }]\n',
                    encoding="utf-8")
    assert cap_hints(path, 1)
    assert tomllib.loads(path.read_text(encoding="utf-8"))["functions"]["demo"]["pitfall_hints"] == {
        "dtype": {"en": "h", "zh": "提"}}
    assert cap_hints(path, 0)
    assert "pitfall_hints" not in tomllib.loads(path.read_text(encoding="utf-8"))["functions"]["demo"]


def test_a_hint_for_a_pitfall_that_has_no_text_is_reported():
    from kata_harness.content.curriculum import lint_kata

    data = {"title": {"en": "D", "zh": "示"}, "functions": {"demo": {
        "title": {"en": "D", "zh": "示"}, "pitfalls": {"default": {"en": "d", "zh": "默"}},
        "pitfall_hints": {"dtyp": {"en": "h", "zh": "提"}},
        "hints": [{"en": "1", "zh": "一"}, {"en": "2", "zh": "二"}, {"en": "___", "zh": "___"}]}}}
    assert any("pitfall_hints.dtyp" in problem for problem in lint_kata(data))


def _explained(kata: str, implementation: str, lang: str = "en"):
    from selftests.variants import grade, load_all

    variant = next(v for v in load_all() if v.kata == kata and v.implementation.__name__ == implementation)
    return explain(grade(variant), INFO[f"{kata}.{variant.function}"], lang)


def test_a_learner_who_moved_on_gets_a_hint_about_the_new_mistake():
    """class_counts' hint 1 is about torch.empty; a learner who counts with bincount but forgets
    minlength gets a hint about bincount's length instead."""
    first = _explained("k02_creation_traps", "counts_into_empty")
    moved_on = _explained("k02_creation_traps", "counts_bincount_without_minlength")
    assert "torch.empty" in first.hint and "torch.empty" not in moved_on.hint and "bincount" in moved_on.hint
    assert "torch.empty" not in _explained("k02_creation_traps", "counts_bincount_without_minlength", "zh").hint


def test_a_missing_import_gets_no_kata_hint():
    explained = _explained("k11_broadcasting", "mse_module_without_import")
    assert "from torch import nn" in explained.pitfall and explained.hint == ""


# --- the ladder: the failure < hint 2 < hint 3 ------------------------------------------------------
# What fills each blank of level 3, where the line cannot be found in the reference as it is written
# (the hint writes the answer another way, or several lines of the reference fit it). Every other
# blank is read off the reference: the one line of the function's body that the level-3 line matches.
LEVEL_THREE_BLANKS = {
    "k35_datasets.load_rows": ["features", "batch_size"],
    "k01_creation.evenly_spaced": ["linspace"],
    "k02_creation_traps.roll_dice": ["7"],
    "k03_dtypes.apply_linear": ["layer.weight"],
    "k04_promotion.standardize": ["x.dtype"],
    "k05_devices.to_device": ["*(to_device(v, device) for v in batch)"],
    "k07_indexing.zero_rows_": ["rows"],
    "k07_indexing.scale_selected_": ["*="],
    "k09_contiguity.merge_heads": ["1, 2"],
    "k10_reshape.zero_flat_": ["p % x.shape[1]"],
    "k11_broadcasting.pairwise_sq_dist": ["None, :, :"],
    "k13_numpy_bridge.numpy_snapshot": ["copy"],
    "k14_numpy_strides.tensor_from_flipped": ["copy"],
    "k16_leaves.trainable": ["True"],
    "k16_leaves.init_weight": ["requires_grad_"],
    "k17_inplace_autograd.sgd_update_": ["p -= lr * p.grad"],
    "k18_grad_accumulation.train": ["losses.append(loss.item())"],
    "k18_grad_accumulation.grad_at": ["f(leaf).sum().backward()"],
    "k19_inference.predict": ["m.training = mode"],
    "k21_determinism.put_values_": ["positions"],
    "k22_backward.derivative": ["ones_like"],
    "k24_nonleaf_grads.hidden_grad": ["retain_grad"],
    "k25_detach.freeze_": ["requires_grad_"],
    "k27_loss_shapes.as_regression_data": ["-1, 1"],
    "k29_gradient_step.stepped": ["detach"],
    "k30_optimizers.adam_fit": ["zero_grad"],
    "k30_optimizers.clipped_step": ["zero_grad"],
    "k30_optimizers.train_steps": ["zero_grad"],
    "k31_train_eval.fit_with_validation": ["train"],
}
# The code before a blank that belongs to it: an attribute's dot, or the name of the call, keyword or
# subscript it fills (`.linspace`, `dtype=torch.float32`, `to(x.device`, `x[:, j`).
_BLANK_CONTEXT = re.compile(r"(?:\w+[=(\[]|\.)$")
# The name whose attribute a blank is (`weight.` of `weight.___`): a short attribute (`.T`) is told by it.
_BLANK_OWNER = re.compile(r"\w+\.$")


def _level_three_lines(info: FunctionInfo) -> list[str]:
    """The code lines of hint level 3 that hold a blank (each without its comment)."""
    return [line.split("  #")[0] for line in info.hint(3, "en").splitlines() if "___" in line.split("  #")[0]]


def _reference_lines(info: FunctionInfo) -> tuple[list[str], list[str]]:
    """The function's reference body, line by line (squashed), and its parameter names."""
    source = (ROOT / "reference" / f"{info.kata}.py").read_text(encoding="utf-8")
    function = next(node for node in ast.parse(source).body
                    if isinstance(node, ast.FunctionDef) and node.name == info.name)
    body = function.body[1:] if ast.get_docstring(function) else function.body
    lines = [_squashed(line) for node in body for line in ast.get_source_segment(source, node).splitlines()]
    return lines, [arg.arg for arg in function.args.args]


def _read_off(line: str, reference: list[str]) -> str | None:
    """What fills the blank of ``line``, where exactly one line of the reference matches it."""
    if not _squashed(line).replace("___", ""):
        return None   # a line that is all blank matches anything
    pattern = "".join(re.escape(part) if part != "___" else "(.+?)" for part in re.split(r"(___)", _squashed(line)))
    found = [match.group(1) for match in (re.fullmatch(pattern, ref) for ref in reference) if match]
    return found[0] if len(found) == 1 else None


def _blank_answers(info: FunctionInfo, table: dict = LEVEL_THREE_BLANKS) -> list:
    """(level-3 line, what fills its blank, the give-away: that answer as code, with the code before the
    blank that belongs to it) for each blank of level 3. A give-away too short to tell code from prose
    is written with the name whose attribute it is (`weight.T`, not `.T`); it is None where it stays
    too short, or is a bare parameter name (any text may name the inputs)."""
    reference, parameters = _reference_lines(info)
    lines = _level_three_lines(info)
    answers = table.get(info.qualified) or [_read_off(line, reference) for line in lines]
    result = []
    for line, answer in zip(lines, answers):
        context = _BLANK_CONTEXT.search(line.split("___")[0])
        giveaway = _squashed((context.group(0) if context else "") + answer) if answer is not None else None
        owner = _BLANK_OWNER.search(line.split("___")[0])
        if giveaway is not None and len(giveaway) < 3 and owner:
            giveaway = _squashed(owner.group(0) + answer)
        if giveaway is not None and (len(giveaway) < 3 or giveaway in parameters):
            giveaway = None
        result.append((line, answer, giveaway))
    return result


def _failure_texts(info: FunctionInfo):
    """(where, text) for what a failure shows before any hint is asked for: every pitfall text, every
    level-1 hint written for a pitfall, hint 1 itself, in both languages."""
    texts = [(f"pitfalls.{k}", v) for k, v in info.pitfalls.items()]
    texts += [(f"pitfall_hints.{k}", v) for k, v in info.pitfall_hints.items()]
    texts += [("hints[1]", info.hints[0])] if info.hints else []
    return [(f"{where} ({lang})", bilingual[lang]) for where, bilingual in texts for lang in LANGUAGES]


def ladder_leaks(info: FunctionInfo, table: dict = LEVEL_THREE_BLANKS) -> list[str]:
    """Where a failure already fills level 3's blank, and where level 2 already holds the code of
    level 3 with its blank filled in."""
    leaks = []
    for line, answer, giveaway in _blank_answers(info, table):
        if answer is None:
            leaks.append(f"no answer known for the blank of {line!r} (add it to LEVEL_THREE_BLANKS)")
            continue
        leaks += [f"{where} fills the blank of {line!r} with {giveaway!r}" for where, text in _failure_texts(info)
                  if giveaway and giveaway in _squashed(text)]
        filled = _squashed(line.replace("___", answer, 1))
        leaks += [f"hints[2] ({lang}) holds {line!r} filled in" for lang in LANGUAGES
                  if filled in _squashed(info.hint(2, lang))]
    return leaks


def _sub_expressions(info: FunctionInfo) -> set[str]:
    """The pieces of the reference body that are code of the answer, not the name of an API: a call
    with arguments, a subscript, an arithmetic or comparing expression, and a method called with
    arguments (`.split(batch_size)`)."""
    source = (ROOT / "reference" / f"{info.kata}.py").read_text(encoding="utf-8")
    function = next(node for node in ast.parse(source).body
                    if isinstance(node, ast.FunctionDef) and node.name == info.name)
    pieces = set()
    for node in ast.walk(function):
        if isinstance(node, (ast.Call, ast.Subscript, ast.BinOp, ast.Compare, ast.BoolOp)) and node is not function:
            segment = ast.get_source_segment(source, node)
            if segment and not _trivial(segment) and len(_squashed(segment)) >= 8:
                pieces.add(segment)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (node.args or node.keywords):
            whole, head = ast.get_source_segment(source, node), ast.get_source_segment(source, node.func.value)
            if whole and head and whole.startswith(head) and len(_squashed(whole[len(head):])) >= 6:
                pieces.add(whole[len(head):])
    return pieces


# The project's own katas, of both lessons (those of the catalogue, selftests/catalog.json), whose every
# blank must be known; an instructor's added kata is held to what its reference tells.
CATALOGUE = json.loads((ROOT / "selftests" / "catalog.json").read_text(encoding="utf-8"))["katas"]
CORE = {f.qualified for kata in KATAS if kata.name in CATALOGUE for f in kata.functions}


@pytest.mark.parametrize("qualified", sorted(INFO), ids=str)
def test_a_failure_gives_less_than_hint_two_and_hint_two_less_than_hint_three(qualified):
    """The failure names the pitfall and the idea; it never fills level 3's blank. Hint 2 names the
    API; it never holds level 3's code with its blank filled in, nor a piece of the answer's code."""
    info = INFO[qualified]
    leaks = ladder_leaks(info)
    if qualified not in CORE:   # an instructor's kata: only what can be read off its reference
        leaks = [leak for leak in leaks if not leak.startswith("no answer known")]
    for piece in sorted(_sub_expressions(info)):
        leaks += [f"hints[2] ({lang}) holds the answer's code {piece!r}" for lang in LANGUAGES
                  if _squashed(piece) in _squashed(info.hint(2, lang))]
    assert not leaks, "\n".join(leaks)


def test_every_blank_of_both_lessons_must_be_known():
    """Every kata this project ships, the second lesson's as well as the first's, is held to all of its
    blanks; only a kata that is not in the catalogue (an instructor's own) may leave one unknown."""
    assert set(INFO) == CORE and {f.lesson.name for f in INFO.values()} >= {"lesson1", "lesson2"}
    instructor = load_curriculum(ROOT / "selftests" / "fixtures" / "instructor_kata" / "curriculum")
    assert instructor and not any(kata.name in CATALOGUE for kata in instructor)


def test_the_table_of_blanks_holds_only_what_the_reference_cannot_tell():
    wrong = []
    for qualified, answers in LEVEL_THREE_BLANKS.items():
        info = INFO[qualified]
        reference, _ = _reference_lines(info)
        read_off = [_read_off(line, reference) for line in _level_three_lines(info)]
        if len(answers) != len(read_off):
            wrong.append(f"{qualified}: {len(answers)} answers for {len(read_off)} blanks")
        elif all(read_off):
            wrong.append(f"{qualified}: the reference gives its blanks, {read_off}")
    assert not wrong, "\n".join(wrong)


def test_a_failure_that_fills_the_blank_is_caught():
    """The ladder check itself: a pitfall that says `dtype=torch.float32` where level 3 leaves
    `dtype=___`, and a hint 2 that is level 3 filled in, are both reported."""
    info = FunctionInfo(kata="k01_creation", name="filled", title={"en": "F", "zh": "填"}, points=1, section="§3.5",
                        pitfalls={"default": {"en": "Say dtype=torch.float32 yourself.", "zh": "写明 dtype=torch.float32。"}},
                        hints=[{"en": "Try it.", "zh": "试试。"},
                               {"en": "return torch.full(shape, value, dtype=torch.float32)", "zh": "同上"},
                               {"en": "return torch.full(shape, value, dtype=___)", "zh": "同上"}])
    leaks = ladder_leaks(info, table={})
    assert any("pitfalls.default (en)" in leak and "dtype=torch.float32" in leak for leak in leaks), leaks
    assert any("pitfalls.default (zh)" in leak for leak in leaks) and any("hints[2] (en)" in leak for leak in leaks)
    quiet = FunctionInfo(kata="k01_creation", name="filled", title={"en": "F", "zh": "填"}, points=1, section="§3.5",
                         pitfalls={"default": {"en": "Say the dtype yourself.", "zh": "自己指定 dtype。"}},
                         hints=[{"en": "Try it.", "zh": "试试。"}, {"en": "dtype= sets it.", "zh": "dtype= 可以设定。"},
                                {"en": "return torch.full(shape, value, dtype=___)", "zh": "同上"}])
    assert ladder_leaks(quiet, table={}) == []
    short = FunctionInfo(kata="k26_linear_layer", name="linear_forward", title={"en": "L", "zh": "线"}, points=1,
                         section="§4.1", pitfalls={"default": {"en": "Multiply by weight.T.", "zh": "乘以 weight.T。"}},
                         hints=[{"en": "Try it.", "zh": "试试。"}, {"en": "Transpose it.", "zh": "转置。"},
                                {"en": "return x @ weight.___ + bias", "zh": "同上"}])
    assert any("with 'weight.T'" in leak for leak in ladder_leaks(short, table={}))   # `.T` is told by its owner


# --- each mistake gets the words and the hint of its own pitfall -----------------------------------
FITS = [
    # (kata, wrong answer, words its failure must hold, words it must not hold, words its hint holds, ...not,
    #  words its Chinese failure holds)
    ("k17_inplace_autograd", "sgd_update_replacing_data", ["the same tensor object, but", "p.data = ..."],
     ["same tensor object as before", "rebinds"], ["p.data_ptr()"], [], ["仍是原来的张量对象", "p.data = ..."]),
    ("k03_dtypes", "gather_row_by_row", ["index is empty", "non-empty TensorList"], ["a float index makes"],
     ["torch.tensor([])"], [], ["索引是空的"]),
    ("k06_clone_view", "snapshot_rebuilt_from_numbers", ["another dtype", "Python numbers"],
     ["A snapshot needs two things"], ["float64"], ["autograd graph"], ["dtype 不一样"]),
    ("k05_devices", "to_device_namedtuple_from_generator", ["namedtuple class", "separate arguments"],
     ["Usual causes", "strings"], ["namedtuple"], ["bare tensor"], ["单独的字段参数"]),
    ("k09_contiguity", "channels_permute_only", ["non-contiguous"], ["reshape is not permute"],
     ["stride()"], ["reshape"], ["非连续视图"]),
    ("k18_grad_accumulation", "accumulate_without_dividing", ["the length of your step", "yours is 2"],
     ["True", "False", "whether your step"], [], [], ["你这一步的长度", "你的结果是 2"]),
]


@pytest.mark.parametrize("kata, name, says, never, hint_says, hint_never, zh_says", FITS, ids=[f[1] for f in FITS])
def test_a_failure_names_the_mistake_made_and_hints_at_it(kata, name, says, never, hint_says, hint_never, zh_says):
    explained = _explained(kata, name)
    told = explained.differed + "\n" + explained.pitfall
    assert all(words in told for words in says), told
    assert not any(words in told for words in never), told
    assert all(words in explained.hint for words in hint_says), explained.hint
    assert not any(words in explained.hint for words in hint_never), explained.hint
    zh = _explained(kata, name, "zh")
    assert all(words in zh.differed + zh.pitfall for words in zh_says), zh.differed + zh.pitfall
    assert zh.hint and zh.hint != explained.hint


def test_a_tensor_whose_memory_was_replaced_is_not_told_it_was_rebound():
    """``same_object`` is "new memory" for the same object with its memory swapped (``p.data = ...``):
    the difference says so, and the pitfall written for it explains it (the inputs text otherwise)."""
    from kata_harness.records import NEW_MEMORY

    def failed(yours):
        found = Difference("inputs", "aspect.same_object", {"yours": yours, "expected": True},
                           {"key": "where.input", "name": "params[0]"})
        return Verdict(Status.FAILED, "cpu", "update(params)", None, found)

    info = _function()
    info.pitfalls["inputs"] = {"en": "rebinding", "zh": "重新绑定"}
    swapped = explain(failed(NEW_MEMORY), info)
    assert "the same tensor object, but its data now lives in new memory" in swapped.differed
    assert swapped.pitfall.startswith("rebinding")   # no text of its own: the inputs text
    info.pitfalls["new_memory"] = {"en": "memory swapped", "zh": "内存被换掉了"}
    info.pitfall_hints["new_memory"] = {"en": "compare data_ptr()", "zh": "比较 data_ptr()"}
    assert explain(failed(NEW_MEMORY), info).pitfall.startswith("memory swapped")
    assert explain(failed(NEW_MEMORY), info, "zh").hint == "比较 data_ptr()"
    rebound = explain(failed(False), info)
    assert rebound.pitfall.startswith("rebinding") and "same tensor object as before: False" in rebound.differed


def test_a_hint_names_its_sections_as_each_language_writes_them(capsys):
    """The header of `grade.py hint` joins the sections as the messages do: "§3.2, §4.4" in English,
    "§3.2、§4.4" in Chinese."""
    import argparse

    from kata_harness.commands import hint

    info = next(f for f in INFO.values() if ", " in f.section)
    for lang, joined in (("en", info.section), ("zh", info.section.replace(", ", "、"))):
        assert hint.run(argparse.Namespace(function=info.qualified, level=1, lang=lang), started=0.0) == 0
        header = capsys.readouterr().out.splitlines()[0]
        assert header.endswith(f"（{joined}）" if lang == "zh" else f" ({joined})"), header


# --- the fix stays in the hints: a first failure names no API that its hint 1 does not -------------
# Quoted error messages are the learner's own output, not advice, and are left out.
_QUOTED = re.compile(r'"[^"]*"|“[^”]*”')
# Code in a text: a dotted path (`torch.no_grad`, `x.detach`, `.item`), a call (`backward(`), a keyword
# (`retain_graph=`) or a snake_case name (`zero_grad`, `set_to_none`).
_CODE = re.compile(r"(?:\b\w+)?(?:\.\w+)+\(?|\b\w+\(|\b\w+=|\b[A-Za-z]+_\w+\b")


def api_names(text: str) -> set[str]:
    """The names of code a text mentions (of two letters or more): `x.detach().clone()` gives {detach, clone}."""
    names = set()
    for token in _CODE.findall(_QUOTED.sub(" ", text)):
        names.update(part for part in re.split(r"[.(=]", token)
                     if len(part) > 1 and re.fullmatch(r"[A-Za-z_]\w*", part))
    return names


def _contract_names(info: FunctionInfo) -> set[str]:
    """What the learner read before any failure: the stub's docstring (its contract and its pitfall),
    its parameters and the function's title."""
    path = ROOT / "katas" / f"{info.kata}.py"
    function = next((node for node in ast.parse(path.read_text(encoding="utf-8")).body
                     if isinstance(node, ast.FunctionDef) and node.name == info.name), None)
    if function is None:
        return api_names(info.title["en"])
    return api_names(ast.get_docstring(function) or "") | {arg.arg for arg in function.args.args} \
        | api_names(info.title["en"])


def fix_before_hint_one(info: FunctionInfo) -> list[str]:
    """Where a failure's text names an API that neither the hint 1 shown with it nor the contract
    names: the fix given before the first rung."""
    known = _contract_names(info)
    found = []
    for key, text in info.pitfalls.items():
        hint = info.pitfall_hints.get(key) or (info.hints[0] if info.hints else dict.fromkeys(LANGUAGES, ""))
        for lang in LANGUAGES:
            extra = api_names(text[lang]) - api_names(hint[lang]) - known
            if extra:
                found.append(f"{info.qualified} pitfalls.{key} ({lang}) names {sorted(extra)} before its hint 1")
    return found




def test_api_names_are_read_off_code_not_prose():
    assert api_names('Call x.detach().clone(), then zero_grad(); "Trying to backward" is the error') \
        == {"detach", "clone", "zero_grad"}
    assert api_names("backward(gradient=ones) and retain_graph=True") == {"backward", "gradient", "retain_graph"}
    assert api_names("The loss is a mean, not a sum.") == set()


def test_a_failure_that_names_the_fix_before_hint_one_is_caught():
    told = FunctionInfo(kata="k22_backward", name="derivative", title={"en": "D", "zh": "导"}, points=1,
                        section="§2.2", pitfalls={"raises": {"en": "Call y.sum().backward() instead.",
                                                             "zh": "请改用 y.sum().backward()。"}},
                        hints=[{"en": "Is y a scalar?", "zh": "y 是标量吗？"}, {"en": "2", "zh": "二"}, {"en": "3", "zh": "三"}])
    assert [leak for leak in fix_before_hint_one(told) if "['sum']" in leak] and len(fix_before_hint_one(told)) == 2
    asked = FunctionInfo(kata="k22_backward", name="derivative", title={"en": "D", "zh": "导"}, points=1,
                         section="§2.2", pitfalls=told.pitfalls, hints=told.hints,
                         pitfall_hints={"raises": {"en": "What does y.sum() give?", "zh": "y.sum() 给出什么？"}})
    assert fix_before_hint_one(asked) == []


def test_a_first_failure_names_no_api_that_its_hint_one_does_not():
    """Every kata of every lesson: the failure says what went wrong and why; the first API of the fix
    comes with hint 1 at the earliest (hint 2 names the API, hint 3 gives the code)."""
    leaks = [leak for info in INFO.values() for leak in fix_before_hint_one(info)]
    assert not leaks, "\n".join(leaks)
