"""A student's kata files as git recorded them at a chosen point, read without running anything
from the repository and without reading anything outside it (``grade.py batch DIR --at TAG|DATE``).

Deadline grading takes each cloned repository at a submit tag or at the last commit on its
default branch before a date. A student's repository is data: its configuration, hooks, links and
special files decide nothing. So git never opens it as a repository. Each submission is read
through a *view*: a private git folder of the grader's own, holding a configuration of the
grader's (no remote, no promisor, no hooks, no commit-graph, no transport allowed), a copy of the
repository's ``HEAD``, ``refs/`` and ``packed-refs``, and, as its object store, the repository's
``objects/`` folder. Before git runs, every path it can open there is checked: each must be a
regular file or a real folder inside the submission (a symbolic link, a FIFO, a device or a socket
is refused with a note, so nothing is followed and nothing waits). Git then runs only as a reader
(plumbing: ``rev-parse``, ``rev-list``, ``for-each-ref``, ``ls-tree``, ``cat-file``), with
``GIT_NO_LAZY_FETCH``, ``GIT_ALLOW_PROTOCOL`` empty and ``protocol.allow=never``, no system or
global configuration, a time limit and a cap on what it may print. An object that is missing (a
partial clone's) is a note, never a fetch. A repository that points elsewhere (a ``.git`` file, a
shared ``commondir``, borrowed objects through ``objects/info/alternates``) is refused: it could
name a classmate's commit as its own.

What a date is worth: a commit's date is set by whoever made the commit, so ``--at DATE`` trusts
the student's clock, and a tag is a name the student can push at any time. What was pushed by the
deadline is what a clone made at the deadline holds; and with the instructor's record
(``batch --record``, ``term.record``) the point is the commit the record names (``recorded``).
"""

from __future__ import annotations

import os
import re
import selectors
import shutil
import stat
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from ..files import UnsafeFile, read_regular

GIT_TIMEOUT = 60            # seconds for one git command
OUTPUT_LIMIT = 4 << 20      # bytes read from one git command (more is refused, never cut)
ENTRY_LIMIT = 200_000       # files and folders of one repository's objects/ and refs/ checked before git runs
REF_LIMIT = 4096            # bytes in one loose ref (a commit id, or "ref: refs/...")
REFS_LIMIT = 64 << 20       # bytes of packed-refs
CONFIG_LIMIT = 1 << 20      # bytes of the repository's config, read only for its object format
DATE = re.compile(r"\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?(Z|[+-]\d{2}:?\d{2})?")
_KATA_NAME = re.compile(r"k\d\d_\w+\.py")
_SAFE = ("-c", "core.fsmonitor=false", "-c", "core.hooksPath=" + os.devnull, "-c", "log.showSignature=false",
         "-c", "core.quotePath=false", "-c", "protocol.allow=never", "-c", "core.commitGraph=false",
         "-c", "core.multiPackIndex=false", "-c", "gc.auto=0", "-c", "maintenance.auto=false")
# The view's own configuration: nothing in it names a program, a remote or another file.
_VIEW_CONFIG = """[core]
\trepositoryformatversion = {version}
\tbare = true
\tcommitGraph = false
\tmultiPackIndex = false
\tfsmonitor = false
\thooksPath = {devnull}
[protocol]
\tallow = never
[gc]
\tauto = 0
[maintenance]
\tauto = false
{extensions}"""
_OBJECT_FORMATS = ("sha1", "sha256")


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
        if _is_real_folder(folder / "objects") and _is_regular(folder / "HEAD"):
            candidate = folder
        else:
            raise GitError("not a git repository (--at reads kata files from git)") from None
    else:
        if not stat.S_ISDIR(info.st_mode):
            raise GitError(".git is not a folder (a link or a gitdir file pointing elsewhere): not read")
    for borrowed in ("commondir", "objects/info/alternates", "objects/info/http-alternates"):
        if os.path.lexists(candidate / borrowed):
            raise GitError(f".git/{borrowed} points to another repository's objects: not read")
    return candidate


