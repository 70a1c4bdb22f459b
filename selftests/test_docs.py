"""The documentation shows only commands that run: every ``python grade.py ...`` line of the READMEs
(the project's and the student template's) and of ``docs/`` is parsed by grade.py's own command line (``kata_harness.commands``), its
subcommand and every option, and a failure names the file and the line. No grade.py process is
started: the parser is called in this process.

Where the commands are. In a fenced code block of a shell (bash, powershell, yaml ...), each line
that holds ``python grade.py``, with the lines a trailing ``\\`` joins to it; in an inline code span,
the span; the command ends at the shell's ``;``, ``&&``, ``|``, ``>`` or a ``#`` comment. A fenced
block without a language is a usage block: each entry (a line that starts with ``python grade.py``,
with its indented continuation lines, without the description after a wide gap) is parsed too,
or, where it is a synopsis (``python grade.py batch DIR [--out FILE] ...``), must name a subcommand
and only options that subcommand has. ``python grade.py`` outside code is an
error too, so that no command escapes the check.

Besides: docs/grading.md names every command and option the parser has, the Chinese home page lists
the same katas under the same lessons as the English one, the counts of katas and functions a page
gives are the curriculum's, every page that shows the install shows the same commands, the README
stays a front door (within 300 lines) whose links reach their files and headings, a Chinese page
has its English twin's sections and commands, and the site's build links each language's pages to
the other's (mkdocs_hooks.py, where MkDocs is installed).
"""

import argparse
import contextlib
import io
import re
import shlex
import textwrap
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace as Fake

import pytest

from kata_harness import commands
from kata_harness.content.curriculum import lessons_of, load_curriculum
from kata_harness.isolation.processes import RUN_AS_VARIABLE
from kata_harness.layout import LAYOUT, ROOT

