"""``grade.py release``: the student template, without reference solutions, and the graders of the
platforms classes run on.

``release OUT_DIR`` copies the stubs, the kata tests with the answer key, the curriculum, the
harness, the grading command and the project files, adds what ``templates/student/`` holds (the
student README, the practice-feedback workflow ``.github/workflows/classroom.yml``, the
devcontainer, a .gitignore), writes the integrity manifest, and then checks itself: its stubs must
score 0 and the reference, copied into a scratch copy's ``katas/``, full marks.

``release --gradescope ZIP`` writes the autograder zip that Gradescope builds its image from:
``setup.sh``, ``run_autograder`` and ``grade_submission.py`` (``templates/gradescope/``) at
its root, beside the project with its reference (instructors upload it; students never see
it). It checks itself too: run on a simulated tree, it gives the reference full marks.

``release --classroom50 OUT_DIR`` writes ``OUT_DIR/template/`` (the assignment's template
repository: the student template without the practice workflow, whose place Classroom 50's own
takes, and without a manifest, since the autograder grades with its own copy of the grading files)
and ``OUT_DIR/autograder/`` (what goes to ``CLASSROOM/autograders/ASSIGNMENT/`` in the Classroom 50
repository, which publishes it on GitHub Pages: ``autograder.py`` from ``templates/classroom50/``
beside the template's grading files; no reference, hidden key or secret; at most 10 MB packed).
It checks itself by running the autograder as Classroom 50's runner does, on the reference.

``release --codio DIR`` writes what goes into a Codio assignment's ``.guides/secure/`` folder
(which students never get): ``codio_grade.py`` from ``templates/codio/`` beside the project with
its reference (and the secret). It checks itself on a simulated Codio workspace.

Every grader gets ``pins.txt`` (``templates/pins.txt``: the one list of the versions every platform
installs) beside its scripts, which install from it.

With the instructor's secret (hidden cases): the template carries a manifest signed with the
secret, never the secret itself and never the hidden key (``tests/hidden_key.dat``, even encrypted,
stays in this project: whoever grades with the hidden cases grades from here, with ``batch``), and
checks that the reference also scores full marks in official grading; the Gradescope zip and the
Codio folder carry the secret in ``kata_secret``, which their scripts pass to grade.py as
``--secret-file``.
"""

from __future__ import annotations

import io
import json
import os
import secrets
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

from ..content.curriculum import cap_hints, load_curriculum
from ..judging import answer_key, hidden, integrity
from ..layout import LAYOUT, ROOT, Layout

COPIED_FILES = ("grade.py", "conftest.py", "pyproject.toml")
COPIED_FOLDERS = ("katas", "tests", "kata_harness", "curriculum", "docs")
STUDENT_EXTRAS = LAYOUT.templates / "student"
PRACTICE_WORKFLOW = ".github/workflows/classroom.yml"   # in STUDENT_EXTRAS
GRADESCOPE_EXTRAS = LAYOUT.templates / "gradescope"
CLASSROOM50_EXTRAS = LAYOUT.templates / "classroom50"
CODIO_EXTRAS = LAYOUT.templates / "codio"
PINS = LAYOUT.templates / "pins.txt"   # the versions every platform installs; beside each grader's scripts
# What an instructor-side grader grades with: the project as the template has it, plus the reference.
GRADER_FILES = ("grade.py", "conftest.py", "pyproject.toml", "README.md")
GRADER_FOLDERS = COPIED_FOLDERS + ("reference",)
EXECUTABLE = ("setup.sh", "run_autograder")
SECRET_FILE = "kata_secret"    # in the zip and the Codio folder: the instructor's secret, for --secret-file
# What Classroom 50's autograder grades with, taken from the released template: no reference, no hidden key.
CLASSROOM50_FILES = ("grade.py",)
CLASSROOM50_FOLDERS = ("katas", "tests", "kata_harness", "curriculum")
CLASSROOM50_PACKED_LIMIT = 10 * 1024 * 1024   # bytes: Classroom 50's runner fetches no larger bundle
_SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")


class ReleaseError(Exception):
    """A release that must not (or did not) happen; the message says why."""


