"""``grade.py batch DIR``: a gradebook for a folder of submissions, fast and safe.

Every subfolder of DIR is one submission: a whole repository (its ``katas/`` is graded) or
just the kata files. Only the submission's kata files are used; its own tests, conftest or
grade.py never are. The reference is observed once; each worker keeps a warm zygote (torch
imported) that forks a fresh process per submission, so a hostile submission costs only its
own points. A cache next to the gradebook skips submissions whose kata files did not change.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import queue
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import answer_key, integrity
from .catalog import ROOT, FunctionInfo
from .grading import Zygote, grade


@dataclass
class Submission:
    """One subfolder of the batch folder: where its kata files are, and what is notable."""
    name: str
    folder: Path
    katas: Path | None
    notes: list = field(default_factory=list)
    digest: str = ""


def find_katas(folder: Path) -> Path | None:
    """The folder holding a submission's kata files: its katas/, or itself."""
    if (folder / "katas").is_dir():
        return folder / "katas"
    if any(folder.glob("k[0-9][0-9]_*.py")):
        return folder
    return None


def _digest(folder: Path, notes: list) -> str:
    hasher = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        hasher.update(path.name.encode() + b"\0")
        try:
            hasher.update(path.read_bytes())
        except OSError as error:
            notes.append(f"unreadable: {path.name} ({error.strerror})")
            hasher.update(b"<unreadable>")
    return hasher.hexdigest()


def collect(directory: Path) -> list[Submission]:
    """The submissions in ``directory``, with what is notable about each."""
    mine = integrity.grading_files(ROOT)
    found = []
    for folder in sorted(p for p in directory.iterdir() if p.is_dir() and not p.name.startswith(".")):
        submission = Submission(folder.name, folder, find_katas(folder))
        if submission.katas is None:
            submission.notes.append("no katas/ folder and no kNN_*.py files")
            found.append(submission)
            continue
        submission.digest = _digest(submission.katas, submission.notes)
        if submission.katas != folder:   # a whole repository: say if its grading files differ (they are not used)
            theirs = integrity.grading_files(folder)
            changed = sorted(name for name, digest in theirs.items() if mine.get(name) != digest)
            if changed:
                submission.notes.append("its own grading files differ (ignored): " + ", ".join(changed))
        found.append(submission)
    return found


def _state_digest() -> str:
    """What the gradebook depends on besides the submissions: tests, curriculum, harness, reference."""
    key = answer_key.load()
    parts = [answer_key.kata_digest(kata) for kata in sorted(key.katas)] if key else []
    return hashlib.sha256("".join(parts + [answer_key.reference_digest()]).encode()).hexdigest()


class Progress:
    """A progress bar with an ETA on standard error."""

    def __init__(self, total: int, stream=sys.stderr):
        self.total, self.done, self.started, self.stream = total, 0, time.monotonic(), stream
        self.lock = threading.Lock()

    def step(self, name: str) -> None:
        """Count one more submission done and redraw the bar."""
        with self.lock:
            self.done += 1
            elapsed = time.monotonic() - self.started
            eta = elapsed / self.done * (self.total - self.done)
            width = 30
            filled = round(width * self.done / self.total)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
                              f"  ETA {eta:4.0f} s  {name[:30]:<30}")
            if self.done == self.total:
                self.stream.write("\n")
            self.stream.flush()


def row_for(submission: Submission, functions: list[FunctionInfo], verdicts: dict | None) -> dict:
    """The gradebook row of a submission (all zeros when it could not be graded)."""
    row = {"submission": submission.name, "score": 0, "max_score": sum(f.points for f in functions)}
    for info in functions:
        passed = verdicts is not None and verdicts[info.qualified].status == "passed"
        row[info.qualified] = info.points if passed else 0
        row["score"] += row[info.qualified]
    row["notes"] = "; ".join(submission.notes)
    return row


def run_batch(directory: Path, out: Path, functions: list[FunctionInfo], expected, *, jobs: int,
              function_timeout: float, log=sys.stderr) -> list[dict]:
    """Grade every submission in ``directory`` (reusing unchanged results) and write ``out``.
    ``expected()`` gives the reference's observations; it is called only if something needs grading."""
    submissions = collect(directory)
    cache_path = out.with_name(out.name + ".cache.json")
    state = _state_digest()
    try:
        cache = json.loads(cache_path.read_text())
        cached = cache["rows"] if cache.get("state") == state else {}
    except (OSError, ValueError, KeyError):
        cached = {}
    rows, todo = {}, queue.Queue()
    for submission in submissions:
        for note in submission.notes:
            print(f"{submission.name}: {note}", file=log)
        previous = cached.get(submission.name)
        if submission.katas is None:
            rows[submission.name] = row_for(submission, functions, None)
        elif previous and previous["digest"] == submission.digest:
            rows[submission.name] = previous["row"]
        else:
            todo.put(submission)
    graded = todo.qsize()
    reused = sum(1 for s in submissions if s.katas is not None) - graded
    progress = Progress(todo.qsize(), log) if todo.qsize() else None
    if todo.qsize():
        expected = expected()
    lock = threading.Lock()

    def work() -> None:
        zygote = None
        try:
            while True:
                try:
                    submission = todo.get_nowait()
                except queue.Empty:
                    return
                zygote = zygote or Zygote()
                result = grade(functions, submission.katas, expected=expected, spawn=zygote.fork,
                               function_timeout=function_timeout)
                with lock:
                    rows[submission.name] = row_for(submission, functions, result.verdicts)
                progress.step(submission.name)
        finally:
            if zygote:
                zygote.stop()

    workers = [threading.Thread(target=work) for _ in range(max(1, min(jobs, todo.qsize())))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    ordered = [rows[s.name] for s in submissions]
    _write(out, ordered, functions)
    cache_path.write_text(json.dumps({"state": state, "rows": {
        s.name: {"digest": s.digest, "row": rows[s.name]} for s in submissions if s.katas is not None}}))
    print(f"{len(submissions)} submissions: {graded} graded, {reused} unchanged (results reused), "
          f"{len(submissions) - graded - reused} without katas -> {out}", file=log)
    return ordered


def _write(out: Path, rows: list[dict], functions: list[FunctionInfo]) -> None:
    if out.suffix == ".json":
        out.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
        return
    columns = ["submission", "score", "max_score"] + [f.qualified for f in functions] + ["notes"]
    with open(out, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)


def default_jobs() -> int:
    """As many workers as CPUs."""
    return os.cpu_count() or 1
