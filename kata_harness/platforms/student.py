"""The student template (``grade.py release OUT_DIR``), without reference solutions, and its
practice workflow.

``release`` copies the stubs, the kata tests with the answer key, the curriculum, the harness, the
grading command and the project files, adds what ``templates/student/`` holds (the student README,
the practice-feedback workflow ``.github/workflows/classroom.yml``, whose grading step is
``classroom_step``, the devcontainer, a .gitignore), writes the integrity manifest, and then checks
itself: its stubs must score 0 and the reference, copied into a scratch copy's ``katas/``, full
marks.

With the instructor's secret (hidden cases): the template carries a manifest signed with the
secret, never the secret itself and never the hidden key (``tests/hidden_key.dat``, even encrypted,
stays in the project: whoever grades with the hidden cases grades from there, with ``batch``), and
checks that the reference also scores full marks in official grading.

Classroom 50's template is this one without the practice workflow and the manifest
(``for_classroom50``; ``classroom50`` writes its autograder beside it).
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
from pathlib import Path

from ..content.curriculum import cap_hints
from ..judging import answer_key, hidden, integrity
from ..layout import Layout
from .common import SKIPPED, TEMPLATE_FILES, TEMPLATE_FOLDERS, ReleaseError, check_hidden_key, check_target, grade, secret_in

PRACTICE_WORKFLOW = ".github/workflows/classroom.yml"   # in the student extras


def extras(project: Layout) -> Path:
    """What the template adds to the project's files (``templates/student/``): the student README,
    the practice workflow, the devcontainer, a .gitignore."""
    return project.templates / "student"


def check_stubs(project: Layout, key: answer_key.AnswerKey) -> None:
    """Refuse a ``katas/`` that no longer holds the stubs the answer key was frozen with (solved, or
    changed since): the template would hand those files to every student."""
    changed = [path.name for path in sorted(project.katas.glob("k*.py"))
               if path.stem in key.stubs and path.read_text(encoding="utf-8") != key.stubs[path.stem]]
    if changed:
        raise ReleaseError(f"katas/ is not the stubs the answer key holds ({', '.join(changed)} changed): a template "
                           f"would hand them to every student; put the stubs back (`python grade.py reset KATA`, "
                           f"your files are backed up first) or freeze again if the stubs themselves changed")


def release(project: Layout, out: Path, force: bool = False, secret: str | None = None,
            max_hint_level: int | None = None, *, for_classroom50: bool = False, verified: bool = True) -> list[str]:
    """Write the template of ``project`` into ``out`` and verify it; returns what the self-check found wrong.
    ``secret``: the instructor's secret, which signs the manifest (neither it nor the hidden key is copied).
    ``max_hint_level``: the template's curriculum keeps hint levels 1 to N only.
    ``for_classroom50``: without the practice workflow and the manifest (see the module's docstring).
    ``verified=False`` skips the self-check (``verify``: two or three gradings in fresh processes),
    for a caller that checks the files itself or only reads them (the self-tests' shared template);
    the command line always verifies.
    The template is written and checked in a folder beside ``out`` and takes ``out``'s place only
    once it passed: a refusal or a failed check leaves no half-written folder, and a forced release
    leaves what ``out`` held until then."""
    check_target(project, out, force)
    key = answer_key.load(project.answer_key)
    if key is None or key.stale_katas(project.root):
        raise ReleaseError("the answer key is missing or stale: run `python grade.py freeze` first")
    check_hidden_key(project, secret, needed=True)
    check_stubs(project, key)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = out.parent / f".{out.name}.unfinished-{secrets.token_hex(4)}"   # beside out: one rename away
    staging.mkdir()
    try:
        problems = _write_template(project, staging, key, secret, max_hint_level, for_classroom50=for_classroom50,
                                   verified=verified)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if problems:
        shutil.rmtree(staging, ignore_errors=True)
        return problems
    if out.exists():
        shutil.rmtree(out)
    staging.rename(out)
    return []


def _write_template(project: Layout, out: Path, key: answer_key.AnswerKey, secret: str | None,
                    max_hint_level: int | None, *, for_classroom50: bool, verified: bool = True) -> list[str]:
    """Write the template into the empty folder ``out`` and verify it unless told not to (``release``)."""
    for name in TEMPLATE_FILES:
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(project.root / name, out / name)
    for name in TEMPLATE_FOLDERS:
        shutil.copytree(project.root / name, out / name, ignore=SKIPPED)
    (out / Layout.HIDDEN_KEY).unlink(missing_ok=True)   # the hidden cases stay with the instructor
    if extras(project).is_dir():
        shutil.copytree(extras(project), out, dirs_exist_ok=True, ignore=SKIPPED)
    if max_hint_level is not None:
        cap_template_hints(out, key, max_hint_level)
    if for_classroom50:
        (out / PRACTICE_WORKFLOW).unlink()
        _remove_empty_folders(out / ".github")
    else:
        integrity.write_manifest(out, secret)
    return verify(project, out, secret) if verified else []


def _remove_empty_folders(folder: Path) -> None:
    for path in sorted(folder.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        if path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    if folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()


def cap_template_hints(out: Path, key: answer_key.AnswerKey, level: int) -> None:
    """Keep hint levels 1 to ``level`` in the template's curriculum, and write again the answer key,
    which records the curriculum's digests (hints do not change the observations of)."""
    for path in sorted((out / "curriculum").glob("*.toml")):
        cap_hints(path, level)
    capped = answer_key.AnswerKey(**{**key.__dict__, "katas": {kata: answer_key.kata_digest(kata, out)
                                                               for kata in key.katas}})
    answer_key.write(capped, out / "tests" / "answer_key.dat")


def seal_hidden_key(project: Layout, secret: str, root: Path) -> None:
    """Write ``project``'s hidden cases into ``root`` (a scratch copy of a template), bound to its
    answer key: official grading there then runs them as ``batch`` does from the project."""
    payload = hidden.decrypt(secret, project.root)
    hidden.write_key(secret, payload["extras"], payload["observations"], root)


def verify(project: Layout, out: Path, secret: str | None = None) -> list[str]:
    """The template's stubs score 0 against its answer key, and ``project``'s reference scores 100 %,
    in practice and (given the ``secret``) in official grading with the hidden cases too."""
    problems = []
    if (out / "reference").exists():
        problems.append("the template contains reference/")
    if Layout(out).hidden_key.exists():
        problems.append(f"the template contains {Layout.HIDDEN_KEY}")
    fresh = grade(out)
    if fresh["graded_against"] != "answer-key":
        problems.append(f"the template grades against {fresh['graded_against']}, not its answer key")
    if not fresh["integrity"]["ok"]:
        problems.append(f"the template fails its own integrity check: {fresh['integrity']['modified']}")
    if fresh["score"] != 0:
        problems.append(f"the template's stubs score {fresh['score']}/{fresh['max_score']}, not 0")
    problems += _verify_reference(project, out, secret)
    if secret_in(out, secret):
        problems.append("the template contains the secret")
    return problems


def _verify_reference(project: Layout, out: Path, secret: str | None) -> list[str]:
    """The reference, copied into a scratch copy of the template's ``katas/``, scores 100 % there, in
    practice and (given the ``secret``) officially, with the project's hidden cases sealed into the
    copy, as the instructor's own grading runs them."""
    problems = []
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "template"
        shutil.copytree(out, copy)
        for path in project.reference.glob("*.py"):
            shutil.copy2(path, copy / "katas" / path.name)
        solved = grade(copy)
        if solved["score"] != solved["max_score"]:
            failing = [f"{k['kata']}.{f['name']}" for k in solved["katas"] for f in k["functions"]
                       if f["status"] != "passed"]
            problems.append(f"the reference scores {solved['score']}/{solved['max_score']} in the template: {failing}")
        if secret:
            if project.hidden_key.exists():
                seal_hidden_key(project, secret, copy)   # the instructor's hidden cases, which the template never holds
            official = grade(copy, secret=secret)
            if not official.get("official") or official["score"] != official["max_score"]:
                problems.append(f"the reference scores {official['score']}/{official['max_score']} in the template's "
                                f"official grading")
    return problems
