"""``grade.py batch DIR``: a gradebook for a folder of submissions, fast, and safe from each of them.

Every subfolder of DIR is one submission: a whole repository (its ``katas/`` is graded) or
just the kata files. Before any learner code runs, the parent reads each submission's kata
files itself: only regular files named after a kata, size-capped, inside the submission folder
(no symbolic links, devices or FIFOs). Its own tests, conftest or grade.py never run.

Each worker grades one kata file at a time: it copies that file alone into a private staging
folder, which is all of the submissions its sandbox sees (read-only). On Linux a warm zygote forks
a fresh process for every kata of every submission and kills all it left behind before the next;
elsewhere each submission gets a fresh child. So whatever one submission does (crash, kill, forge
events, write files), every other row is what it would be alone. A kata job can therefore depend
on nothing a submission controls but its own kata file, so a kata file already graded in this run
(the same bytes for the same kata, such as an untouched stub) is not run again (``GradedKatas``).
A kata job whose zygote died under it (something outside the job ended it) is graded again on a
fresh zygote, up to ``ZYGOTE_RETRIES`` times, rather than charged; a job the kernel stopped at
its memory limit is a note on its row. The gradebook and its cache are written atomically, the
cache keyed by everything that can change a verdict and holding only rows whose every job ended
normally (an interrupted, retried or crashed one is graded again next time); CSV cells are
neutralised against formula injection and the CSV starts with a UTF-8 byte order mark, so
spreadsheets show Chinese names.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import queue
import re
import shutil
import stat
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path

from ..api import LaneFactory
from ..content.curriculum import FunctionInfo
from ..files import digest, read_regular, write_atomically
from ..isolation import repository, sandbox
from ..isolation.channel import Lane, can_fork, learner_lane
from ..isolation.processes import RUN_AS_VARIABLE
from ..judging import integrity
from ..judging.expectations import Recorded
from ..judging.judge import ZYGOTE_RETRIES, grade
from ..judging.verdicts import Verdict
from ..layout import Layout
from ..outputs import gradebook
from ..outputs.gradebook import GRADEBOOK_LIMIT
from ..outputs.progress import Progress
from ..term import identity, shared
from ..term import plan as term
from ..term.record import Submitted, time_text

KATA_FILE_LIMIT = 1 << 20     # bytes in one submitted kata file
_KATA_NAME = re.compile(r"^k\d\d_\w+\.py$")


@dataclass
class Submission:
    """One subfolder of the batch folder: its kata files (read up front), and what is notable.
    ``name`` is the folder's name made safe to show and to write (see ``shown_name``)."""
    name: str
    folder: Path
    files: dict | None = None           # file name -> bytes; None when there is nothing to grade
    notes: list = field(default_factory=list)
    digest: str = ""
    submitted: Submitted | None = None   # the instructor's record's submission it is (``--record``)
    # Whether every job of its grading ended normally (else its row is never cached).
    graded_normally: bool = True


def shown_name(name: str) -> str:
    """A file or folder name as text that every output can hold: bytes that are not UTF-8
    (``\\xff``) and control characters (a line break in a folder's name) are written as escapes."""
    raw = os.fsencode(name).decode("utf-8", "backslashreplace")
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in raw)


