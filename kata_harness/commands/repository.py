"""A student's kata files as git recorded them at a chosen point, read without running anything
from the repository (``grade.py batch DIR --at TAG|DATE``).

Deadline grading takes each cloned repository at a submit tag or at the last commit on its
default branch before a date. Git is run only as a reader (plumbing: ``rev-parse``, ``rev-list``,
``for-each-ref``, ``ls-tree``, ``cat-file``), with the settings that could make it run a program
switched off (``core.fsmonitor``, hooks, signature checks, replace objects, system and global
configuration), on an explicit ``GIT_DIR`` (never a repository found further up). A repository
that points elsewhere (a ``.git`` file, a shared ``commondir``, borrowed objects through
``objects/info/alternates``) is refused: it could name a classmate's commit as its own.

What a date is worth: a commit's date is set by whoever made the commit, so ``--at DATE`` trusts
the student's clock, and a tag is a name the student can push at any time. What was pushed by the
deadline is what a clone made at the deadline holds; and with the instructor's record
(``batch --record``, ``term.record``) the point is the commit the record names (``recorded``).
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

GIT_TIMEOUT = 60            # seconds for one git command
OUTPUT_LIMIT = 4 << 20      # bytes read from one git command
DATE = re.compile(r"\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?(Z|[+-]\d{2}:?\d{2})?")
_KATA_NAME = re.compile(r"k\d\d_\w+\.py")
_SAFE = ("-c", "core.fsmonitor=false", "-c", "core.hooksPath=" + os.devnull, "-c", "log.showSignature=false",
         "-c", "safe.directory=*", "-c", "core.quotePath=false")


class GitError(Exception):
    """The repository cannot be read at that point; the message says why (a note on its row)."""


@dataclass
class Point:
    """Where a repository is graded: the commit, what named it, and its committer date."""

    commit: str
    named: str           # "tag submit/2026-11-30T23-58-01Z-abc1234", "main before 2026-12-01T00:00:00Z"
    committed: str       # the committer date, ISO 8601 (set by whoever made the commit)

    def note(self) -> str:
        """What the gradebook says about where this submission was graded."""
        return f"graded at {self.named}: commit {self.commit[:12]}, committed {self.committed} (the committer's clock)"


def is_date(text: str) -> bool:
    """Whether ``--at`` names a date (2026-12-01, 2026-12-01T09:00, ...Z or ...+08:00) rather than a tag."""
    return DATE.fullmatch(text) is not None


def parse_date(text: str) -> datetime:
    """``text`` as an aware datetime (UTC where it names no zone); raises ValueError."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace(" ", "T"))
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def git_dir(folder: Path) -> Path:
    """The repository of a submission folder: its ``.git`` folder, or the folder itself when it is a
    bare repository; raises ``GitError`` when there is none, or one that points elsewhere."""
    candidate = folder / ".git"
    try:
        info = os.lstat(candidate)
    except OSError:
        if (folder / "objects").is_dir() and (folder / "HEAD").is_file():
            candidate = folder
        else:
            raise GitError("not a git repository (--at reads kata files from git)") from None
    else:
        if not stat.S_ISDIR(info.st_mode):
            raise GitError(".git is not a folder (a link or a gitdir file pointing elsewhere): not read")
    for borrowed in ("commondir", "objects/info/alternates"):
        if os.path.lexists(candidate / borrowed):
            raise GitError(f".git/{borrowed} points to another repository's objects: not read")
    return candidate


def _git(repository: Path, *args: str) -> bytes:
    environment = {"PATH": os.environ.get("PATH", os.defpath), "LANG": "C", "LC_ALL": "C",
                   "GIT_DIR": str(repository), "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
                   "GIT_NO_REPLACE_OBJECTS": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0",
                   "HOME": os.devnull}
    try:
        done = subprocess.run(["git", *_SAFE, *args], capture_output=True, timeout=GIT_TIMEOUT, env=environment,
                              stdin=subprocess.DEVNULL, cwd=repository)
    except FileNotFoundError:
        raise GitError("git is not installed here (--at needs it)") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git did not answer within {GIT_TIMEOUT} s") from None
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        raise GitError(f"git {args[0]} failed: {detail[0][:200]}")
    return done.stdout[:OUTPUT_LIMIT]


