"""Hints climb: what a learner reads before hint level 3 (titles, pitfall texts, level-1 and
level-2 hints, the harness's messages, the stubs' docstrings, the glossary) holds no line of a
reference solution, so a template released with ``--max-hint-level 2`` gives no answer away; the
level-1 hint shown with a failure fits the pitfall found; and no kata hint follows a syntax error
or a missing import.

The lesson notes are left out on purpose: they teach each API with examples of their own, and
§6 is the worked example that k15 asks the learner to write again."""

import ast
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
    from selftests.test_variants import VARIANTS, _grade

    variant = next(v for v in VARIANTS if v.kata == kata and v.implementation.__name__ == implementation)
    return explain(_grade(variant), INFO[f"{kata}.{variant.function}"], lang)


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