def _is_real_folder(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def find_katas(folder: Path) -> Path | None:
    """The folder holding a submission's kata files: its katas/ (never through a link), or itself."""
    if _is_real_folder(folder / "katas"):
        return folder / "katas"
    try:
        names = [entry.name for entry in folder.iterdir()]
    except OSError:
        return None
    return folder if any(_KATA_NAME.match(n) for n in names) else None


def read_submission(submission: Submission, katas: set[str], at: str | None = None,
                    plan: term.TermPlan | None = None, *, project: Layout | None = None) -> None:
    """Read the submission's kata files into memory, noting every file that is refused; with
    ``at`` (a tag or a date), from its git repository at that point (``repository``); with the
    instructor's record (``plan.record``), the submission it names (``_read_recorded``). A whole
    repository's grading files are compared with ``project``'s (the tree grading it; None: not compared)."""
    if plan is not None and plan.record is not None:
        _read_recorded(submission, katas, at, plan, project)
        return
    if at is not None:
        _read_at(submission, katas, at)
        return
    where = find_katas(submission.folder)
    if where is None:
        if (submission.folder / "katas").is_symlink():
            submission.notes.append("katas is a symbolic link (not followed)")
        submission.notes.append("no katas/ folder and no kNN_*.py files")
        return
    try:
        names = sorted(entry.name for entry in where.iterdir())
    except OSError as error:
        submission.notes.append(f"{where.relative_to(submission.folder).as_posix()}/ cannot be read "
                                f"({error.strerror or error})")
        return
    submission.files = _read_kata_files(submission, where, [n for n in names if _KATA_NAME.match(n) and n[:-3] in katas])
    submission.digest = digest(submission.files.items())
    if where != submission.folder and project is not None:
        _note_changed_grading_files(submission, project)   # a whole repository's: they are not used


def _read_kata_files(submission: Submission, where: Path, names: list[str]) -> dict[str, bytes]:
    """The named kata files' bytes; each one that cannot be read is a note instead."""
    files = {}
    for name in names:
        try:
            files[name] = read_regular(where / name, KATA_FILE_LIMIT)
        except OSError as error:
            why = error.strerror or str(error).replace(f"{where / name} ", "")
            submission.notes.append(f"unreadable: {name} ({why})")
    return files


def _note_changed_grading_files(submission: Submission, project: Layout) -> None:
    """Note the grading files of a whole-repository submission that differ from ours (they are not used)."""
    theirs = integrity.grading_files(submission.folder)
    unread = [f"{shown_name(name)[:80]} ({why})" for name, why in theirs.items() if name.endswith(("/", "/..."))]
    if unread:
        submission.notes.append("not compared with the grading files (not read): " + ", ".join(unread[:3]))
    mine = integrity.grading_files(project.root)
    changed = sorted(shown_name(name) for name, digest in theirs.items()
                     if mine.get(name) != digest and not name.endswith(("/", "/...")))
    if changed:
        shown = ", ".join(changed[:10]) + (f" and {len(changed) - 10} more" if len(changed) > 10 else "")
        submission.notes.append("its own grading files differ (ignored): " + shown)


def _read_at(submission: Submission, katas: set[str], at: str) -> None:
    """The kata files of the submission's repository at the tag or date ``at``, read from git."""
    try:
        point = repository.resolve(submission.folder, at)
    except repository.GitError as problem:
        submission.notes.append(str(problem))
        return
    _read_point(submission, katas, point)


def _read_point(submission: Submission, katas: set[str], point: repository.Point) -> bool:
    """The kata files of ``point``'s commit, read from git into ``submission``; False (and a note)
    where git cannot read them."""
    try:
        files, notes = repository.kata_files(submission.folder, point, katas, KATA_FILE_LIMIT)
    except repository.GitError as problem:
        submission.notes.append(str(problem))
        return False
    submission.notes += [point.note(), *notes]
    if not files:
        submission.notes.append("no kNN_*.py files in that commit (in katas/ or at its top)")
    submission.files = files
    submission.digest = digest(files.items())
    return True


def _read_recorded(submission: Submission, katas: set[str], at: str | None, plan: term.TermPlan,
                   project: Layout | None = None) -> None:
    """The kata files of the submission the instructor's record names for this folder: by a tag
    (``--at TAG``), only if the record names the commit it points to; else the last one the record
    lists by the deadline (or the last late cutoff; with no deadline, the last one), from git at the
    commit the record names, or from the folder as it is where the record names no commit. A commit
    the record does not name is never graded, whatever the repository's tags and dates say."""
    assert plan.record is not None
    if owners := plan.record.clash(submission.name):
        submission.notes.append(identity.clash_note(owners[0], owners[1:], f"owners in the record {plan.record.source}")
                                + f" ({plan.record.clash_lines(submission.name)})")
        return
    if not plan.record.of(submission.name):
        submission.notes.append(f"no submission in the record {plan.record.source}: not graded")
        return
    point = None
    if at is not None and not repository.is_date(at):
        try:
            point = repository.resolve(submission.folder, at)
        except repository.GitError as problem:
            submission.notes.append(str(problem))
            return
        chosen = plan.record.naming(submission.name, point.commit)
        if chosen is None:
            submission.notes.append(f"{point.named} is commit {point.commit[:12]}, which the record "
                                    f"{plan.record.source} does not name: not graded")
            return
    else:
        chosen = plan.counted(submission.name)
        if chosen is None:
            until = time_text(plan.policy.last_accepted(submission.name)) if plan.policy else "now"
            submission.notes.append(f"no submission in the record {plan.record.source} by {until}: not graded")
            return
    submission.submitted = chosen
    submission.notes.append(chosen.note())
    if chosen.commit is None:
        read_submission(submission, katas, project=project)   # the record names no commit: the folder is what was handed in
        return
    _read_recorded_commit(submission, katas, chosen, point)


def _read_recorded_commit(submission: Submission, katas: set[str], chosen: Submitted,
                          point: repository.Point | None) -> None:
    """The kata files at the commit the record names (refused, with a note, where the repository
    does not hold exactly that commit)."""
    if point is None:
        try:
            point = repository.recorded(submission.folder, str(chosen.commit),
                                        f"the record's submission of {time_text(chosen.at)}")
        except repository.GitError as problem:
            submission.notes.append(str(problem))
    if point is None or not _read_point(submission, katas, point):
        submission.submitted = None


def collect(directory: Path, katas: set[str], at: str | None = None,
            plan: term.TermPlan | None = None, *, project: Layout | None = None) -> list[Submission]:
    """The submissions in ``directory`` (real folders only), with their kata files read (with ``at``,
    from git at that tag or date; with ``plan``, only its shard's, as its record names them; a whole
    repository's grading files compared with ``project``'s, see ``read_submission``).
    Whatever goes wrong while reading one (a folder nobody may open, one nested a thousand levels
    deep, anything raised) is a note on its row, and the others are read as usual."""
    found = []
    entries = sorted(os.listdir(directory))   # noqa: PTH208 (names as the folder holds them, undecodable bytes included)
    clashing = identity.clashes((e for e in entries if not e.startswith(".")), shown=shown_name)
    for entry in entries:
        folder = directory / entry
        if entry.startswith(".") or (plan is not None and not plan.keeps(entry)):
            continue
        if entry in clashing:   # two folders, one student: nothing says which is theirs
            found.append(Submission(entry, folder, notes=[identity.clash_note(entry, clashing[entry])]))
            continue
        if folder.is_symlink():
            found.append(Submission(entry, folder, notes=["a symbolic link, not a folder (not graded)"]))
            continue
        if not _is_real_folder(folder):
            continue
        submission = Submission(entry, folder)
        try:
            read_submission(submission, katas, at, plan, project=project)
        except Exception as error:   # a submission must never stop the gradebook
            submission.files = None
            submission.notes.append(f"could not be read ({type(error).__name__}: {error})")
        found.append(submission)
    return _named_safely(found)


def _named_safely(submissions: list[Submission]) -> list[Submission]:
    """Every submission's name and notes as ``shown_name`` writes them. A name that two folders
    would be shown by is nobody's (both are refused, see ``collect``): each gets a number that
    no other folder's name has, so that no folder takes a classmate's row by sorting first."""
    shown = [shown_name(submission.name) for submission in submissions]
    counts = Counter(shown)
    taken = {identity.key(name) for name in shown}
    for submission, base in zip(submissions, shown):
        name, number = base, 1
        while counts[base] > 1 and identity.key(name) in taken:
            name, number = f"{base} ({number})", number + 1
        taken.add(identity.key(name))
        submission.name = name
        submission.notes = [shown_name(note) for note in submission.notes]
    return submissions


def _to_digits(value):
    """``value`` with every float written to 9 significant digits: a solver's last bit may differ
    from one run of the reference to the next (its vector code depends on how memory is aligned),
    which changes no verdict (the judge compares with tolerances far wider) and must not drop the cache."""
    if isinstance(value, float):
        return f"{value:.9g}"
    if isinstance(value, dict):
        return {key: _to_digits(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_to_digits(item) for item in value]
    return value


def state_digest(expected: dict, function_timeout: float, sandboxed: bool, project: Layout) -> str:
    """Everything besides a submission that can change its verdicts: ``project``'s harness, kata
    specs and curriculum, the expected observations, the time limit, the sandbox, Python and torch."""
    root = project.root
    sources = [(path.relative_to(root).as_posix(), path.read_bytes()) for folder in ("kata_harness", "tests", "curriculum")
               for path in sorted((root / folder).rglob("*.py" if folder != "curriculum" else "*.toml"))]
    try:
        torch_version = version("torch")
    except Exception:
        torch_version = "?"
    state = json.dumps([_to_digits(expected), function_timeout, sandboxed, platform.python_version(), torch_version],
                       sort_keys=True, default=str).encode()
    return digest([*sources, ("state", state)])


def row_for(submission: Submission, functions: list[FunctionInfo], verdicts: dict | None,
            project: Layout | None = None) -> dict:
    """The gradebook row of a submission (``gradebook.row``; all zeros when it could not be graded),
    with the ``fingerprints`` of its kata files (``term.shared``; ``project``, the tree grading it,
    is needed then: a file that is still its stub is no solution)."""
    row = gradebook.row(submission.name, submission.notes, functions, verdicts)
    if submission.files is not None:
        assert project is not None, "a submission with kata files needs the project's stubs"
        row["fingerprints"] = shared.fingerprints(submission.files, _stub_fingerprints(project.katas))
    return row


@functools.lru_cache(maxsize=4)
def _stub_fingerprints(katas: Path) -> dict[str, str]:
    """The fingerprints of the stubs in ``katas``: a kata file that is still the stub is no solution."""
    return shared.stub_fingerprints(katas)


class GradedKatas:
    """The verdicts of every kata file this run has graded, by kata and content, shared by the
    workers: a kata file already graded (the same bytes for the same kata) is not run again, and
    one that another worker is grading is waited for rather than graded twice at once.

    Sound only where each kata runs alone: in a process freshly forked from a zygote no job can
    change, seeing no file of the submission but its own (``_Worker.stage`` stages one at a
    time). Then nothing another submission controls can reach the job, and its verdicts follow
    from those bytes, which the key holds. A grading that was interrupted (a hang, a crash, a
    protocol violation) is never kept: what decided it was how a process ended, so each submission
    holding that file is graded afresh."""

    def __init__(self):
        self._verdicts: dict[tuple[str, str | None], dict[str, Verdict]] = {}
        self._grading: dict[tuple[str, str | None], threading.Event] = {}   # being graded by a worker now
        self._lock = threading.Lock()

    @staticmethod
    def _key(kata: str, data: bytes | None) -> tuple[str, str | None]:
        return kata, None if data is None else hashlib.sha256(data).hexdigest()

    def claim(self, kata: str, data: bytes | None) -> dict[str, Verdict] | None:
        """The verdicts of ``kata``'s functions for the file ``data`` (None: no such file), if graded;
        else None, and the caller grades it and then calls ``release``. While another worker grades
        the same file, this waits for its verdicts (or, if that grading is not kept, for the turn)."""
        key = self._key(kata, data)
        while True:
            with self._lock:
                if key in self._verdicts:
                    return self._verdicts[key]
                underway = self._grading.get(key)
                if underway is None:
                    self._grading[key] = threading.Event()
                    return None
            underway.wait()

    def release(self, kata: str, data: bytes | None, verdicts: dict[str, Verdict] | None) -> None:
        """The claimed file is graded: keep its ``verdicts`` (None: nothing to keep, the grading was
        interrupted or failed) and let whoever waits for it go on."""
        key = self._key(kata, data)
        with self._lock:
            if verdicts is not None:
                self._verdicts[key] = verdicts
            self._grading.pop(key).set()


class _Worker:
    """One grading lane: a private staging folder, and a zygote where forking is safe (it forks a
    fresh process for every kata of every submission); elsewhere a fresh child per submission."""

    def __init__(self, sandboxed: bool, lanes: LaneFactory = learner_lane, *, project: Layout):
        self.staging = Path(tempfile.mkdtemp(prefix="kata-batch-"))
        if os.environ.get(RUN_AS_VARIABLE):
            self.staging.chmod(0o711)   # the learner user (KATA_RUN_AS) opens its files by name
        self.sandboxed, self.lanes = sandboxed, lanes
        # The lanes run the harness and kata specs of the project grading.
        self.options = {"project": project}
        # Where forking is safe, the lane is a zygote that forks a fresh process per kata job.
        self.zygote = lanes(self.staging, sandboxed=sandboxed, **self.options) if can_fork() else None

    def start(self) -> None:
        """Start the zygote now (it imports torch while the caller goes on)."""
        if self.zygote is not None:
            self.zygote.start()

    def lane(self) -> Lane:
        """Where one submission's katas run: the worker's zygote, or a child of its own."""
        if self.zygote is not None:
            return self.zygote
        return self.lanes(self.staging, sandboxed=self.sandboxed, **self.options)

    def stage(self, files: dict) -> None:
        """Replace the staging folder's contents with ``files`` (name -> bytes): one kata file, or
        none. The job before has ended and left no process behind (the zygote reports a job's end
        after its clear-up), or, cut short, was stopped with its zygote (a job dies with its
        zygote), so no job is left to see the next kata's file."""
        for entry in self.staging.iterdir():
            entry.unlink()
        for name, data in files.items():
            (self.staging / name).write_bytes(data)

    def close(self) -> None:
        """Stop the zygote and remove the staging folder."""
        if self.zygote is not None:
            self.zygote.stop()
        shutil.rmtree(self.staging, ignore_errors=True)


def run_batch(directory: Path, out: Path, functions: list[FunctionInfo], expected, *, project: Layout, jobs: int,
              function_timeout: float, sandboxed: bool, log=sys.stderr, extras: dict | None = None,
              at: str | None = None, lanes: LaneFactory = learner_lane, plan: term.TermPlan | None = None,
              official: bool = False) -> list[dict]:
    """Grade every submission in ``directory`` (reusing unchanged results) and write ``out``, with
    ``project``'s harness, kata specs and stubs (``GradingRun.project``, the tree grading them).
    ``expected()`` gives the expected observations; it is called only if something needs grading.
    ``extras``: the hidden cases of official grading (``expected()`` holds their observations too).
    ``at``: a tag or a date; each submission is then its git repository's kata files at that point.
    ``lanes``: makes each worker's lane (``api.Processes.lanes``). ``plan``: the term's part (the
    roster, the instructor's record and late policy, the shard: ``term.plan``). ``official``:
    whether the rows are the official grade (the hidden cases, with the secret)."""
    plan = plan or term.TermPlan()
    submissions = collect(directory, {f.kata for f in functions}, at, plan, project=project)
    rows: dict[str, dict] = {}
    with_katas = []
    for submission in submissions:
        for note in submission.notes:
            print(f"{submission.name}: {note}", file=log)
        if submission.files is None:
            rows[submission.name] = row_for(submission, functions, None, project)
        else:
            with_katas.append(submission)
    # The workers' zygotes import torch while the expected results are collected, unless the last
    # run's cache seems to hold every submission as it is now (then they would likely start for nothing).
    cache = _read_cache(out)
    seen = _cached_digests(cache)
    unseen = [s for s in with_katas if s.digest not in seen]
    workers = [_Worker(sandboxed, lanes, project=project) for _ in range(max(0, min(jobs, len(unseen))))]
    try:
        for worker in workers:
            worker.start()
        table = expected() if with_katas else {}
        state = state_digest(table, function_timeout, sandboxed, project) if with_katas else None
        cached = _cached_rows(cache, state)
        todo = []
        for submission in with_katas:
            previous = cached.get(submission.name)
            if isinstance(previous, dict) and previous.get("digest") == submission.digest:
                rows[submission.name] = {**previous["row"], "notes": "; ".join(submission.notes)}
            else:
                todo.append(submission)
        rows.update(_grade_in_parallel(todo, functions, table, jobs=jobs, function_timeout=function_timeout,
                                       sandboxed=sandboxed, log=log, extras=extras, workers=workers, lanes=lanes,
                                       project=project))
    finally:
        for worker in workers:
            worker.close()
    stamp = _stamp(rows, official, project)
    ordered = term.finish(plan, [rows[s.name] for s in submissions], {s.name: s.submitted for s in submissions},
                          functions, stamp)
    write_atomically(out, gradebook.encode(out, ordered, functions))
    if state is not None:   # only rows whose every job ended normally: any other is graded again next time
        write_atomically(_cache_path(out), json.dumps({"state": state, "rows": {
            s.name: {"digest": s.digest, "row": rows[s.name]} for s in with_katas if s.graded_normally}}).encode())
    reused = len(with_katas) - len(todo)
    plural = "" if len(submissions) == 1 else "s"
    print(f"{len(submissions)} submission{plural}: {len(todo)} graded, {reused} unchanged (results reused), "
          f"{len(submissions) - len(with_katas)} without katas -> {out}", file=log)
    return ordered


def _stamp(rows: dict[str, dict], official: bool, project: Layout) -> dict:
    """Give each row graded in this run how it was graded (``term.provenance``: when, by which
    commit of ``project``, official or practice; a row from the cache keeps its own); returns that stamp."""
    stamp = term.provenance(official, project.root)
    for name, row in rows.items():
        if "graded_at" not in row:
            rows[name] = {**row, **stamp}
    return stamp


def _cache_path(out: Path) -> Path:
    return out.with_name(out.name + ".cache.json")


def _read_cache(out: Path) -> dict:
    """The last run's cache beside ``out`` (``{"state": ..., "rows": {name: {"digest", "row"}}}``),
    or an empty one where there is none or it is not such a table."""
    try:
        cache = json.loads(read_regular(_cache_path(out), GRADEBOOK_LIMIT))
    except (OSError, ValueError):
        return {}
    rows = cache.get("rows") if isinstance(cache, dict) else None
    return cache if isinstance(rows, dict) else {}


def _cached_digests(cache: dict) -> set[str]:
    """The digests of the submissions the last run's ``cache`` holds, whatever it graded them with."""
    return {row["digest"] for row in cache.get("rows", {}).values()
            if isinstance(row, dict) and isinstance(row.get("digest"), str)}


def _cached_rows(cache: dict, state: str | None) -> dict:
    """The rows of the last run's ``cache``, if it graded in the same ``state`` (else none can be reused)."""
    if state is None or cache.get("state") != state:
        return {}
    return cache["rows"]


def _grade_in_parallel(todo: list[Submission], functions: list[FunctionInfo], table: dict, *, jobs: int,
                       function_timeout: float, sandboxed: bool, log, extras: dict | None,
                       workers: Sequence[_Worker] = (), lanes: LaneFactory = learner_lane,
                       project: Layout) -> dict[str, dict]:
    """The gradebook rows of the ``todo`` submissions, graded by ``jobs`` workers (each with its own
    zygote and staging folder; ``workers`` already made are used first, and left to the caller to close)."""
    rows: dict[str, dict] = {}
    if not todo:
        return rows
    waiting: queue.Queue[Submission] = queue.Queue()
    for submission in todo:
        waiting.put(submission)
    progress = Progress(len(todo), log)
    lock = threading.Lock()
    # Identical kata files give identical verdicts only where every kata runs in a fresh fork.
    graded = GradedKatas() if can_fork() else None

    def work(given: _Worker | None) -> None:
        worker = given or _Worker(sandboxed, lanes, project=project)
        try:
            for submission in _each(waiting):
                row = _graded_row(submission, worker, functions, table, function_timeout, extras, graded, project)
                with lock:
                    rows[submission.name] = row
                progress.step(submission.name)
        finally:
            if given is None:
                worker.close()

    count = max(1, min(jobs, len(todo)))
    threads = [threading.Thread(target=work, args=(workers[n] if n < len(workers) else None,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for submission in todo:   # a worker that could not start leaves its submissions to be noted
        if submission.name not in rows:
            submission.graded_normally = False
            submission.notes.append("not graded: the grader failed (see its output)")
            rows[submission.name] = row_for(submission, functions, None, project)
    return rows


def _each(waiting: queue.Queue):
    """The items of ``waiting``, taken one by one until none is left (by several threads at once)."""
    while True:
        try:
            yield waiting.get_nowait()
        except queue.Empty:
            return


def _graded_row(submission: Submission, worker: _Worker, functions: list[FunctionInfo], table: dict,
                function_timeout: float, extras: dict | None, graded: GradedKatas | None,
                project: Layout | None = None) -> dict:
    """The row of one submission, graded kata by kata in ``worker``'s lane (each kata file staged
    alone), or taken from ``graded`` where the same file was graded already; whatever goes wrong
    while grading it (anything raised) is a note on its row, with no points, and the worker goes on.
    A kata whose grading did not end normally marks the submission so (``graded_normally``)."""
    assert submission.files is not None   # only submissions with kata files are queued
    lane = worker.lane()
    verdicts: dict[str, Verdict] = {}
    try:
        for kata in dict.fromkeys(f.kata for f in functions):
            data = submission.files.get(f"{kata}.py")
            known = graded.claim(kata, data) if graded is not None else None
            if known is None:
                done = _graded_kata(kata, data, worker, lane, [f for f in functions if f.kata == kata], table,
                                    function_timeout, extras, graded)
                known = done.verdicts
                submission.graded_normally &= done.normally
                submission.notes += [f"{kata}: {note}" for note in done.notes]
            verdicts.update(known)
        return row_for(submission, functions, verdicts, project)
    except Exception as error:
        if worker.zygote is not None:
            worker.zygote.stop()   # it may be in the middle of a job: the next submission gets a new one
        submission.graded_normally = False
        submission.notes.append(shown_name(f"not graded: {type(error).__name__}: {error}"))
        return row_for(submission, functions, None, project)
    finally:
        if lane is not worker.zygote:
            lane.stop()


@dataclass
class _KataGrading:
    """One kata file's verdicts, whether every job of its grading ended normally, and its notes."""
    verdicts: dict
    normally: bool
    notes: list


def _graded_kata(kata: str, data: bytes | None, worker: _Worker, lane: Lane, functions: list[FunctionInfo],
                 table: dict, function_timeout: float, extras: dict | None, graded: GradedKatas | None) -> _KataGrading:
    """The verdicts of one kata's ``functions`` for its file ``data`` (None: the submission has none),
    staged alone and graded in ``lane``; kept in ``graded`` (claimed by the caller) only if every
    job ended normally. A grading during which a job's zygote died under it is done again on a
    fresh zygote (at most ``ZYGOTE_RETRIES`` times): what ended it was outside the job."""
    kept = None
    try:
        worker.stage({} if data is None else {f"{kata}.py": data})
        notes = []
        for attempt in range(ZYGOTE_RETRIES + 1):
            deaths, stops = getattr(lane, "deaths", 0), getattr(lane, "memory_stops", 0)
            result = grade(functions, worker.staging, Recorded(table), lane=lane, function_timeout=function_timeout,
                           extras=extras)
            died = getattr(lane, "deaths", 0) > deaths
            if getattr(lane, "memory_stops", 0) > stops:
                notes.append(f"a job was stopped at the memory limit ({sandbox.memory_limit() / (1 << 30):g} GiB)")
            if not died:
                break
            notes.append("its grading process died under a job" + ("; graded again on a fresh one"
                                                                      if attempt < ZYGOTE_RETRIES else ""))
        normally = not result.interrupted and not died and attempt == 0
        kept = result.verdicts if normally else None
        return _KataGrading(result.verdicts, normally, list(dict.fromkeys(notes)))
    finally:
        if graded is not None:
            graded.release(kata, data, kept)


def default_jobs() -> int:
    """As many workers as CPUs."""
    return os.cpu_count() or 1


def expected_table(source, functions: list[FunctionInfo], log=sys.stderr) -> dict:
    """The expected observations of ``functions`` from an ``expectations`` source, for
    ``run_batch``'s ``expected()``; a function without them is named on ``log`` (and graded as an error)."""
    table = {}
    for info, outcome in source.collect(list(functions), float("inf")):
        if isinstance(outcome, dict):
            table[info.qualified] = outcome
        else:
            print(f"batch: no expected result for {info.qualified}", file=log)
    return table