def check_target(out: Path, force: bool) -> None:
    """Refuse targets that would touch the instructor's own files, and non-empty ones unless forced."""
    out = out.resolve()
    root = ROOT.resolve()
    if out == root or out in root.parents:
        raise ReleaseError(f"{out} holds this project itself; choose a folder outside it")
    protected = [root / name for name in ("katas", "reference", "tests", "kata_harness", "curriculum", "selftests",
                                          "templates", ".git")]
    if any(out == p or p in out.parents for p in protected):
        raise ReleaseError(f"{out} is inside this project's own files; choose another folder")
    if out == Path.home().resolve() or out == Path(out.anchor):
        raise ReleaseError(f"refusing to release into {out}")
    if out.exists() and not out.is_dir():
        raise ReleaseError(f"{out} exists and is not a folder")
    if out.exists() and any(out.iterdir()) and not force:
        raise ReleaseError(f"{out} is not empty; pass --force to replace its contents")


def check_hidden_key(secret: str | None, *, needed: bool) -> None:
    """Refuse a hidden key that belongs to another answer key or that ``secret`` does not open,
    a hidden key without its secret, and (``needed``) a secret without a hidden key."""
    exists = LAYOUT.hidden_key.exists()
    if exists and secret is None:
        raise ReleaseError(f"{Layout.HIDDEN_KEY} exists: release with the secret it was frozen with "
                           f"(KATA_SECRET=... or --secret-file), which official grading needs")
    if secret is not None and not exists and needed:
        raise ReleaseError(f"a secret was given but there is no {Layout.HIDDEN_KEY}: run "
                           f"`KATA_SECRET=... python grade.py freeze` first")
    if exists:
        assert secret is not None   # refused above otherwise
        try:
            hidden.decrypt(secret, ROOT)
        except hidden.HiddenKeyError as problem:
            why = "the secret does not open it" if problem.key == "error.secret_wrong" else "it is out of date"
            raise ReleaseError(f"{Layout.HIDDEN_KEY}: {why}; run `KATA_SECRET=... python grade.py freeze`") \
                from None


def check_stubs(key: answer_key.AnswerKey) -> None:
    """Refuse a ``katas/`` that no longer holds the stubs the answer key was frozen with (solved, or
    changed since): the template would hand those files to every student."""
    changed = [path.name for path in sorted(LAYOUT.katas.glob("k*.py"))
               if path.stem in key.stubs and path.read_text(encoding="utf-8") != key.stubs[path.stem]]
    if changed:
        raise ReleaseError(f"katas/ is not the stubs the answer key holds ({', '.join(changed)} changed): a template "
                           f"would hand them to every student; put the stubs back (`python grade.py reset KATA`, "
                           f"your files are backed up first) or freeze again if the stubs themselves changed")


def release(out: Path, force: bool = False, secret: str | None = None, max_hint_level: int | None = None, *,
            for_classroom50: bool = False, verified: bool = True) -> list[str]:
    """Write the template into ``out`` and verify it; returns what the self-check found wrong.
    ``secret``: the instructor's secret, which signs the manifest (neither it nor the hidden key is copied).
    ``max_hint_level``: the template's curriculum keeps hint levels 1 to N only.
    ``for_classroom50``: without the practice workflow and the manifest (see the module's docstring).
    ``verified=False`` skips the self-check (``verify``: two or three gradings in fresh processes),
    for a caller that checks the files itself or only reads them (the self-tests' shared template);
    the command line always verifies.
    The template is written and checked in a folder beside ``out`` and takes ``out``'s place only
    once it passed: a refusal or a failed check leaves no half-written folder, and a forced release
    leaves what ``out`` held until then."""
    check_target(out, force)
    key = answer_key.load(LAYOUT.answer_key)
    if key is None or key.stale_katas(ROOT):
        raise ReleaseError("the answer key is missing or stale: run `python grade.py freeze` first")
    check_hidden_key(secret, needed=True)
    check_stubs(key)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = out.parent / f".{out.name}.unfinished-{secrets.token_hex(4)}"   # beside out: one rename away
    staging.mkdir()
    try:
        problems = _write_template(staging, key, secret, max_hint_level, for_classroom50=for_classroom50,
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


def _write_template(out: Path, key: answer_key.AnswerKey, secret: str | None, max_hint_level: int | None, *,
                    for_classroom50: bool, verified: bool = True) -> list[str]:
    """Write the template into the empty folder ``out`` and verify it unless told not to (``release``)."""
    for name in COPIED_FILES:
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, out / name)
    for name in COPIED_FOLDERS:
        shutil.copytree(ROOT / name, out / name, ignore=_SKIPPED)
    (out / Layout.HIDDEN_KEY).unlink(missing_ok=True)   # the hidden cases stay with the instructor
    if STUDENT_EXTRAS.is_dir():
        shutil.copytree(STUDENT_EXTRAS, out, dirs_exist_ok=True, ignore=_SKIPPED)
    if max_hint_level is not None:
        cap_template_hints(out, key, max_hint_level)
    if for_classroom50:
        (out / PRACTICE_WORKFLOW).unlink()
        _remove_empty_folders(out / ".github")
    else:
        integrity.write_manifest(out, secret)
    return verify(out, secret) if verified else []


