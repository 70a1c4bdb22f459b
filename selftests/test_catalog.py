"""The curriculum, stubs, references and kata tests agree with each other and with the catalogue
(CATALOG.md's contract, kept in selftests/catalog.json), and every learner-facing text exists in
English and Chinese."""

import ast
import inspect
import json
import re

import pytest

from kata_harness.content.curriculum import load_curriculum
from kata_harness.content.messages import LANGUAGES, MESSAGES
from kata_harness.layout import LAYOUT, ROOT
from kata_harness.observation.local import load_kata_spec, load_module

KATAS = load_curriculum(LAYOUT.curriculum)
CATALOG = ROOT / "selftests" / "catalog.json"                 # the contract, kept by the project
SHARED_CATALOG = ROOT.parent / "shared" / "CATALOG.md"        # where it is written, when beside the project
CJK = re.compile(r"[\u4e00-\u9fff]")


def _bilingual(texts) -> bool:
    return all(isinstance(texts.get(lang), str) and texts[lang].strip() for lang in LANGUAGES) \
        and bool(CJK.search(texts["zh"]))


def test_every_generic_message_exists_in_both_languages():
    missing = [key for key, texts in MESSAGES.items() if set(texts) != set(LANGUAGES) or not all(texts.values())]
    assert not missing


@pytest.mark.parametrize("kata", KATAS, ids=lambda k: k.name)
def test_kata_files_and_spec_match_the_curriculum(kata):
    spec = load_kata_spec(kata.name, LAYOUT.tests)
    assert spec.name == kata.name
    assert [f.name for f in spec.functions] == [f.name for f in kata.functions]
    stub = load_module(ROOT / "katas" / f"{kata.name}.py")
    reference = load_module(ROOT / "reference" / f"{kata.name}.py")
    for info in kata.functions:
        assert inspect.signature(getattr(stub, info.name)) == inspect.signature(getattr(reference, info.name)), \
            f"{info.qualified}: stub and reference signatures differ"


@pytest.mark.parametrize("kata", KATAS, ids=lambda k: k.name)
def test_every_function_has_bilingual_title_pitfalls_and_three_hint_levels(kata):
    assert _bilingual(kata.title)
    for info in kata.functions:
        assert _bilingual(info.title), info.qualified
        assert info.points >= 1
        assert info.section.startswith("§"), info.qualified
        assert "default" in info.pitfalls, f"{info.qualified}: no default pitfall text"
        for key, texts in info.pitfalls.items():
            assert _bilingual(texts), f"{info.qualified}: pitfall '{key}' is not in both languages"
        assert len(info.hints) >= 3, f"{info.qualified}: fewer than three hint levels"
        for level in info.hints:
            assert all(level.get(lang, "").strip() for lang in LANGUAGES), info.qualified


