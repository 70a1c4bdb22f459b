"""MkDocs hook: a link names the page of the language its file name says.

The documentation is written so that it also reads as plain files (on GitHub, in a student
template): a page links ``lesson.zh.md`` when it means the Chinese notes and ``lesson.md`` when it
means the English ones. mkdocs-static-i18n builds each language on its own, so in the English build
``lesson.zh.md`` is not among the documentation files, and in the Chinese build ``lesson.md`` is
the Chinese page. This hook turns such a link into a link to that page in the other language's
build, and only when the file exists: a link to a missing page is left as written, for
``mkdocs build --strict`` to reject.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from mkdocs.utils import get_relative_url

# [text](target) and [text](target#anchor), where the target is a relative .md file.
LINK = re.compile(r"\[(?P<text>[^\]]+)\]\((?P<target>[^)\s#:]+\.md)(?P<anchor>#[^)\s]*)?\)")


def _build_language(config) -> tuple[str, str]:
    """(the language being built, the default language) as mkdocs-static-i18n set them."""
    i18n = config.plugins["i18n"]
    return i18n.current_language, i18n.default_language


def _language_of(src_uri: str, languages: set[str], default: str) -> tuple[str, str]:
    """(the language a file name says, the page's name without it): lesson.zh.md -> (zh, lesson.md)."""
    stem, _, _ = src_uri.rpartition(".md")
    base, dot, suffix = stem.rpartition(".")
    if dot and suffix in languages:
        return suffix, base + ".md"
    return default, src_uri


def _url_in(language: str, default: str, page_uri: str) -> str:
    """The site URL of ``page_uri`` (without a language suffix) in ``language``'s build."""
    path = page_uri[: -len(".md")]
    path = "" if path == "index" else path.removesuffix("/index") + "/"
    return path if language == default else f"{language}/{path}"


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Point each link to a page of another language at that language's build."""
    current, default = _build_language(config)
    languages = {language["locale"] for language in config.plugins["i18n"].config.languages}
    docs = Path(config.docs_dir)
    here = posixpath.dirname(page.file.src_uri)

    def rewrite(match: re.Match) -> str:
        target = posixpath.normpath(posixpath.join(here, match["target"]))
        language, page_uri = _language_of(target, languages, default)
        if language == current or not (docs / target).is_file():
            return match[0]   # this build's own page, or a missing one: mkdocs resolves (or rejects) it
        if language == default and not (docs / f"{page_uri[:-3]}.{current}.md").is_file():
            return match[0]   # a page with no translation: this build's fallback copy of it
        url = get_relative_url(_url_in(language, default, page_uri), page.url or ".")
        return f'<a href="{url}{match["anchor"] or ""}">{match["text"]}</a>'

    return LINK.sub(rewrite, markdown)