def _is_real_folder(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _kind(mode: int) -> str:
    """What a path that is neither a regular file nor a folder is, in a note's words."""
    for test, name in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device")):
        if test(mode):
            return name
    return "not a regular file"


def _checked_tree(top: Path, shown: str, counted: list[int]) -> list[Path]:
    """Every regular file under the real folder ``top`` (``shown`` names it in notes), each path
    checked without following anything: a link, FIFO, device or socket anywhere raises ``GitError``,
    and so does a tree of more than ``ENTRY_LIMIT`` entries (``counted`` adds up across calls)."""
    try:
        return _walked(top, shown, counted)
    except OSError as error:
        raise GitError(f".git/{shown} cannot be read ({error.strerror or error})") from None


def _walked(top: Path, shown: str, counted: list[int]) -> list[Path]:
    info = os.lstat(top)
    if not stat.S_ISDIR(info.st_mode):
        raise GitError(f".git/{shown} is {_kind(info.st_mode)}, not a folder: not read")
    files, folders = [], [top]
    while folders:
        folder = folders.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                counted[0] += 1
                if counted[0] > ENTRY_LIMIT:
                    raise GitError(f".git holds more than {ENTRY_LIMIT} files: not read")
                mode = entry.stat(follow_symlinks=False).st_mode
                if stat.S_ISDIR(mode):
                    folders.append(Path(entry.path))
                elif stat.S_ISREG(mode):
                    files.append(Path(entry.path))
                else:
                    where = Path(entry.path).relative_to(top.parent).as_posix()
                    raise GitError(f".git/{where} is {_kind(mode)}: not read")
    return files


def _copied(source: Path, target: Path, limit: int, shown: str) -> None:
    """Copy the regular file ``source`` (at most ``limit`` bytes) to ``target``; ``GitError`` otherwise."""
    try:
        data = read_regular(source, limit)
    except UnsafeFile:
        info = os.lstat(source)
        what = _kind(info.st_mode) if not stat.S_ISREG(info.st_mode) else f"larger than {limit} bytes"
        raise GitError(f".git/{shown} is {what}: not read") from None
    except OSError as error:
        raise GitError(f".git/{shown} cannot be read ({error.strerror or error})") from None
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def _object_format(repository: Path, view: Path) -> str:
    """The repository's object format (``sha1`` or ``sha256``), read from a copy of its config by
    ``git config --file`` (no includes, nothing run); GitError for any other."""
    config = repository / "config"
    if not os.path.lexists(config):
        return "sha1"
    copy = view / "their-config"
    _copied(config, copy, CONFIG_LIMIT, "config")
    try:
        done = _run(["git", "config", "--file", str(copy), "--no-includes", "--get", "extensions.objectformat"],
                    {**_environment(view, None)}, view)
    except GitError:
        done = b""
    finally:
        copy.unlink()
    chosen = done.decode("utf-8", "replace").strip().lower() or "sha1"
    if chosen not in _OBJECT_FORMATS:
        raise GitError(f"unknown object format {chosen[:40]!r}: not read")
    return chosen


class _View:
    """A private git folder that reads one repository's objects and refs, built from checked
    copies (see the module's docstring); ``git`` runs git on it."""

    def __init__(self, repository: Path):
        self.repository = repository
        self.folder = Path(tempfile.mkdtemp(prefix="kata-git-view-"))
        try:
            self._build()
        except BaseException:
            self.close()
            raise

    def _build(self) -> None:
        repository, view = self.repository, self.folder
        if os.path.lexists(repository / "reftable"):
            raise GitError("the repository keeps its refs in a reftable, which is not read")
        counted = [0]
        self.objects = repository / "objects"
        _checked_tree(self.objects, "objects", counted)
        _copied(repository / "HEAD", view / "HEAD", REF_LIMIT, "HEAD")
        (view / "refs").mkdir()
        if os.path.lexists(repository / "refs"):
            for ref in _checked_tree(repository / "refs", "refs", counted):
                shown = ref.relative_to(repository).as_posix()
                _copied(ref, view / shown, REF_LIMIT, shown)
        for optional, limit in (("packed-refs", REFS_LIMIT), ("shallow", REFS_LIMIT)):
            if os.path.lexists(repository / optional):
                _copied(repository / optional, view / optional, limit, optional)
        chosen = _object_format(repository, view)
        (view / "objects").mkdir()   # unused (GIT_OBJECT_DIRECTORY names theirs), but git expects one
        extensions = f"[extensions]\n\tobjectFormat = {chosen}\n" if chosen != "sha1" else ""
        (view / "config").write_text(_VIEW_CONFIG.format(version=1 if extensions else 0, devnull=os.devnull,
                                                         extensions=extensions))

    def git(self, *args: str) -> bytes:
        """What git prints for ``args`` on this view; raises ``GitError``."""
        return _run(["git", *_SAFE, *args], _environment(self.folder, self.objects), self.folder, args[0])

    def close(self) -> None:
        """Remove the view (the repository itself is never written)."""
        shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def _viewed(repository: Path) -> Iterator[_View]:
    view = _View(repository)
    try:
        yield view
    finally:
        view.close()


def _environment(view: Path, objects: Path | None) -> dict[str, str]:
    """Git's whole environment: nothing of the grader's (no GIT_* variable, no HOME), no lazy fetch,
    no protocol, no configuration but the view's."""
    environment = {"PATH": os.environ.get("PATH", os.defpath), "LANG": "C", "LC_ALL": "C", "GIT_DIR": str(view),
                   "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_SYSTEM": os.devnull, "GIT_CONFIG_GLOBAL": os.devnull,
                   "GIT_NO_REPLACE_OBJECTS": "1", "GIT_NO_LAZY_FETCH": "1", "GIT_ALLOW_PROTOCOL": "",
                   "GIT_PROTOCOL_FROM_USER": "0", "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0",
                   "GIT_ATTR_NOSYSTEM": "1", "HOME": os.devnull, "XDG_CONFIG_HOME": os.devnull}
    if objects is not None:
        environment["GIT_OBJECT_DIRECTORY"] = str(objects)
    return environment


def _run(command: list[str], environment: dict, cwd: Path, name: str = "") -> bytes:
    """The standard output of ``command`` (at most ``OUTPUT_LIMIT`` bytes, within ``GIT_TIMEOUT``
    seconds); ``GitError`` when it fails, prints more, or takes longer."""
    name = name or command[1]
    try:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=environment, cwd=cwd)
    except FileNotFoundError:
        raise GitError("git is not installed here (--at needs it)") from None
    output, errors, problem = _read_both(process, name)
    if problem:
        process.kill()
    status = process.wait()
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()
    if problem:
        raise GitError(problem)
    if status != 0:
        detail = errors.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit status {status}"]
        raise GitError(f"git {name} failed: {detail[0][:200]}")
    return bytes(output)


