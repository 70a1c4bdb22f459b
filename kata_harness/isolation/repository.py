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
partial clone's) is a note, never a fetch. Every object that decides what is graded (the commit,
its trees, the kata files, the tags on the way) is read with ``cat-file --batch`` and hashed here
against its name (``_View.verified``): git checks objects as a fetch brings them, not as it reads
them from a folder handed in, where a file stored under a stub's name can hold other content.
A repository that points elsewhere (a ``.git`` file, a shared ``commondir``, borrowed objects
through ``objects/info/alternates``) is refused: it could name a classmate's commit as its own.

What a date is worth: a commit's date is set by whoever made the commit, so ``--at DATE`` trusts
the student's clock, and a tag is a name the student can push at any time. What was pushed by the
deadline is what a clone made at the deadline holds; and with the instructor's record
(``batch --record``, ``term.record``) the point is the commit the record names (``recorded``).
"""

from __future__ import annotations

import hashlib
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
TAG_DEPTH = 16              # annotated tags followed from a ref to its commit
INPUT_LIMIT = 32 << 10      # bytes written to one git command (object ids: well under a pipe's buffer)
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
_OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_IDS_AT_ONCE = 256          # object ids asked of one git cat-file (INPUT_LIMIT holds them)


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


def _described(name: str, rest: str, kind: str) -> int:
    """The size in git cat-file's line ``NAME TYPE SIZE`` (``rest``: what follows the name) of an
    object that must be a ``kind``; ``GitError`` where it is missing or another kind."""
    if rest == "missing":
        raise GitError(f"git cat-file: object {name[:12]} is missing from .git/objects (a partial clone's, "
                       f"say: it is never fetched); not read")
    found, _, size = rest.partition(" ")
    if found != kind or not size.isdigit():
        raise GitError(f"git cat-file: object {name[:12]} is {found or 'nothing'}, not a {kind}: not read")
    return int(size)


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
        chosen = self.object_format = _object_format(repository, view)
        (view / "objects").mkdir()   # unused (GIT_OBJECT_DIRECTORY names theirs), but git expects one
        extensions = f"[extensions]\n\tobjectFormat = {chosen}\n" if chosen != "sha1" else ""
        (view / "config").write_text(_VIEW_CONFIG.format(version=1 if extensions else 0, devnull=os.devnull,
                                                         extensions=extensions))

    def git(self, *args: str, given: bytes = b"") -> bytes:
        """What git prints for ``args`` on this view (``given`` on its input); raises ``GitError``."""
        return _run(["git", *_SAFE, *args], _environment(self.folder, self.objects), self.folder, args[0], given)

    def sizes(self, objects: list[str], kind: str) -> dict[str, int]:
        """{object: its size as git reports it} for ``objects``, each of which must be a ``kind``
        (``blob``, ``tree``, ``commit``); raises ``GitError`` for a missing one or another kind. A
        size only decides whether an object is read: what is read is checked (``verified``)."""
        found = {}
        for line in self._batch("--batch-check", objects).splitlines():
            name, _, rest = line.decode("utf-8", "replace").partition(" ")
            found[name] = _described(name, rest, kind)
        return {name: found[name] for name in objects}

    def verified(self, objects: list[str], kind: str) -> dict[str, bytes]:
        """{object: its content} for ``objects`` (full ids), each a ``kind``, each checked against
        its name: the repository's hash (SHA-1 or SHA-256, its object format) of ``"<kind>
        <size>\\0<content>"`` must be the id git was asked for. Git does not check a loose
        object or a pack's entry as it reads it, so a file stored under one object's name can hold
        another's content; such an object raises ``GitError``, as a missing one does (it is never
        fetched)."""
        contents: dict[str, bytes] = {}
        pending = list(dict.fromkeys(name.lower() for name in objects))
        while pending:
            output = memoryview(self._batch("--batch", pending[:_IDS_AT_ONCE]))
            for name in pending[:_IDS_AT_ONCE]:
                end = bytes(output[:200]).find(b"\n")
                header = bytes(output[:end]).decode("utf-8", "replace") if end >= 0 else ""
                reported, _, rest = header.partition(" ")
                if reported != name:
                    raise GitError(f"git cat-file answered {header[:80]!r} for {name[:12]}: not read")
                size = _described(name, rest, kind)
                content = bytes(output[end + 1:end + 1 + size])
                if len(content) != size:
                    raise GitError(f"git cat-file gave {len(content)} of {size} bytes of {name[:12]}: not read")
                output = output[end + 2 + size:]   # the content, then a newline
                digest = hashlib.new(self.object_format, f"{kind} {size}\0".encode() + content).hexdigest()
                if digest != name:
                    raise GitError(f"object {name[:12]} ({kind}) in .git/objects does not hold what its name says "
                                   f"(its content hashes to {digest[:12]}): the repository was altered after that "
                                   f"object was made; not read")
                contents[name] = content
            pending = pending[_IDS_AT_ONCE:]
        return {name: contents[name.lower()] for name in objects}

    def _batch(self, option: str, objects: list[str]) -> bytes:
        """What ``git cat-file OPTION`` prints for ``objects`` (ids only, never names git would
        resolve: anything else is refused before git sees it)."""
        for name in objects:
            if not _OBJECT_ID.fullmatch(name):
                raise GitError(f"{name[:80]!r} is not an object id: not read")
        return self.git("cat-file", option, given="".join(f"{name}\n" for name in objects).encode())

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


def _run(command: list[str], environment: dict, cwd: Path, name: str = "", given: bytes = b"") -> bytes:
    """The standard output of ``command`` (at most ``OUTPUT_LIMIT`` bytes, within ``GIT_TIMEOUT``
    seconds), ``given`` on its standard input (less than a pipe holds, so writing it never waits);
    ``GitError`` when it fails, prints more, or takes longer."""
    name = name or command[1]
    assert len(given) <= INPUT_LIMIT
    try:
        process = subprocess.Popen(command, stdin=subprocess.PIPE if given else subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment, cwd=cwd)
    except FileNotFoundError:
        raise GitError("git is not installed here (--at needs it)") from None
    if process.stdin is not None:
        try:
            process.stdin.write(given)
            process.stdin.close()
        except BrokenPipeError:   # git ended already: its status says why
            pass
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
    """The commit ``ref`` names (None: it names nothing there), through the annotated tags on the way,
    each checked against its name (``_View.verified``: a forged one raises ``GitError``)."""
    try:
        named = view.git("rev-parse", "--verify", "--quiet", ref).decode().strip()
    except GitError:
        return None
    for _ in range(TAG_DEPTH):
        if not _OBJECT_ID.fullmatch(named):
            return None
        kind = view.git("cat-file", "-t", named).decode().strip()
        if kind == "commit":
            view.verified([named], "commit")
            return named
        if kind != "tag":
            return None
        found = re.match(rb"object ([0-9a-f]{40}|[0-9a-f]{64})\n", view.verified([named], "tag")[named])
        if found is None:
            raise GitError(f"tag {named[:12]} names no object: not read")
        named = found.group(1).decode()
    raise GitError(f"{ref} is a chain of more than {TAG_DEPTH} tags: not read")


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
    return _commit_date(view.verified([commit], "commit")[commit])


def _commit_date(raw: bytes) -> str:
    """The committer date of a commit object's content, as ISO 8601 in UTC (``?`` where it has none)."""
    match = re.search(r"^committer .* (\d+) [+-]\d{4}$", raw.decode("utf-8", "replace"), re.MULTILINE)
    if not match:
        return "?"
    return datetime.fromtimestamp(int(match.group(1)), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _tree_of(raw: bytes, commit: str) -> str:
    """The tree a commit object's content names (its first line)."""
    match = re.match(rb"tree ([0-9a-f]{40}|[0-9a-f]{64})\n", raw)
    if not match:
        raise GitError(f"commit {commit[:12]} names no tree: not read")
    return match.group(1).decode()


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
    commit = commit.lower()
    with _viewed(git_dir(folder)) as view:
        try:
            view.sizes([commit], "commit")
        except GitError:
            raise GitError(f"the commit the record names ({commit[:12]}) is not in this repository: not graded") from None
        return Point(commit, named, _committer_date(view, commit))


def kata_files(folder: Path, point: Point, katas: set[str], limit: int) -> tuple[dict[str, bytes], list[str]]:
    """({file name: bytes}, notes): the kata files of ``point``'s commit, from its ``katas/`` folder
    (else its top folder), as a submission's working tree would be read: regular files named after
    a kata, at most ``limit`` bytes each (a link, a submodule or a larger file is a note). Every
    object read on the way (the commit, its trees, the files) is checked against its name
    (``_View.verified``): one that holds other content, or is missing, raises ``GitError`` (a
    missing one is never fetched)."""
    with _viewed(git_dir(folder)) as view:
        commit = point.commit.lower()
        top = _tree(view, _tree_of(view.verified([commit], "commit")[commit], commit))
        folder_mode, folder_tree = top.get("katas", ("", ""))
        entries = _tree(view, folder_tree) if folder_mode == "040000" else top
        notes: list[str] = []
        wanted: dict[str, str] = {}
        for name, (mode, sha) in sorted(entries.items()):
            if not _KATA_NAME.fullmatch(name) or name[:-3] not in katas:
                continue
            if mode not in ("100644", "100755"):
                notes.append(f"not a regular file in git: {name} (mode {mode})")
                continue
            wanted[name] = sha
        sizes = view.sizes(list(dict.fromkeys(wanted.values())), "blob") if wanted else {}
        for name, sha in list(wanted.items()):
            if sizes[sha] > limit:
                notes.append(f"unreadable: {name} (larger than {limit} bytes)")
                del wanted[name]
        contents = _blobs(view, list(dict.fromkeys(wanted.values())), sizes)
        return {name: contents[sha] for name, sha in wanted.items()}, notes


def _blobs(view: _View, objects: list[str], sizes: dict[str, int]) -> dict[str, bytes]:
    """The checked contents of the blobs ``objects`` (of ``sizes``), asked for in as few git commands
    as ``OUTPUT_LIMIT`` allows."""
    contents: dict[str, bytes] = {}
    group: list[str] = []
    total = 0
    for sha in [*objects, None]:
        if group and (sha is None or total + sizes[sha] + 200 > OUTPUT_LIMIT):
            contents.update(view.verified(group, "blob"))
            group, total = [], 0
        if sha is not None:
            group.append(sha)
            total += sizes[sha] + 200   # a header line and a newline around each
    return contents


def _tree(view: _View, tree: str) -> dict[str, tuple[str, str]]:
    """{name: (mode as ls-tree writes it, object)} of one tree's entries, parsed from its checked
    content (``<mode> <name>\\0<id as raw bytes>`` each)."""
    raw = view.verified([tree], "tree")[tree]
    width = len(tree) // 2   # bytes of an id: 20 (SHA-1) or 32 (SHA-256)
    entries, at = {}, 0
    while at < len(raw):
        space, end = raw.find(b" ", at), raw.find(b"\0", at)
        if space < 0 or end < space or end + 1 + width > len(raw):
            raise GitError(f"tree {tree[:12]} is malformed: not read")
        mode = raw[at:space].decode("ascii", "replace").zfill(6)
        name = raw[space + 1:end].decode("utf-8", "surrogateescape")
        entries[name] = (mode, raw[end + 1:end + 1 + width].hex())
        at = end + 1 + width
    return entries
