"""Deadline grading reads a student's git repository as data: nothing in it runs, nothing outside it
is read, and nothing in it makes the grader wait.

Each attack is shown twice: working against ordinary git on the same repository (else the test
would prove nothing), and failing against what ``grade.py batch --at`` reads (``batch.collect``,
which is where a submission's kata files come from; no kata is graded here, so no torch).
"""

import os
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from kata_harness.batch import engine as batch
from kata_harness.content.curriculum import load_curriculum
from kata_harness.isolation import repository
from kata_harness.layout import LAYOUT
from selftests.gradekit import ROOT

pytestmark = [pytest.mark.skipif(shutil.which("git") is None, reason="needs git"),
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="FIFOs and POSIX links")]

KATAS = {kata.name for kata in load_curriculum(LAYOUT.curriculum)}
TAG = "submit/2026-11-30T11-00-00Z-a"
PLAIN_GIT_WAIT = 2.0    # seconds ordinary git is given before it counts as waiting forever


def _git(folder: Path, *args: str, check: bool = True, timeout: float = 60) -> subprocess.CompletedProcess:
    """Ordinary git, as a user would run it in ``folder`` (the repository's own configuration applies)."""
    environment = {**os.environ, "GIT_AUTHOR_NAME": "s", "GIT_AUTHOR_EMAIL": "s@example.invalid",
                   "GIT_COMMITTER_NAME": "s", "GIT_COMMITTER_EMAIL": "s@example.invalid",
                   "GIT_AUTHOR_DATE": "2026-11-30T11:00:00Z", "GIT_COMMITTER_DATE": "2026-11-30T11:00:00Z"}
    return subprocess.run(["git", *args], cwd=folder, check=check, capture_output=True, env=environment,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def _repository(folder: Path, source: Path) -> str:
    """A repository in ``folder`` with one commit of ``source``'s kata files, tagged ``TAG``; its commit."""
    folder.mkdir(parents=True)
    _git(folder, "init", "-q", "-b", "main")
    shutil.copytree(source, folder / "katas")
    _git(folder, "add", "-A")
    _git(folder, "commit", "-qm", "work")
    _git(folder, "tag", TAG)
    return _git(folder, "rev-parse", "HEAD").stdout.decode().strip()


def _read(subs: Path, name: str) -> batch.Submission:
    """The submission ``name`` as ``batch --at 'submit/*'`` reads it."""
    found = {s.name: s for s in batch.collect(subs, KATAS, "submit/*")}
    return found[name]


def _refused(submission: batch.Submission, *words: str) -> None:
    """Nothing of the submission is graded (a 0 row) and its note says why."""
    assert submission.files is None, submission.notes
    notes = "; ".join(submission.notes)
    assert all(word in notes for word in words), notes
    row = batch.row_for(submission, [f for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions], None)
    assert row["score"] == 0 and notes in row["notes"]


def test_a_promisor_remote_never_runs_and_a_missing_object_is_never_fetched(tmp_path):
    """A supplied ``.git`` claims to be a partial clone whose promisor remote's ``uploadpack`` is a
    shell command, and one blob is missing: ordinary git runs that command to fetch the blob; the
    grader reads only the objects present, and the missing one is a note."""
    subs = tmp_path / "download"
    server = tmp_path / "server"
    _repository(server, ROOT / "reference")
    mallory = subs / "mallory"
    _repository(mallory, ROOT / "reference")
    blob = _git(mallory, "rev-parse", f"{TAG}:katas/k01_creation.py").stdout.decode().strip()
    (mallory / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    marker = tmp_path / "uploadpack-ran"
    with (mallory / ".git" / "config").open("a") as config:
        config.write(f'[remote "origin"]\n\turl = {server}\n\tpromisor = true\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n'
                     f"\tuploadpack = touch {marker}; git-upload-pack\n[extensions]\n\tpartialClone = origin\n")
    _git(mallory, "config", "core.repositoryformatversion", "1")
    _git(mallory, "cat-file", "-p", blob, check=False)
    if not marker.exists():
        pytest.skip("this git does not fetch a promised object on demand: the attack has nothing to show")
    marker.unlink()
    (mallory / ".git" / "objects" / blob[:2] / blob[2:]).unlink(missing_ok=True)   # fetched: missing again

    submission = _read(subs, "mallory")
    assert not marker.exists(), "the grader's git ran the repository's uploadpack"
    _refused(submission, "cat-file")


def test_objects_and_refs_linked_into_a_classmates_clone_are_not_followed(tmp_path):
    """A real ``.git`` folder whose ``objects`` and ``refs`` are symbolic links into a classmate's
    clone: ordinary git finds the classmate's submit tag; the grader gives a 0 row with a note. The
    same for a link deeper down (``objects/pack``) and for ``packed-refs``."""
    subs = tmp_path / "download"
    alice = subs / "alice"
    commit = _repository(alice, ROOT / "reference")
    _git(alice, "repack", "-adq")
    _git(alice, "pack-refs", "--all")
    variants = {"mallory-top": ("objects", "refs", "packed-refs"), "mallory-pack": ("objects/pack", "packed-refs")}
    for name, linked in variants.items():
        git = subs / name / ".git"
        git.mkdir(parents=True)
        (git / "HEAD").write_text("ref: refs/heads/main\n")
        for path in ("objects", "objects/info", "refs"):
            if path not in linked and not any(path.startswith(link + "/") for link in linked):
                (git / path).mkdir(parents=True, exist_ok=True)
        for path in linked:
            (git / path).symlink_to(alice / ".git" / path)
        found = _git(subs / name, "rev-parse", f"{TAG}^{{commit}}", check=False).stdout.decode().strip()
        assert found == commit, f"{name}: ordinary git did not follow the links ({found!r})"

    assert _read(subs, "alice").files, _read(subs, "alice").notes
    _refused(_read(subs, "mallory-top"), ".git/objects is a symbolic link")
    _refused(_read(subs, "mallory-pack"), ".git/objects/pack is a symbolic link")


@pytest.mark.parametrize("where", ["packed-refs", "objects/info/commit-graph", "objects/pack/pack-0.idx", "HEAD",
                                   "refs/tags/submit/late", "config"])
def test_a_fifo_where_git_reads_is_a_note_never_a_wait(where, tmp_path):
    """A FIFO anywhere git (or the grader) would open: a note and a 0 row at once."""
    subs = tmp_path / "download"
    mallory = subs / "mallory"
    _repository(mallory, ROOT / "reference")
    target = mallory / ".git" / where
    target.parent.mkdir(parents=True, exist_ok=True)
    target.unlink(missing_ok=True)
    os.mkfifo(target)
    _refused(_read(subs, "mallory"), "is a FIFO")


def test_ordinary_git_waits_on_a_fifo_that_the_grader_never_opens(tmp_path):
    """The primitive: ordinary git opens ``packed-refs`` and the files its configuration includes,
    and waits on a FIFO there for ever. The grader does not: a FIFO ``packed-refs`` is refused at
    once, and an ``include.path`` naming a FIFO outside the submission is never read (the
    repository's configuration is not git's, so the submission is graded as committed)."""
    subs = tmp_path / "download"
    fifo = tmp_path / "outside.fifo"
    os.mkfifo(fifo)
    includer = subs / "includer"
    _repository(includer, ROOT / "reference")
    _git(includer, "config", "include.path", str(fifo))
    with pytest.raises(subprocess.TimeoutExpired):
        _git(includer, "rev-parse", "HEAD", timeout=PLAIN_GIT_WAIT)

    read = _read(subs, "includer")
    assert read.files and len(read.files) == len(KATAS), read.notes
    assert f"tag {TAG}" in "; ".join(read.notes)


def test_the_view_holds_no_configuration_of_the_repository(tmp_path):
    """What git runs on is the grader's own folder: its configuration names no remote, no
    promisor, no program and no other file, whatever the repository's holds."""
    folder = tmp_path / "repo"
    _repository(folder, ROOT / "katas")
    _git(folder, "config", "core.fsmonitor", "touch /tmp/kata-never-run")
    _git(folder, "config", "remote.origin.url", "ext::sh -c 'touch /tmp/kata-never-run'")
    with repository._viewed(repository.git_dir(folder)) as view:
        config = (view.folder / "config").read_text()
        listed = view.git("config", "--list").decode()
    assert "kata-never-run" not in config + listed and "remote." not in listed and "include" not in listed
    assert "protocol.allow=never" in listed


# --- every object git gives is checked against its name (issue: trust, round 4, item 2) -------------

def _forged(repo: Path, name: str, kind: str, content: bytes) -> None:
    """Store ``content`` as the loose object ``name`` (a ``kind``), in place of what that name holds."""
    path = repo / ".git" / "objects" / name[:2] / name[2:]
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.chmod(0o644)   # git writes loose objects read-only
    path.write_bytes(zlib.compress(f"{kind} {len(content)}\0".encode() + content))


def _stubs_then_solutions(folder: Path, *init: str) -> tuple[str, str]:
    """A repository whose commit tagged ``TAG`` holds the stubs and whose next commit (made after the
    deadline) the reference's files: (the stubs' commit, the solutions')."""
    folder.mkdir(parents=True)
    _git(folder, "init", "-q", "-b", "main", *init)
    shutil.copytree(ROOT / "katas", folder / "katas")
    _git(folder, "add", "-A")
    _git(folder, "commit", "-qm", "stubs")
    _git(folder, "tag", TAG)
    stubs = _git(folder, "rev-parse", "HEAD").stdout.decode().strip()
    shutil.copytree(ROOT / "reference", folder / "katas", dirs_exist_ok=True)
    _git(folder, "add", "-A")
    _git(folder, "commit", "-qm", "solutions, late")
    return stubs, _git(folder, "rev-parse", "HEAD").stdout.decode().strip()


@pytest.mark.parametrize(("forged", "object_format"), [("blob", "sha1"), ("tree", "sha1"), ("commit", "sha1"),
                                                       ("blob", "sha256")])
def test_an_object_stored_under_another_objects_name_is_refused(forged, object_format, tmp_path):
    """The stubs' commit is the submission (its tag, or the record, names it); after the deadline
    the student stores the solutions' blob (or tree, or commit) under the name of the stubs' own.
    Ordinary git reads the stubs' commit as the solutions (it does not check what a loose object
    holds against its name); the grader hashes every object it reads and refuses the submission."""
    subs = tmp_path / "download"
    mallory = subs / "mallory"
    stubs, solutions = _stubs_then_solutions(mallory, f"--object-format={object_format}")
    path = {"blob": ":katas/k01_creation.py", "tree": ":katas", "commit": ""}[forged]
    honest = _read(subs, "mallory")   # before: the stubs, as committed
    assert honest.files and honest.files["k01_creation.py"] == (ROOT / "katas" / "k01_creation.py").read_bytes()
    victim = _git(mallory, "rev-parse", stubs + path).stdout.decode().strip()
    content = _git(mallory, "cat-file", forged, solutions + path).stdout
    _forged(mallory, victim, forged, content)
    shown = _git(mallory, "show", f"{TAG}:katas/k01_creation.py").stdout   # the primitive, with ordinary git
    assert shown == (ROOT / "reference" / "k01_creation.py").read_bytes()

    _refused(_read(subs, "mallory"), f"object {victim[:12]} ({forged})", "does not hold what its name says")
    point = repository.recorded(mallory, stubs, "the record's submission") if forged != "commit" else None
    if point is not None:   # with the record naming the stubs' commit: the same refusal
        with pytest.raises(repository.GitError, match="does not hold what its name says"):
            repository.kata_files(mallory, point, KATAS, 1 << 20)
    else:
        with pytest.raises(repository.GitError, match="does not hold what its name says"):
            repository.recorded(mallory, stubs, "the record's submission")