def _read_both(process: subprocess.Popen, name: str) -> tuple[bytearray, bytearray, str]:
    """(standard output, the start of standard error, what went wrong or "") of ``process``, read
    until both end, ``OUTPUT_LIMIT`` is passed or ``GIT_TIMEOUT`` seconds are up."""
    output, errors = bytearray(), bytearray()
    until = time.monotonic() + GIT_TIMEOUT
    with selectors.DefaultSelector() as streams:
        assert process.stdout is not None and process.stderr is not None   # both are pipes
        streams.register(process.stdout, selectors.EVENT_READ, output)
        streams.register(process.stderr, selectors.EVENT_READ, errors)
        while streams.get_map():
            ready = streams.select(max(until - time.monotonic(), 0))
            if not ready:
                return output, errors, f"git did not answer within {GIT_TIMEOUT} s"
            for key, _ in ready:
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    streams.unregister(key.fileobj)
                elif key.data is output or len(errors) < 4096:
                    key.data.extend(chunk)
            if len(output) > OUTPUT_LIMIT:
                return output, errors, f"git {name} printed more than {OUTPUT_LIMIT} bytes: not read"
    return output, errors, ""


def _commit_of(view: _View, ref: str) -> str | None:
    try:
        return view.git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").decode().strip() or None
    except GitError:
        return None


def _default_branch(view: _View) -> str:
    """The branch a clone checked out: what ``origin/HEAD`` names, else ``HEAD``."""
    for ref in ("refs/remotes/origin/HEAD", "HEAD"):
        if _commit_of(view, ref):
            return ref
    raise GitError("the repository has no commit")