def _remove_empty_folders(folder: Path) -> None:
    for path in sorted(folder.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        if path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    if folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()


def cap_template_hints(out: Path, key: answer_key.AnswerKey, level: int, secret: str | None = None) -> None:
    """Keep hint levels 1 to ``level`` in the template's curriculum, and write again the answer key,
    which records the curriculum's digests (hints do not change the observations of). ``secret``:
    unused (the template holds no hidden key to re-seal); kept for callers."""

    for path in sorted((out / "curriculum").glob("*.toml")):
        cap_hints(path, level)
    capped = answer_key.AnswerKey(**{**key.__dict__, "katas": {kata: answer_key.kata_digest(kata, out)
                                                               for kata in key.katas}})
    answer_key.write(capped, out / "tests" / "answer_key.dat")


def seal_hidden_key(secret: str, root: Path) -> None:
    """Write this project's hidden cases into ``root`` (a scratch copy of a template), bound to its
    answer key: official grading there then runs them as ``batch`` does from this project."""
    payload = hidden.decrypt(secret, ROOT)
    hidden.write_key(secret, payload["extras"], payload["observations"], root)


def _environment(secret: str | None = None) -> dict:
    """This process's environment with ``KATA_SECRET`` set to ``secret``, or without it (practice)."""
    environment = {k: v for k, v in os.environ.items() if k != integrity.SECRET_VARIABLE}
    return {**environment, integrity.SECRET_VARIABLE: secret} if secret else environment


def _grade(root: Path, *args: str, secret: str | None = None) -> dict:
    done = subprocess.run([sys.executable, str(root / "grade.py"), "--format", "json", *args],
                          capture_output=True, text=True, cwd=root, timeout=600, env=_environment(secret))
    if done.returncode != 0:
        raise ReleaseError(f"grade.py failed in {root}: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout)


def verify(out: Path, secret: str | None = None) -> list[str]:
    """The template's stubs score 0 against its answer key, and the reference scores 100 %, in
    practice and (given the ``secret``) in official grading with the hidden cases too."""
    problems = []
    if (out / "reference").exists():
        problems.append("the template contains reference/")
    if Layout(out).hidden_key.exists():
        problems.append(f"the template contains {Layout.HIDDEN_KEY}")
    fresh = _grade(out)
    if fresh["graded_against"] != "answer-key":
        problems.append(f"the template grades against {fresh['graded_against']}, not its answer key")
    if not fresh["integrity"]["ok"]:
        problems.append(f"the template fails its own integrity check: {fresh['integrity']['modified']}")
    if fresh["score"] != 0:
        problems.append(f"the template's stubs score {fresh['score']}/{fresh['max_score']}, not 0")
    problems += _verify_reference(out, secret)
    if _secret_in(out, secret):
        problems.append("the template contains the secret")
    return problems


def _verify_reference(out: Path, secret: str | None) -> list[str]:
    """The reference, copied into a scratch copy of the template's ``katas/``, scores 100 % there, in
    practice and (given the ``secret``) officially, with this project's hidden cases sealed into the
    copy, as the instructor's own grading runs them."""
    problems = []
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "template"
        shutil.copytree(out, copy)
        for path in LAYOUT.reference.glob("*.py"):
            shutil.copy2(path, copy / "katas" / path.name)
        solved = _grade(copy)
        if solved["score"] != solved["max_score"]:
            failing = [f"{k['kata']}.{f['name']}" for k in solved["katas"] for f in k["functions"]
                       if f["status"] != "passed"]
            problems.append(f"the reference scores {solved['score']}/{solved['max_score']} in the template: {failing}")
        if secret:
            if LAYOUT.hidden_key.exists():
                seal_hidden_key(secret, copy)   # the instructor's hidden cases, which the template never holds
            official = _grade(copy, secret=secret)
            if not official.get("official") or official["score"] != official["max_score"]:
                problems.append(f"the reference scores {official['score']}/{official['max_score']} in the template's "
                                f"official grading")
    return problems


def _tree_entries(root: Path, files: tuple, folders: tuple) -> dict:
    """{relative name: file} of ``files`` and every file in ``folders`` under ``root`` (no bytecode)."""
    entries = {name: root / name for name in files}
    for folder in folders:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                entries[path.relative_to(root).as_posix()] = path
    return entries


def _grader_entries(extras: Path) -> dict:
    """{name: file} of an instructor-side grader: the platform's scripts (``extras``) at the root,
    then the project with its reference."""
    entries = {path.name: path for path in sorted(extras.iterdir()) if path.is_file()}
    entries["pins.txt"] = PINS
    entries.update(_tree_entries(ROOT, GRADER_FILES, GRADER_FOLDERS))
    return entries


def _check_outside_project(path: Path, what: str) -> None:
    """Refuse a grader written into this project's own files."""
    root = ROOT.resolve()
    if any(path.is_relative_to(root / name) for name in GRADER_FOLDERS + ("selftests", "templates", ".git")):
        raise ReleaseError(f"{path} is inside this project's own files; choose another place for {what}")


def _add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    """One file, with Unix permissions that let Gradescope run the two scripts."""
    entry = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    entry.external_attr = (0o100755 if name in EXECUTABLE else 0o100644) << 16
    entry.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(entry, data)


def gradescope_release(zip_path: Path, *, force: bool = False, visibility: str = "visible",
                       lang: str = "en", secret: str | None = None) -> list[str]:
    """Write Gradescope's autograder zip to ``zip_path`` and verify it; returns what the check found wrong.

    ``visibility`` and ``lang`` go into its ``gradescope.json``: when students see their results,
    and the language of the feedback. ``secret`` goes into ``kata_secret``: the autograder then
    grades the hidden cases too, against the reference."""
    zip_path = zip_path.resolve()
    if zip_path.suffix != ".zip":
        raise ReleaseError(f"{zip_path} does not end in .zip")
    _check_outside_project(zip_path, "the zip")
    if zip_path.exists() and not (force and zip_path.is_file()):
        raise ReleaseError(f"{zip_path} exists; pass --force to replace it")
    if not LAYOUT.reference.is_dir():
        raise ReleaseError("there is no reference/ folder: the autograder grades with it")
    check_hidden_key(secret, needed=False)
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    partial = zip_path.with_name(zip_path.name + ".partial")
    with zipfile.ZipFile(partial, "w") as archive:
        for name, path in _grader_entries(GRADESCOPE_EXTRAS).items():
            _add(archive, name, path.read_bytes())
        _add(archive, "gradescope.json", json.dumps({"visibility": visibility, "lang": lang}, indent=1).encode())
        if secret:
            _add(archive, SECRET_FILE, secret.encode() + b"\n")
    partial.replace(zip_path)
    return verify_gradescope(zip_path)


def verify_gradescope(zip_path: Path) -> list[str]:
    """Run the zip's grade_submission.py on a simulated /autograder whose submission is the
    reference: it must write a results.json with full marks."""
    with tempfile.TemporaryDirectory() as scratch:
        tree = Path(scratch)
        with zipfile.ZipFile(zip_path) as archive:
            archive.extractall(tree / "source")
            names = set(archive.namelist())
        problems = [f"the zip has no {name} at its root" for name in EXECUTABLE if name not in names]
        shutil.copytree(LAYOUT.reference, tree / "submission" / "katas",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        # Without KATA_SECRET in the environment: the zip's own kata_secret must do.
        subprocess.run([sys.executable, str(tree / "source" / "grade_submission.py")], cwd=tree, timeout=900,
                       env={**_environment(), "AUTOGRADER_ROOT": str(tree)}, capture_output=True)
        try:
            results = json.loads((tree / "results" / "results.json").read_text(encoding="utf-8"))
            earned, possible = results["score"], sum(test["max_score"] for test in results["tests"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            return problems + [f"the autograder wrote no readable results.json ({error})"]
        if not possible or earned != possible:
            failing = [test["name"] for test in results["tests"] if test["score"] != test["max_score"]]
            problems.append(f"the reference scores {earned}/{possible} in the autograder: {failing}")
    return problems



def _release_folder(out: Path, force: bool) -> None:
    """An empty ``out`` (replaced only with ``force``), outside this project's own files."""
    check_target(out, force)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)


def _secret_in(folder: Path, secret: str | None) -> bool:
    """Whether any file under ``folder`` holds ``secret``."""
    if not secret:
        return False
    return any(secret.encode() in path.read_bytes() for path in folder.rglob("*") if path.is_file())


def packed_size(folder: Path) -> int:
    """The size of ``folder`` as Classroom 50 publishes it: one .tar.gz (``tar -czf``)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        archive.add(folder, arcname="assignment")
    return len(buffer.getvalue())


def classroom50_release(out: Path, *, force: bool = False, secret: str | None = None,
                        max_hint_level: int | None = None, lang: str = "en") -> list[str]:
    """Write ``out/template`` and ``out/autograder`` for Classroom 50 and verify both; returns what
    the checks found wrong. ``lang``: the language of the learner's report."""
    _release_folder(out, force)
    problems = release(out / "template", secret=secret, max_hint_level=max_hint_level, for_classroom50=True)
    if problems:
        return problems
    bundle = out / "autograder"
    bundle.mkdir()
    entries = {path.name: path for path in sorted(CLASSROOM50_EXTRAS.iterdir()) if path.is_file()}
    entries["pins.txt"] = PINS   # autograder.py installs from it
    entries.update(_tree_entries(out / "template", CLASSROOM50_FILES, CLASSROOM50_FOLDERS))
    entries.pop(Layout.HIDDEN_KEY, None)   # hidden checks are for the instructor's side
    for name, path in entries.items():
        (bundle / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, bundle / name)
    (bundle / "classroom50.json").write_text(json.dumps({"lang": lang}) + "\n")
    return verify_classroom50(out, secret)


def classroom50_environment(checkout: Path, bundle: Path) -> dict:
    """The environment Classroom 50's runner gives autograder.py for a submission of ``checkout``
    (``runner.py``: its identity variables, ``CLASSROOM50_BUNDLE_DIR``), without the secret."""
    repository = "katas-org/katas-practice-student"
    commit = f"https://github.com/{repository}/commit/0123456789abcdef0123456789abcdef01234567"
    return {**_environment(), "CLASSROOM": "katas", "ASSIGNMENT": "practice", "SUBMISSION_TAG":
            "submit/2026-09-01T12-00-00Z-0123456", "PAGES_BASE_URL": "https://katas-org.github.io/classroom50",
            "GITHUB_REPOSITORY": repository, "GITHUB_WORKSPACE": str(checkout), "USERNAME": "student",
            "OWNER": "student", "ASSIGNMENT_TYPE": "individual", "COMMIT_URL": commit, "REVIEW_URL": commit,
            "RELEASE_URL": f"https://github.com/{repository}/releases/tag/submit%2F2026-09-01T12-00-00Z-0123456",
            "CLASSROOM50_BUNDLE_DIR": str(bundle)}


def verify_classroom50(out: Path, secret: str | None = None) -> list[str]:
    """The autograder holds no reference, hidden key or secret, packs within Classroom 50's limit,
    and, run as Classroom 50's runner runs it on a checkout of the template holding the reference,
    exits 0 with a result.json giving full marks, one test per function."""
    bundle, problems = out / "autograder", []
    if (bundle / "reference").exists() or Layout(bundle).hidden_key.exists() or _secret_in(bundle, secret):
        problems.append("the Classroom 50 autograder holds the reference, the hidden key or the secret")
    if (out / "template" / PRACTICE_WORKFLOW).exists() or _secret_in(out / "template", secret):
        problems.append("the Classroom 50 template holds the practice workflow or the secret")
    if packed_size(bundle) > CLASSROOM50_PACKED_LIMIT:
        problems.append(f"the Classroom 50 autograder packs to {packed_size(bundle)} bytes, more than "
                        f"{CLASSROOM50_PACKED_LIMIT}")
    with tempfile.TemporaryDirectory() as scratch:
        runtime, checkout = Path(scratch) / "runtime" / "practice", Path(scratch) / "checkout"
        shutil.copytree(bundle, runtime)
        shutil.copytree(out / "template", checkout)
        for path in LAYOUT.reference.glob("k*.py"):
            shutil.copy2(path, checkout / "katas" / path.name)
        done = subprocess.run([sys.executable, str(runtime / "autograder.py")], cwd=checkout, capture_output=True,
                              text=True, timeout=1200, env=classroom50_environment(checkout, runtime))
        try:
            result = json.loads((checkout / "result.json").read_text(encoding="utf-8"))
            earned, possible, tests = result["score"], result["max-score"], result["tests"]
        except (OSError, ValueError, KeyError, TypeError) as error:
            return problems + [f"the Classroom 50 autograder wrote no readable result.json ({error}): "
                               f"{done.stderr.strip()[-500:]}"]
        functions = sum(len(kata.functions) for kata in load_curriculum(LAYOUT.curriculum))
        if done.returncode != 0 or result.get("schema") != "classroom50/result/v1" or len(tests) != functions \
                or not possible or earned != possible:
            problems.append(f"the reference scores {earned}/{possible} in the Classroom 50 autograder "
                            f"(exit status {done.returncode}, {len(tests)} tests for {functions} functions)")
    return problems


def codio_release(folder: Path, *, force: bool = False, lang: str = "en", secret: str | None = None) -> list[str]:
    """Write the content of a Codio assignment's ``.guides/secure/`` folder into ``folder`` and verify
    it; returns what the check found wrong."""
    folder = folder.resolve()
    _check_outside_project(folder, "the Codio folder")
    if not LAYOUT.reference.is_dir():
        raise ReleaseError("there is no reference/ folder: the Codio grader grades with it")
    check_hidden_key(secret, needed=False)
    _release_folder(folder, force)
    for name, path in _grader_entries(CODIO_EXTRAS).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, folder / name)
    (folder / "codio.json").write_text(json.dumps({"lang": lang}) + "\n")
    if secret:
        (folder / SECRET_FILE).write_text(secret + "\n")
    return verify_codio(folder)


def verify_codio(folder: Path) -> list[str]:
    """Run the folder's codio_grade.py as a Codio code test would, on a simulated workspace whose
    katas are the reference: it must report 100 percent."""
    with tempfile.TemporaryDirectory() as scratch:
        workspace = Path(scratch) / "workspace"
        shutil.copytree(folder, workspace / ".guides" / "secure", ignore=_SKIPPED)
        shutil.copytree(LAYOUT.reference, workspace / "katas", ignore=_SKIPPED)
        done = subprocess.run([sys.executable, str(workspace / ".guides" / "secure" / "codio_grade.py")],
                              cwd=workspace, capture_output=True, text=True, timeout=1200,
                              env={**{k: v for k, v in _environment().items() if not k.startswith("CODIO_")},
                                   # The reference is trusted: this check may run where bubblewrap cannot.
                                   "KATA_CODIO_CHECK": "trusted-reference"})
    reported = [line for line in done.stdout.splitlines() if line.startswith("codio: points=")]
    if done.returncode != 0 or reported != ["codio: points=100"]:
        return [f"the Codio grader reports {reported or 'nothing'} for the reference (exit status {done.returncode}): "
                f"{(done.stdout + done.stderr).strip()[-500:]}"]
    return []