def _commit_of(repository: Path, ref: str) -> str | None:
    try:
        return _git(repository, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").decode().strip() or None
    except GitError:
        return None


def _default_branch(repository: Path) -> str:
    """The branch a clone checked out: what ``origin/HEAD`` names, else ``HEAD``."""
    for ref in ("refs/remotes/origin/HEAD", "HEAD"):
        if _commit_of(repository, ref):
            return ref
    raise GitError("the repository has no commit")


def committer_date(repository: Path, commit: str) -> str:
    """The committer date recorded in ``commit``, as ISO 8601 in UTC."""
    raw = _git(repository, "cat-file", "commit", commit).decode("utf-8", "replace")
    match = re.search(r"^committer .* (\d+) [+-]\d{4}$", raw, re.MULTILINE)
    if not match:
        return "?"
    return datetime.fromtimestamp(int(match.group(1)), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def resolve(folder: Path, at: str) -> Point:
    """The commit of ``folder``'s repository that ``--at`` names: for a date, the last commit on the
    default branch (first parents) made before it; for a tag, that tag, and for a pattern
    (``submit/*``), the matching tag whose name sorts last (Classroom 50's submit tags hold their
    time, so that is the latest). Raises ``GitError``."""
    repository = git_dir(folder)
    if is_date(at):
        moment = parse_date(at)
        branch = _default_branch(repository)
        commit = _git(repository, "rev-list", "-1", "--first-parent", f"--before=@{int(moment.timestamp())}",
                      branch).decode().strip()
        if not commit:
            raise GitError(f"no commit on the default branch before {at}")
        shown = "the default branch" if branch == "HEAD" else branch.removeprefix("refs/remotes/")
        return Point(commit, f"{shown} before {at}", committer_date(repository, commit))
    pattern = at if at.startswith("refs/") else f"refs/tags/{at}"
    names = sorted(_git(repository, "for-each-ref", "--format=%(refname)", pattern).decode("utf-8", "replace")
                   .split())
    if not names:
        raise GitError(f"no tag {at}")
    tagged = _commit_of(repository, names[-1])
    if tagged is None:
        raise GitError(f"{names[-1]} names no commit")
    return Point(tagged, "tag " + names[-1].removeprefix("refs/tags/"), committer_date(repository, tagged))


def recorded(folder: Path, commit: str, named: str) -> Point:
    """The commit the instructor's record names (a full SHA) as the point to grade ``folder`` at,
    ``named`` as the record names it; raises ``GitError`` where the repository does not hold exactly
    that commit (the record is what decides, not the repository's tags or dates)."""
    repository = git_dir(folder)
    found = _commit_of(repository, commit)
    if found is None or found != commit.lower():
        raise GitError(f"the commit the record names ({commit[:12]}) is not in this repository: not graded")
    return Point(found, named, committer_date(repository, found))


def kata_files(folder: Path, point: Point, katas: set[str], limit: int) -> tuple[dict[str, bytes], list[str]]:
    """({file name: bytes}, notes): the kata files of ``point``'s commit, from its ``katas/`` folder
    (else its top folder), as a submission's working tree would be read: regular files named after
    a kata, at most ``limit`` bytes each (a link, a submodule or a larger file is a note)."""
    repository = git_dir(folder)
    top = _tree(repository, point.commit)
    where = f"{point.commit}:katas" if top.get("katas", ("",))[0] == "040000" else point.commit
    entries = top if where == point.commit else _tree(repository, where)
    files, notes = {}, []
    for name, (mode, sha) in sorted(entries.items()):
        if not _KATA_NAME.fullmatch(name) or name[:-3] not in katas:
            continue
        if mode not in ("100644", "100755"):
            notes.append(f"not a regular file in git: {name} (mode {mode})")
            continue
        size = int(_git(repository, "cat-file", "-s", sha).decode().strip() or 0)
        if size > limit:
            notes.append(f"unreadable: {name} (larger than {limit} bytes)")
            continue
        files[name] = _git(repository, "cat-file", "blob", sha)
    return files, notes


def _tree(repository: Path, tree: str) -> dict[str, tuple[str, str]]:
    """{name: (mode, object)} of one tree's entries."""
    entries = {}
    for record in _git(repository, "ls-tree", "-z", tree).split(b"\0"):
        if not record:
            continue
        head, _, name = record.partition(b"\t")
        mode, _kind, sha = head.decode().split()
        entries[name.decode("utf-8", "surrogateescape")] = (mode, sha)
    return entries