def committer_date(repository: Path, commit: str) -> str:
    """The committer date recorded in ``commit`` of ``repository`` (a git folder), as ISO 8601 in UTC."""
    with _viewed(repository) as view:
        return _committer_date(view, commit)


def _committer_date(view: _View, commit: str) -> str:
    raw = view.git("cat-file", "commit", commit).decode("utf-8", "replace")
    match = re.search(r"^committer .* (\d+) [+-]\d{4}$", raw, re.MULTILINE)
    if not match:
        return "?"
    return datetime.fromtimestamp(int(match.group(1)), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def resolve(folder: Path, at: str) -> Point:
    """The commit of ``folder``'s repository that ``--at`` names: for a date, the last commit on the
    default branch (first parents) made before it; for a tag, that tag, and for a pattern
    (``submit/*``), the matching tag whose name sorts last (Classroom 50's submit tags hold their
    time, so that is the latest). Raises ``GitError``."""
    with _viewed(git_dir(folder)) as view:
        if is_date(at):
            moment = parse_date(at)
            branch = _default_branch(view)
            commit = view.git("rev-list", "-1", "--first-parent", f"--before=@{int(moment.timestamp())}",
                              branch).decode().strip()
            if not commit:
                raise GitError(f"no commit on the default branch before {at}")
            shown = "the default branch" if branch == "HEAD" else branch.removeprefix("refs/remotes/")
            return Point(commit, f"{shown} before {at}", _committer_date(view, commit))
        pattern = at if at.startswith("refs/") else f"refs/tags/{at}"
        names = sorted(view.git("for-each-ref", "--format=%(refname)", pattern).decode("utf-8", "replace").split())
        if not names:
            raise GitError(f"no tag {at}")
        tagged = _commit_of(view, names[-1])
        if tagged is None:
            raise GitError(f"{names[-1]} names no commit")
        return Point(tagged, "tag " + names[-1].removeprefix("refs/tags/"), _committer_date(view, tagged))


def recorded(folder: Path, commit: str, named: str) -> Point:
    """The commit the instructor's record names (a full SHA) as the point to grade ``folder`` at,
    ``named`` as the record names it; raises ``GitError`` where the repository does not hold exactly
    that commit (the record is what decides, not the repository's tags or dates)."""
    with _viewed(git_dir(folder)) as view:
        found = _commit_of(view, commit)
        if found is None or found != commit.lower():
            raise GitError(f"the commit the record names ({commit[:12]}) is not in this repository: not graded")
        return Point(found, named, _committer_date(view, found))


def kata_files(folder: Path, point: Point, katas: set[str], limit: int) -> tuple[dict[str, bytes], list[str]]:
    """({file name: bytes}, notes): the kata files of ``point``'s commit, from its ``katas/`` folder
    (else its top folder), as a submission's working tree would be read: regular files named after
    a kata, at most ``limit`` bytes each (a link, a submodule or a larger file is a note). An object
    the repository lacks raises ``GitError`` (it is never fetched)."""
    with _viewed(git_dir(folder)) as view:
        top = _tree(view, point.commit)
        where = f"{point.commit}:katas" if top.get("katas", ("",))[0] == "040000" else point.commit
        entries = top if where == point.commit else _tree(view, where)
        files, notes = {}, []
        for name, (mode, sha) in sorted(entries.items()):
            if not _KATA_NAME.fullmatch(name) or name[:-3] not in katas:
                continue
            if mode not in ("100644", "100755"):
                notes.append(f"not a regular file in git: {name} (mode {mode})")
                continue
            size = int(view.git("cat-file", "-s", sha).decode().strip() or 0)
            if size > limit:
                notes.append(f"unreadable: {name} (larger than {limit} bytes)")
                continue
            files[name] = view.git("cat-file", "blob", sha)
        return files, notes


def _tree(view: _View, tree: str) -> dict[str, tuple[str, str]]:
    """{name: (mode, object)} of one tree's entries."""
    entries = {}
    for record in view.git("ls-tree", "-z", tree).split(b"\0"):
        if not record:
            continue
        head, _, name = record.partition(b"\t")
        mode, _kind, sha = head.decode().split()
        entries[name.decode("utf-8", "surrogateescape")] = (mode, sha)
    return entries