@pytest.mark.parametrize("kata", KATAS, ids=lambda k: k.name)
def test_stubs_are_bilingual_and_raise_not_implemented(kata):
    source = (ROOT / "katas" / f"{kata.name}.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    assert CJK.search(ast.get_docstring(tree) or ""), "the module docstring needs its Chinese half"
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    for info in kata.functions:
        node = functions[info.name]
        doc = ast.get_docstring(node) or ""
        assert "Pitfall" in doc and "陷阱" in doc, info.qualified
        assert "Example" in doc and "示例" in doc, info.qualified
        assert "§" in doc, info.qualified
        body = node.body[1:]   # after the docstring
        assert len(body) == 1 and isinstance(body[0], ast.Raise), f"{info.qualified}: the stub must only raise"
        raised = ast.get_source_segment(source, body[0])
        assert "NotImplementedError" in raised and "尚未实现" in raised, info.qualified


def _catalog() -> dict[str, list[str]]:
    """{kata: the signatures of its functions, in the catalogue's order} from selftests/catalog.json."""
    return json.loads(CATALOG.read_text(encoding="utf-8"))["katas"]


def _catalog_md(text: str) -> dict[str, list[str]]:
    """The same table read from CATALOG.md's text: each kata section's function signatures."""
    catalog = {}
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        kata = section.split()[0]
        if re.fullmatch(r"k\d\d_\w+", kata):
            catalog[kata] = re.findall(r"^\| `(\w+\(.*?\)(?: -> [^`]+)?)`", section, flags=re.M)
    return catalog


def _parameters(signature: str) -> list[tuple[str, str | None]]:
    """(name, default as written or None) of each parameter of a catalogue signature."""
    arguments = ast.parse(f"def {signature}: pass").body[0].args   # type: ignore[attr-defined]
    defaults = [None] * (len(arguments.args) - len(arguments.defaults)) + [ast.unparse(d) for d in arguments.defaults]
    return [(argument.arg, default) for argument, default in zip(arguments.args, defaults)]


def test_the_catalog_data_is_the_catalogs_and_catalog_md_says_the_same_where_it_is():
    """The project keeps the catalogue's contract itself; beside ../shared/CATALOG.md (where the
    first lesson's catalogue is written) it must say exactly what that file says about the katas the
    file lists, in the same order, and may only add katas after them (the second lesson's pack is
    appended: names are never changed, only added)."""
    catalog = _catalog()
    assert catalog and all(re.fullmatch(r"k\d\d_\w+", kata) and signatures for kata, signatures in catalog.items())
    for signature in [signature for signatures in catalog.values() for signature in signatures]:
        assert signature.split("(")[0].isidentifier() and _parameters(signature) is not None   # parses as a def
    if SHARED_CATALOG.is_file():
        written = _catalog_md(SHARED_CATALOG.read_text(encoding="utf-8"))
        assert dict(list(catalog.items())[:len(written)]) == written, \
            "selftests/catalog.json differs from ../shared/CATALOG.md: bring it up to date"


def test_the_catalog_holds_the_later_lessons_katas():
    """Every kata of the later lessons is in the catalogue under its own name, its functions in its
    order (appended, never renamed); the first lesson's are checked by name just below."""
    catalog = _catalog()
    lesson_two = [kata for kata in KATAS if kata.lesson.name != KATAS[0].lesson.name]
    assert lesson_two, "the second lesson's katas are missing"
    for kata in lesson_two:
        assert [signature.split("(")[0] for signature in catalog[kata.name]] == [f.name for f in kata.functions]


def test_every_catalog_function_is_in_the_curriculum():
    """Function names are the contract; their katas were renumbered into a beginner's order (and
    some functions moved to another kata) after CATALOG.md was written, so a function is looked up
    by its name: each one is in exactly one kata, and functions that stayed together keep the
    catalog's order."""
    catalog = {kata: [signature.split("(")[0] for signature in signatures] for kata, signatures in _catalog().items()}
    names = [f.name for k in KATAS for f in k.functions]
    assert len(names) == len(set(names)), "a function name is used by two katas"
    ours = {f.name: k for k in KATAS for f in k.functions}
    for kata, functions in catalog.items():
        missing = [name for name in functions if name not in ours]
        assert not missing, f"{kata}: {missing} from CATALOG.md are in no kata"
        for home in {ours[name].name for name in functions}:
            together = [name for name in functions if ours[name].name == home]
            order = [f.name for f in ours[together[0]].functions if f.name in together]
            assert order == together, f"{kata} -> {home}: functions out of the catalog's order"


def test_every_catalog_function_takes_the_catalogs_parameters():
    """The stub's and so the reference's parameters: the names and defaults the catalogue gives
    (the annotations may be spelled differently: ``torch.Tensor`` for ``Tensor``)."""
    home = {f.name: kata.name for kata in KATAS for f in kata.functions}
    wrong = []
    for signatures in _catalog().values():
        for signature in signatures:
            name = signature.split("(")[0]
            stub = getattr(load_module(ROOT / "katas" / f"{home[name]}.py"), name)
            ours = [(p.name, None if p.default is p.empty else repr(p.default))
                    for p in inspect.signature(stub).parameters.values()]
            if ours != _parameters(signature):
                wrong.append(f"{home[name]}.{name}: {ours} against the catalogue's {signature}")
    assert not wrong


@pytest.mark.parametrize("kata", KATAS, ids=lambda k: k.name)
def test_where_meta_is_silent_the_device_of_the_result_still_tells(kata):
    """meta carries no values and lets some mixes of devices pass (a matrix product, a bias-free
    nn.Linear): every function checked on meta compares the device of its results there, and its
    values on the CPU."""
    for function in load_kata_spec(kata.name, LAYOUT.tests).functions:
        if "meta" in function.devices:
            assert "device" in function.aspects, f"{kata.name}.{function.name}: meta without the device aspect"
            assert "cpu" in function.devices, f"{kata.name}.{function.name}: meta without cpu, where values are compared"


def test_pytest_checks_meta_inside_the_cpu_item():
    """A meta item of its own would pass a function whose values are wrong."""
    from kata_harness.pytest_plugin import _item_devices
    from kata_harness.spec import Case, Function

    both = Function("f", [Case(1)], devices=("cpu", "meta", "cuda"))
    assert _item_devices(both) == [("cpu", ["cpu", "meta"]), ("cuda", ["cuda"])]
    assert _item_devices(Function("g", [Case(1)], devices=("meta",))) == [("meta", ["meta"])]
