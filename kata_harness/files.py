"""Reading files that a learner may control, and writing the grader's own files atomically.

A learner's repository can hold a symbolic link to ``/dev/zero``, a FIFO that never answers or a
file of many gigabytes where a kata file or a grading file should be. ``read_regular`` reads only
a regular file (never through a link), up to a size cap, without blocking. ``write_atomically``
writes a gradebook or a report so that nobody ever reads half of one.
"""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

FILE_LIMIT = 16 << 20      # bytes: far above any kata, test, curriculum or answer-key file


class UnsafeFile(OSError):
    """A path that is not a plain regular file of acceptable size; the message says what it is."""


def read_regular(path: Path, limit: int = FILE_LIMIT) -> bytes:
    """The bytes of ``path`` if it is a regular file (not a link, device or FIFO) of at most
    ``limit`` bytes; raises ``UnsafeFile`` (or another ``OSError``) otherwise."""
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise UnsafeFile(f"{path} is a symbolic link")
    if not stat.S_ISREG(info.st_mode):
        raise UnsafeFile(f"{path} is not a regular file")
    if info.st_size > limit:
        raise UnsafeFile(f"{path} is larger than {limit} bytes")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):   # swapped between the check and the open
            raise UnsafeFile(f"{path} is not a regular file")
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > limit:
                raise UnsafeFile(f"{path} is larger than {limit} bytes")
            chunks.append(chunk)
    finally:
        os.close(fd)


def read_text(path: Path, limit: int = FILE_LIMIT) -> str:
    """``read_regular`` decoded as UTF-8 (undecodable bytes replaced)."""
    return read_regular(path, limit).decode("utf-8", "replace")


def digest(named: Iterable[tuple[str, bytes]]) -> str:
    """One SHA-256 over (name, content) pairs in order; each content is hashed on its own first,
    so that no two different lists of files can give the same stream."""
    hasher = hashlib.sha256()
    for name, data in named:
        hasher.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return hasher.hexdigest()


def _umask() -> int:
    """The process's umask: read from /proc where there is one (nothing changes it, even for a moment,
    while other threads create files), else set and restored at once."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then move it into place: a reader (or a
    run stopped halfway) sees the old file or the new one, never half of one. The file gets the
    permissions any file made here gets (the umask's: a gradebook, a report and a student's feedback
    readable by the group when the umask says so), not the temporary file's owner-only ones."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        Path(temporary).chmod(0o666 & ~_umask())
        Path(temporary).replace(path)
    except BaseException:
        try:
            Path(temporary).unlink()
        except OSError:
            pass
        raise
