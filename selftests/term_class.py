"""A small class for the term's self-tests, as ``gh teacher download`` leaves one: a git clone per
student, the classroom's ``scores.json`` (the platform's record), a roster and an extensions file.

The deadline is ``DEADLINE``; the late rule keeps half of the points until ``CUTOFF``. What each
student did, and what the record says of it:

- alice: solved by the deadline, then stubs pushed after the last cutoff (the record graded both: the
  late one counts for nothing);
- bob: solved k01 early; after the deadline a new commit with a committer date before it, and a
  tag ``submit/<a time before the deadline>-...`` on it (the record graded it after the deadline);
- carol: the same solution as alice's, restyled (other comments and spaces), submitted after the
  deadline but before her extension ends;
- dave: the record names a commit his repository does not hold;
- erin: a repository the record does not list;
- zed: on the record but not on the roster; frank: on the roster without a repository.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLASSROOM, ASSIGNMENT = "katas", "hw1"
DEADLINE = "2026-12-01T00:00Z"
CUTOFF = "2026-12-03T00:00Z"
EXTENDED = "2026-12-05T00:00Z"
KATAS = ("k01_creation", "k05_devices")   # the kata files each submission holds (the others are missing)


def folder_name(user: str) -> str:
    """The folder of a student's clone, as ``gh teacher download`` names it."""
    return f"{CLASSROOM}-{ASSIGNMENT}-{user}"


def git(folder: Path, *args: str, date: str = "2026-11-30T12:00:00Z") -> str:
    """Run git in ``folder`` with ``date`` as the author's and the committer's date (what a student
    can set); returns its output."""
    environment = {**os.environ, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date, "GIT_AUTHOR_NAME": "s",
                   "GIT_AUTHOR_EMAIL": "s@example.invalid", "GIT_COMMITTER_NAME": "s",
                   "GIT_COMMITTER_EMAIL": "s@example.invalid"}
    done = subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True, text=True, env=environment)
    return done.stdout.strip()


def commit(folder: Path, files: dict[str, str], date: str, tag: str | None = None) -> str:
    """Replace the repository's katas/ with ``files`` ({name: text}), commit at ``date``; the SHA."""
    if not (folder / ".git").exists():
        folder.mkdir(parents=True)
        git(folder, "init", "-q", "-b", "main")
    shutil.rmtree(folder / "katas", ignore_errors=True)
    (folder / "katas").mkdir()
    for name, text in files.items():
        (folder / "katas" / name).write_text(text, encoding="utf-8")
    git(folder, "add", "-A", date=date)
    git(folder, "commit", "-qm", f"work of {date}", date=date)
    if tag:
        git(folder, "tag", tag, date=date)
    return git(folder, "rev-parse", "HEAD")


def _files(kind: str) -> dict[str, str]:
    source = ROOT / ("reference" if kind in ("solved", "restyled") else "katas")
    files = {f"{kata}.py": (source / f"{kata}.py").read_text(encoding="utf-8") for kata in KATAS}
    if kind == "restyled":   # the same code, other comments and spaces: the same solution
        files = {name: "# my own version\n" + text.replace("    return", "    return  ") for name, text in files.items()}
    return files


def _result(user: str, sha: str, graded_at: str, tag: str, committed: str) -> dict:
    """One submission as Classroom 50's collector stores it (a result.json without ``assignment``):
    ``datetime`` is the commit's own date, ``graded_at`` the platform's clock."""
    return {"schema": "classroom50/result/v1", "classroom": CLASSROOM, "assignment_type": "individual", "owner": user,
            "submission": tag, "commit": f"https://github.com/org/{folder_name(user)}/commit/{sha}",
            "release": f"https://github.com/org/{folder_name(user)}/releases/tag/x", "review": "x",
            "datetime": committed, "graded_at": graded_at, "score": 0, "max-score": 0, "tests": []}


def make_term_class(where: Path) -> dict:
    """Write the class into ``where`` (``download/``, ``scores.json``, ``roster.csv``,
    ``extensions.csv``); returns {user: the SHA the record's counted submission names, or None}."""
    subs = where / "download"
    history: dict[str, list[dict]] = {}

    def submit(user: str, kind: str, committed: str, graded_at: str, tag: str | None = None,
               recorded: bool = True) -> str:
        name = tag or f"submit/{graded_at.replace(':', '-')}-{user}"
        sha = commit(subs / folder_name(user), _files(kind), committed, tag)
        if recorded:
            history.setdefault(user, []).insert(0, _result(user, sha, graded_at, name, committed))
        return sha

    counted = {"alice": submit("alice", "solved", "2026-11-30T11:00:00Z", "2026-11-30T11:04:00Z")}
    submit("alice", "stub", "2026-12-03T08:00:00Z", "2026-12-03T08:03:00Z")
    submit("bob", "stub", "2026-11-29T10:00:00Z", "2026-11-29T10:02:00Z")
    # After the deadline, a commit dated before it and a submit tag named before it: the record graded it on Dec 2.
    counted["bob"] = submit("bob", "solved", "2026-11-30T23:00:00Z", "2026-12-02T09:00:00Z",
                            tag="submit/2026-11-30T23-59-59Z-bbbbbbb")
    counted["carol"] = submit("carol", "restyled", "2026-12-04T09:00:00Z", "2026-12-04T09:01:00Z")
    submit("dave", "solved", "2026-11-30T09:00:00Z", "2026-11-30T09:01:00Z", recorded=False)
    history["dave"] = [_result("dave", "d" * 40, "2026-11-30T09:01:00Z", "submit/x-dave", "2026-11-30T09:00:00Z")]
    submit("erin", "solved", "2026-11-30T09:00:00Z", "2026-11-30T09:01:00Z", recorded=False)
    counted["zed"] = submit("zed", "stub", "2026-11-30T09:00:00Z", "2026-11-30T09:05:00Z")
    entries = [{"owner": user, "submissions": items} for user, items in history.items()]
    scores = {"schema": "classroom50/scores/v1", "assignments": {ASSIGNMENT: {"type": "individual", "entries": entries}}}
    (where / "scores.json").write_text(json.dumps(scores, indent=1), encoding="utf-8")
    roster = ["submission,student,email,id,section"] + [
        f"{folder_name(user)},{name},{user}@uni.example,{number},A"
        for number, (user, name) in enumerate([("alice", "Alice Liddell"), ("bob", "=Bob"), ("carol", "张伟"),
                                               ("dave", "Dave"), ("erin", "Erin"), ("frank", "Frank")], 1001)]
    (where / "roster.csv").write_text("\n".join(roster) + "\n", encoding="utf-8")
    (where / "extensions.csv").write_text(f"email,deadline\ncarol@uni.example,{EXTENDED}\n", encoding="utf-8")
    return counted