COMMAND = "python grade.py"
# The student template's README (templates/student/) is the front door of every released template.
PAGES = [ROOT / "README.md", ROOT / "templates" / "student" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^\s*(```|~~~)\s*([\w-]*)")
SPAN = re.compile(r"`([^`]+)`")
ENDS = {";", "&&", "||", "|", "&", ">", ">>", "<", ":::"}   # ::: ends GNU parallel's command
SYNOPSIS = re.compile(r"[\[\]|()]")   # [optional], a|b, (a | b): a usage synopsis, not a command
GAP = re.compile(r"(?<=\S) {3,}")   # in a usage block, a description follows a gap of three spaces or more
ACTIONS_EXPRESSION = re.compile(r"\$\{\{[^}]*\}\}")   # ${{ matrix.shard }}: one word, as the runner makes it


@dataclass(frozen=True)
class Shown:
    """One command as the documentation shows it: where, how (shell, span, usage, prose), what."""

    where: str
    kind: str
    text: str


def _shell(block: list[str], first: int, where: str) -> list[Shown]:
    """The commands of a shell's code block: each line with ``python grade.py``, with the lines a
    trailing backslash joins to it."""
    shown, index = [], 0
    while index < len(block):
        start, line = index, block[index].strip()
        while line.endswith("\\") and index + 1 < len(block):
            index += 1
            line = line[:-1] + " " + block[index].strip()
        if COMMAND in line:
            shown.append(Shown(f"{where}:{first + start}", "shell", line[line.index(COMMAND):]))
        index += 1
    return shown


def _usage(block: list[str], first: int, where: str) -> list[Shown]:
    """The entries of a usage block (a fence without a language): a line that starts with
    ``python grade.py`` and the indented lines after it, each without its description."""
    shown: list[Shown] = []
    for index, line in enumerate(block):
        if line.startswith(COMMAND):
            shown.append(Shown(f"{where}:{first + index}", "usage", GAP.split(line)[0]))
        elif line[:1].isspace() and shown and line.strip():
            shown[-1] = Shown(shown[-1].where, "usage", shown[-1].text + " " + GAP.split(line.strip())[0])
    return shown


def _prose(paragraph: str, first: int, where: str) -> list[Shown]:
    """The commands of a paragraph: in its code spans, and (an error) outside them."""
    shown = []
    for span in SPAN.finditer(paragraph):
        line = first + paragraph.count("\n", 0, span.start())
        body = span.group(1).replace("\n", " ")
        shown += [Shown(f"{where}:{line}", "span", body[at.start():]) for at in re.finditer(re.escape(COMMAND), body)]
    bare = SPAN.sub(lambda span: "\n" * span.group(0).count("\n"), paragraph)
    for at in re.finditer(re.escape(COMMAND), bare):
        line = first + bare.count("\n", 0, at.start())
        shown.append(Shown(f"{where}:{line}", "prose", bare[at.start():].split("\n")[0]))
    return shown


def shown_commands(text: str, where: str) -> list[Shown]:
    """Every ``python grade.py`` command that ``text`` (a Markdown page called ``where``) shows."""
    lines, shown, index = text.splitlines(), [], 0
    paragraph: list[str] = []
    while index <= len(lines):
        line = lines[index] if index < len(lines) else ""
        fence = FENCE.match(line)
        if fence or not line.strip():   # a paragraph ends at a blank line or a fence
            shown += _prose("\n".join(paragraph), index - len(paragraph) + 1, where)
            paragraph = []
        if fence:
            close = next((end for end in range(index + 1, len(lines)) if FENCE.match(lines[end])), len(lines))
            block = textwrap.dedent("\n".join(lines[index + 1:close])).splitlines()
            shown += (_shell if fence.group(2) else _usage)(block, index + 2, where)
            index = close
        elif line.strip():
            paragraph.append(line)
        index += 1
    return shown


def _argv(text: str, usage: bool = False) -> list[str]:
    """The arguments that ``text`` (which starts with ``python grade.py``) hands grade.py: as a shell
    splits it, up to the end of the command; a synopsis word by word."""
    if usage:
        return text.split()[2:]
    lexer = shlex.shlex(ACTIONS_EXPRESSION.sub("X", text), posix=True, punctuation_chars=";&|<>")
    lexer.whitespace_split = True
    words = []
    for word in lexer:
        if word in ENDS:
            break
        words.append(word)
    return words[2:]


def _options_of(parser) -> set[str]:
    return {option for action in parser._actions for option in action.option_strings}


def _check_synopsis(argv: list[str]) -> None:
    """A synopsis names a subcommand (or none: grading) and only options that subcommand has."""
    parser = commands.build_parser()
    name = argv[0].strip("[]") if argv and argv[0].strip("[]") in parser.subcommands else "grade"
    options = {word for token in argv for word in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", token)}
    unknown = options - _options_of(parser.subcommands[name]) - _options_of(parser)
    assert not unknown, f"{name} has no option {sorted(unknown)}"


def _check_command(argv: list[str]) -> None:
    """The command parses as grade.py parses it (asking for --help is answered, which is fine)."""
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            commands.parse(argv, 0.0)
    except SystemExit as done:   # --help printed its page
        assert done.code == 0, f"exit status {done.code}"


SHOWN = [command for page in PAGES
         for command in shown_commands(page.read_text(encoding="utf-8"), page.relative_to(ROOT).as_posix())]


def test_the_documentation_shows_commands_to_check():
    kinds = {command.kind for command in SHOWN}
    assert {"shell", "span", "usage"} <= kinds, kinds
    assert len({command.where.split(":")[0] for command in SHOWN}) >= 10


@pytest.mark.parametrize("command", SHOWN, ids=lambda command: command.where)
def test_every_command_shown_parses(command, monkeypatch):
    monkeypatch.setenv("KATA_SANDBOX", "none")   # the parser then asks nothing of bubblewrap
    monkeypatch.delenv(RUN_AS_VARIABLE, raising=False)
    assert command.kind != "prose", f"{command.where}: `{command.text}` is outside code, where no check reaches it"
    synopsis = command.kind == "usage" and bool(SYNOPSIS.search(command.text))
    argv = _argv(command.text, usage=command.kind == "usage")
    try:
        if synopsis:
            _check_synopsis(argv)
        else:
            assert not SYNOPSIS.search(" ".join(argv)), "a synopsis outside a usage block (a fence without a language)"
            _check_command(argv)
    except (AssertionError, commands.UsageError) as error:
        pytest.fail(f"{command.where}: `{command.text}` does not parse: {error}")


@pytest.mark.parametrize("text, argv", [
    ("python grade.py k05 --lang zh   # one kata", ["k05", "--lang", "zh"]),
    ("python grade.py; pytest", []),
    ("python grade.py batch d/ --shard ${{ matrix.shard }}/4 --out s.json", ["batch", "d/", "--shard", "X/4", "--out", "s.json"]),
    ("python grade.py batch d/ --shard {}/4 ::: 1 2", ["batch", "d/", "--shard", "{}/4"]),
])
def test_the_shell_words_are_the_arguments_grade_py_gets(text, argv):
    assert _argv(text) == argv


@pytest.mark.parametrize("text", [
    "python grade.py batch",                      # DIR is required
    "python grade.py hint add_bias --level 0",
    "python grade.py --format pdf",
    "python grade.py release",                    # OUT_DIR or a platform
    "python grade.py watch k05 --no-such-option",
])
def test_a_command_that_does_not_run_is_caught(text, monkeypatch):
    monkeypatch.setenv("KATA_SANDBOX", "none")
    with pytest.raises(commands.UsageError):
        _check_command(_argv(text))


def test_a_synopsis_naming_an_option_its_command_lacks_is_caught():
    _check_synopsis(_argv("python grade.py batch DIR [--out FILE] [--at TAG|DATE] [-j N]"))
    with pytest.raises(AssertionError):
        _check_synopsis(_argv("python grade.py hint FUNCTION [--level N] [--out FILE]"))


def test_commands_are_found_in_shells_spans_usage_blocks_and_prose():
    page = ("Run `python grade.py k01`, or\npython grade.py k02 in prose.\n\n```bash\n"
            "python grade.py batch d/ \\\n    --out g.json   # a comment\n```\n\n"
            "```\npython grade.py hint FUNCTION [--level N]   a hint\n                [--lang en|zh]   in Chinese\n```\n")
    assert set(shown_commands(page, "page.md")) == {
        Shown("page.md:1", "span", "python grade.py k01"),
        Shown("page.md:2", "prose", "python grade.py k02 in prose."),
        Shown("page.md:5", "shell", "python grade.py batch d/  --out g.json   # a comment"),
        Shown("page.md:10", "usage", "python grade.py hint FUNCTION [--level N] [--lang en|zh]")}


REFERENCE_PAGE = "docs/grading.md"   # the command line's reference: its usage block names every option


def test_the_grading_page_names_every_command_and_every_option():
    """docs/grading.md's usage block (what the README calls "every command and option of grade.py")
    names each subcommand and, across its entries, each option its parser shows (one spelling of each:
    ``-j`` for ``-j``/``--jobs``), so that an option added to the parser and left out of the page fails."""
    parser = commands.build_parser()
    named: dict[str, set[str]] = {}
    for command in SHOWN:
        if command.where.startswith(REFERENCE_PAGE + ":") and command.kind == "usage":
            argv = _argv(command.text, usage=True)
            name = argv[0].strip("[]") if argv and argv[0].strip("[]") in parser.subcommands else "grade"
            named.setdefault(name, set()).update(re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", " ".join(argv)))
    assert set(named) == set(parser.subcommands), f"{REFERENCE_PAGE} names the commands {sorted(named)}"
    for name, subcommand in parser.subcommands.items():
        missing = [action.option_strings[-1] for action in subcommand._actions
                   if action.option_strings and action.help != argparse.SUPPRESS   # a refused option (reset's --solutions)
                   and not isinstance(action, argparse._HelpAction) and not set(action.option_strings) & named[name]]
        assert not missing, f"{REFERENCE_PAGE}: `python grade.py {name}` lacks the options {missing}"


def _index_rows(path: Path) -> dict[str, list[str]]:
    """{lesson heading: the katas of its table} of a home page."""
    parts = re.split(r"^## ", path.read_text(encoding="utf-8"), flags=re.M)[1:]
    return {part.split("\n")[0]: re.findall(r"^\| `(k\d\d_\w+)`", part, flags=re.M) for part in parts}


def test_the_chinese_home_page_lists_the_katas_of_the_english_one():
    english, chinese = _index_rows(ROOT / "docs" / "index.md"), _index_rows(ROOT / "docs" / "index.zh.md")
    assert [heading.split(":")[0] for heading in english] == [heading.split("：")[0] for heading in chinese]
    assert list(english.values()) == list(chinese.values())


TWINS = [(page, page.with_name(page.name.replace(".md", ".zh.md"))) for page in sorted((ROOT / "docs").rglob("*.md"))
         if not page.name.endswith(".zh.md") and page.with_name(page.name.replace(".md", ".zh.md")).is_file()]


def _outline(path: Path) -> tuple[list[int], list[list[str]]]:
    """The heading levels of a page, and its code blocks that name a language (a shell's commands, a
    file's text), each line without its ``#`` comment, which a translation may translate."""
    levels, blocks, block = [], [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        fence = FENCE.match(line)
        if fence and block is None:
            block = [] if fence.group(2) else False
        elif fence:
            if block is not False:
                blocks.append(block)
            block = None
        elif block is None and re.match(r"#{1,6} ", line):
            levels.append(len(line.split(" ")[0]))
        elif isinstance(block, list):
            block.append(re.sub(r"\s+#.*$", "", line).rstrip())
    return levels, blocks


@pytest.mark.parametrize("english, chinese", TWINS, ids=lambda page: page.name)
def test_a_chinese_page_has_the_english_one_s_sections_and_commands(english, chinese):
    """A learner's page in Chinese is the whole page, not a summary: the same headings, level by
    level, and the same commands and files in its code blocks (their comments translated)."""
    (english_levels, english_blocks), (chinese_levels, chinese_blocks) = _outline(english), _outline(chinese)
    assert chinese_levels == english_levels, f"{chinese.name} has other sections than {english.name}"
    assert chinese_blocks == english_blocks, f"{chinese.name} shows other commands than {english.name}"


# "tensors (21 katas, 57 functions)" / "张量（21 个练习，共 57 个函数）": a lesson's counts, as a page gives them.
# A count may wrap at any space (or, in Chinese, after a comma): it is still a count.
COUNTS = {"en": re.compile(r"\((\d+)\s+katas,\s+(\d+)\s+functions\)"), "zh": re.compile(r"（(\d+)\s*个练习，\s*共\s*(\d+)\s*个函数）")}


def _lesson_counts() -> list[tuple[int, int]]:
    """(katas, functions) of each lesson, in the order of curriculum/lessons.toml."""
    katas, counts = load_curriculum(LAYOUT.curriculum), []
    for lesson in lessons_of(katas):
        mine = [kata for kata in katas if kata.lesson.name == lesson.name]
        counts.append((len(mine), sum(len(kata.functions) for kata in mine)))
    return counts


def test_the_counts_a_page_gives_are_the_curriculum_s():
    """A page that counts a lesson's katas and functions counts them lesson by lesson, from the first,
    in each language: the n-th count it gives is the n-th lesson's. A lesson still growing is better
    left uncounted than counted wrong."""
    lessons = _lesson_counts()
    stated = 0
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for lang, pattern in COUNTS.items():
            counts = [(int(katas), int(functions)) for katas, functions in pattern.findall(text)]
            assert counts == lessons[:len(counts)], f"{page.relative_to(ROOT)} ({lang}) counts {counts}, the lessons have {lessons}"
            stated += len(counts)
    assert stated, "no page counts the katas"


LINK = re.compile(r"\]\(([^)\s]+)\)")


def _github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, spaces to hyphens, punctuation dropped (letters
    of any script, digits, ``-`` and ``_`` kept)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", "")).replace(" ", "-")


def test_the_readme_s_links_reach_a_file_and_its_heading():
    """The README is read on GitHub, outside the site's build (which checks the pages' links): each
    relative link names a file of the project and, with ``#``, one of its headings."""
    for target in LINK.findall((ROOT / "README.md").read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://")):
            continue
        path, _, fragment = target.partition("#")
        assert (ROOT / path).exists(), f"README.md links to {path}, which does not exist"
        if fragment:
            headings = re.findall(r"^#{1,6} (.+)$", (ROOT / path).read_text(encoding="utf-8"), flags=re.M)
            assert fragment in {_github_anchor(heading) for heading in headings}, f"README.md: {path} has no heading #{fragment}"


def test_the_readme_is_a_front_door():
    """What it is, the two set-up commands, grading, and links: the rest lives in docs/."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 300
    assert "## Quick start" in readme   # grade.py's message without PyTorch points there
    assert readme.count(COMMAND) >= 8 and "docs/learner-guide.md" in readme


# The one-line set-ups the pages show: bash/zsh, then PowerShell.
SET_UP = re.compile(r"^(?:python3 -m venv \.venv && |py -3 -m venv \.venv; ).*(?:python grade\.py|pytest selftests.*)$", re.M)
LEARNER_PAGES = ("README.md", "docs/learner-guide.md", "docs/learner-guide.zh.md", "templates/student/README.md")


def _set_ups(page: str) -> tuple[list[str], list[str]]:
    """(the learner's, the contributor's) one-line set-ups that ``page`` shows, in its order."""
    lines = SET_UP.findall((ROOT / page).read_text(encoding="utf-8"))
    return [line for line in lines if line.endswith("python grade.py")], [line for line in lines if "selftests" in line]


def test_every_page_shows_the_same_set_up_commands():
    """The install is shown where each reader looks (the README, the learner's guide in both
    languages, the student template's README, development.md) and is the same command everywhere:
    one for Linux (PyTorch's CPU wheel index), macOS and Windows, so that a fix made on one page
    cannot leave another behind. The contributor's ends with the test command .ci/run runs."""
    learner, contributor = _set_ups("README.md")
    assert len(learner) == len(contributor) == 3, "the README shows a learner's and a contributor's set-up for each system"
    assert "--index-url https://download.pytorch.org/whl/cpu" in learner[0] and "--index-url" not in learner[1] + learner[2]
    for page in LEARNER_PAGES:
        assert _set_ups(page)[0] == learner, f"{page} shows another learner's set-up than the README's"
    assert _set_ups("docs/development.md")[1] == contributor[:1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert all(line.endswith(ci[-1]) for line in contributor), f"the contributor's set-up does not end with .ci/run's `{ci[-1]}`"


@pytest.mark.parametrize("build, page, url, link, expected", [
    ("en", "lesson.md", "lesson/", "[notes](lesson.zh.md)", '<a href="../zh/lesson/">notes</a>'),
    ("en", "index.md", "", "[中文](index.zh.md#lesson1张量)", '<a href="zh/#lesson1张量">中文</a>'),
    ("zh", "lesson.zh.md", "zh/lesson/", "[English](lesson.md)", '<a href="../../lesson/">English</a>'),
    ("en", "lesson.md", "lesson/", "[lesson 2](lesson2.md)", None),          # this build's own page
    ("zh", "lesson2.zh.md", "zh/lesson2/", "[第一课](lesson.zh.md)", None),
    ("zh", "learner-guide.zh.md", "zh/learner-guide/", "[术语表](glossary.md)", None),   # no translation: the fallback
    ("en", "lesson.md", "lesson/", "[gone](gone.zh.md)", None),              # missing: left for mkdocs --strict to reject
])
def test_a_link_to_the_other_language_goes_to_that_language_s_site(build, page, url, link, expected):
    """mkdocs_hooks.py, which the site's build runs (it needs the docs extra: skipped without MkDocs)."""
    pytest.importorskip("mkdocs")
    import mkdocs_hooks

    i18n = Fake(current_language=build, default_language="en", config=Fake(languages=[{"locale": "en"}, {"locale": "zh"}]))
    config = Fake(plugins={"i18n": i18n}, docs_dir=str(ROOT / "docs"))
    rewritten = mkdocs_hooks.on_page_markdown(f"See {link}.", Fake(file=Fake(src_uri=page), url=url), config, None)
    assert rewritten == f"See {expected or link}."
