"""The lesson notes of every lesson (docs/lesson.md and docs/lesson.zh.md for the first,
docs/lesson2.md and docs/lesson2.zh.md for the second, as curriculum/lessons.toml lists them) hold
every section that a stub, a hint, a pitfall or a message of that lesson's katas cites, their
examples run as written, level-3 hints leave a blank, and the Chinese texts keep one vocabulary and
Chinese punctuation."""

import ast
import doctest
import re

import pytest

from kata_harness.content.curriculum import lessons_of, load_curriculum
from kata_harness.content.messages import MESSAGES
from kata_harness.layout import LAYOUT, ROOT

SECTION = re.compile(r"§\d+(?:\.\d+)?")
HEADING = re.compile(r"^#{2,4} (§\d+(?:\.\d+)?) \S", re.M)
CJK = "\u4e00-\u9fff"
KATAS = load_curriculum(LAYOUT.curriculum)
LESSONS = lessons_of(KATAS)
FIRST = LESSONS[0].name
NOTES = {(lesson.name, lang): ROOT / path for lesson in LESSONS for lang, path in lesson.notes.items()}
KATA_NAME = re.compile(r"`?(k\d\d_\w+)")


def _headings(lesson: str, lang: str) -> list[str]:
    return HEADING.findall(NOTES[lesson, lang].read_text(encoding="utf-8"))


def _citing_files():
    """(file, the lesson of its citations, or None where each line names its kata's lesson)."""
    lesson_of = {kata.name: kata.lesson.name for kata in KATAS}
    for kata in KATAS:
        yield ROOT / "katas" / f"{kata.name}.py", lesson_of[kata.name]
        yield ROOT / "curriculum" / f"{kata.name}.toml", lesson_of[kata.name]
    yield ROOT / "kata_harness" / "content" / "messages.py", FIRST
    yield ROOT / "README.md", None
    for page in sorted((ROOT / "docs").rglob("*.md")):   # the site's pages besides the notes themselves
        if page not in NOTES.values():
            yield page, None


def _cited(lesson: str) -> dict[str, set]:
    """Every section of ``lesson`` cited anywhere a learner reads, with the files that cite it. A line
    of the README or of a page of the site that names a kata cites that kata's lesson; its other lines cite
    the first lesson."""
    lesson_of = {kata.name: kata.lesson.name for kata in KATAS}
    cited: dict[str, set] = {}
    for path, owner in _citing_files():
        for line in path.read_text(encoding="utf-8").splitlines():
            named = KATA_NAME.search(line) if owner is None else None
            line_lesson = owner or (lesson_of.get(named.group(1), FIRST) if named else FIRST)
            if line_lesson == lesson:
                for section in SECTION.findall(line):
                    cited.setdefault(section, set()).add(path.relative_to(ROOT).as_posix())
    for kata in KATAS:
        for info in kata.functions:
            if kata.lesson.name == lesson:
                for section in SECTION.findall(info.section):
                    cited.setdefault(section, set()).add(f"curriculum/{kata.name}.toml")
    return cited


NOTE_IDS = sorted(NOTES)


@pytest.mark.parametrize("notes", NOTE_IDS, ids="-".join)
def test_every_cited_section_is_a_heading_of_the_lesson(notes):
    lesson, lang = notes
    headings = set(_headings(lesson, lang))
    missing = {section: sorted(files) for section, files in _cited(lesson).items() if section not in headings}
    assert not missing, f"{NOTES[notes].name} lacks headings for {missing}"


def test_every_lesson_has_katas_and_notes_in_both_languages():
    assert len(LESSONS) >= 2 and all(set(lesson.notes) == {"en", "zh"} for lesson in LESSONS)
    assert all(path.is_file() for path in NOTES.values()), [str(p) for p in NOTES.values() if not p.is_file()]


@pytest.mark.parametrize("lesson", [lesson.name for lesson in LESSONS])
def test_both_languages_have_the_same_sections_in_the_same_order(lesson):
    english, chinese = _headings(lesson, "en"), _headings(lesson, "zh")
    assert english == chinese
    assert len(english) == len(set(english)), "a section number is used twice"


def _examples(lesson: str, lang: str):
    text = NOTES[lesson, lang].read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


@pytest.mark.parametrize("notes", NOTE_IDS, ids="-".join)
def test_the_examples_run_as_written(notes):
    import torch

    blocks = _examples(*notes)
    assert blocks, "the lesson has no examples"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    namespace: dict = {}
    name = NOTES[notes].name
    try:
        for index, block in enumerate(blocks):   # one session: later examples use earlier names
            test = parser.get_doctest(block, namespace, f"{name} example {index + 1}", str(NOTES[notes]), 0)
            runner.run(test, clear_globs=False)
            namespace = test.globs   # the test ran on a copy of the names
    finally:
        torch.use_deterministic_algorithms(False)
    results = runner.summarize(verbose=False)
    assert results.attempted > 0 and results.failed == 0


@pytest.mark.parametrize("lesson", [lesson.name for lesson in LESSONS])
def test_the_two_languages_show_the_same_examples(lesson):
    strip = re.compile(r"#.*$", re.M)   # comments are translated; the code is not
    assert [strip.sub("", b) for b in _examples(lesson, "en")] == [strip.sub("", b) for b in _examples(lesson, "zh")]


def test_the_lesson_index_lists_every_kata_under_its_lesson():
    """docs/index.md: a heading per lesson, naming its notes, and a row per kata of that lesson."""
    text = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.M)[1:]
    assert [part.split(":")[0] for part in parts] == [lesson.name for lesson in LESSONS]
    for part, lesson in zip(parts, LESSONS):
        assert all(notes.split("/")[-1] in part for notes in lesson.notes.values()), lesson.name
        rows = re.findall(r"^\| `(k\d\d_\w+)`", part, flags=re.M)
        assert rows == [kata.name for kata in KATAS if kata.lesson.name == lesson.name], lesson.name


@pytest.mark.parametrize("kata", KATAS, ids=lambda k: k.name)
def test_level_three_hints_leave_a_blank(kata):
    for info in kata.functions:
        assert len(info.hints) == 3, f"{info.qualified}: three hint levels"
        for lang in ("en", "zh"):
            assert "___" in info.hints[2][lang], f"{info.qualified}: level 3 ({lang}) must leave a blank ___"


def _chinese_texts():
    """(where, text) for every Chinese text a learner reads."""
    yield from _curriculum_texts()
    for key, texts in MESSAGES.items():
        yield f"text.{key}", texts["zh"]
    yield from _docstring_lines()
    for lesson in LESSONS:
        notes = NOTES[lesson.name, "zh"]
        for number, line in enumerate(notes.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(f"[{CJK}]", line):
                yield f"{notes.name}:{number}", line
    for page in sorted((ROOT / "docs").rglob("*.zh.md")):   # the site's other Chinese pages
        if page not in NOTES.values():
            for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
                if re.search(f"[{CJK}]", line):
                    yield f"{page.relative_to(ROOT).as_posix()}:{number}", line


def _curriculum_texts():
    """(where, text) for the Chinese titles, pitfalls and hints of the curriculum."""
    for kata in KATAS:
        yield f"{kata.name}.title", kata.title["zh"]
        for info in kata.functions:
            yield f"{info.qualified}.title", info.title["zh"]
            for key, texts in info.pitfalls.items():
                yield f"{info.qualified}.pitfalls.{key}", texts["zh"]
            for key, texts in info.pitfall_hints.items():
                yield f"{info.qualified}.pitfall_hints.{key}", texts["zh"]
            for level, texts in enumerate(info.hints, 1):
                yield f"{info.qualified}.hint{level}", texts["zh"]


def _docstring_lines():
    """(where, line) for the Chinese lines of the kata files' docstrings."""
    for path in sorted((ROOT / "katas").glob("k*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Module, ast.FunctionDef)):
                for number, line in enumerate((ast.get_docstring(node) or "").splitlines(), 1):
                    if re.search(f"[{CJK}]", line):
                        yield f"{path.name}:{getattr(node, 'name', 'module')}:{number}", line


def _glossary_avoided() -> list[str]:
    """The Chinese words the glossary's last column says not to use (docs/glossary.md)."""
    table = [line for line in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines()
             if line.startswith("|")][2:]   # after the header and its |---| line
    avoided = [line.strip("|").split("|")[-1] for line in table]
    words = [word.strip() for cell in avoided for word in re.split("[、,，]", cell) if word.strip()]
    assert "轴" in words and "拷贝" in words, "the glossary lists no words to avoid"
    return words


def _nested_parentheses(text: str) -> bool:
    depth = 0
    for char in text:
        depth += char == "（"
        if char == "（" and depth > 1:
            return True
        depth -= char == "）" and depth > 0
    return False


# Phrases that read translated, rewritten once; the glossary says how to write them instead.
TRANSLATED = ("更宽的类型获胜", "才能需要梯度", "只要有东西依赖于它们", "模型如果不归你所有", "所有人的随机性",
              "你的是 ", "应为：可以正常运行", "所有人的生成器", "所有人都拿不到", "被落下", "单独一个答案",
              "是“叶子”", "不能 requires_grad")


RULES = [
    ("约定, not 契约, for a contract", lambda text: "契约" in text),
    ("答案文件, not 答案密钥, for the answer key", lambda text: "答案密钥" in text),
    ("运行统计量 for running statistics", lambda text: "滑动统计" in text),
    ("微批次（micro-batch） for micro-batches",
     lambda text: "micro-batch" in text.replace("微批次（micro-batch）", "") or "微批次 " in text),
    ("a full-width colon after Chinese text", lambda text: re.search(f"[{CJK}）”]:", text)),
    ("、 between sections", lambda text: re.search(r"§[\d.]+, ?§", text)),
    ("the glossary's terms (docs/glossary.md), not the words it avoids",
     lambda text: any(word in text for word in _glossary_avoided())),
    ("no full-width parenthesis inside another", _nested_parentheses),
    ("plain Chinese, not word-for-word translations", lambda text: any(phrase in text for phrase in TRANSLATED)),
]


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule[0])
def test_chinese_texts_keep_one_vocabulary_and_chinese_punctuation(rule):
    name, broken = rule
    offending = [where for where, text in _chinese_texts() if broken(text)]
    assert not offending, f"{name}: {offending}"
