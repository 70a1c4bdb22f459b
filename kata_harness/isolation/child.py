"""The grading child: the only process of grade.py that runs learner code.

grade.py runs two kinds side by side. A referee observes the reference solutions and never sees
learner code; a learner child observes the solutions (under bubblewrap where available) and
never loads the reference (``import reference`` fails there, and the sandbox does not even show
the folder). Both stream plain-data events to the parent (see ``channel``); the parent judges,
keeps the score and survives whatever happens here.

What each job sends, in which order, is ``protocol.Kind``'s to say: this module only speaks it.

A zygote's jobs reach neither each other nor the zygote (``_serve_forks``): where the kernel
allows it, the zygote lives in a user and pid namespace of its own, and each job is the first
process of a fresh pid namespace (it cannot name any process outside, so it can signal, limit,
renice or trace none), with a user and an IPC namespace and a session keyring of its own, in the
jobs' memory cgroup. Whatever such a job could still change in its zygote from outside (its
limits, scheduling, cgroup: ``processes.settings``) is compared after every job, and a zygote
that finds a change retires.
"""

from __future__ import annotations

import builtins
import gc
import json
import os
import select
import signal
import sys
import tempfile
import threading
from pathlib import Path

from ..layout import Layout
from . import processes, sandbox
from .protocol import LINE_LIMIT, OUTPUT_MARK, Kind, Mode, Order

_SPECS: dict = {}   # kata -> its spec, loaded by a zygote before it forks its jobs


class _ReferenceGuard:
    """Refuses ``import reference`` from learner code (the answer is not theirs to import)."""

    def find_spec(self, name, path=None, target=None):
        if name == "reference" or name.startswith("reference."):
            raise ImportError(f"importing `{name}` is not allowed while grading: write your own solution "
                              f"/ 评分时不允许导入 `{name}`：请自己完成")
        return


class _Channel:
    """Writes events as JSON lines to a stream that learner output does not go to."""

    def __init__(self, stream, job):
        self.stream = stream
        self.job = job

    def __call__(self, event: Kind, **fields) -> None:
        line = json.dumps({"event": event, "job": self.job, **fields}, allow_nan=True) + "\n"
        try:
            self.stream.write(line.encode("utf-8", "replace"))
        except (OSError, ValueError):
            os._exit(3)   # the parent is gone, or learner code closed the channel


def _private_streams():
    """Move the event stream off fd 1 and the job stream off fd 0, point fds 1 and 2 at the output
    pipe (standard error) and fd 0 at the null device: learner code that prints writes to the
    output, one that waits for input gets end-of-file at once. Returns (events, jobs)."""
    events = os.fdopen(os.dup(1), "wb", buffering=0)
    jobs = os.fdopen(os.dup(0), "rb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    return events, jobs


def main(argv: list[str], root: str) -> None:
    """Entry point; ``root`` is the project the parent grades (whose kata specs every job uses:
    the folder this harness was imported from, as ``channel.CHILD_CODE`` names it), ``argv`` holds
    flags: --warm, --zygote, --serial, --sandboxed, and --job-memory FOLDER (a zygote's: the memory
    cgroup its jobs run in, see ``sandbox.JobMemory``)."""
    # First, while this is one thread that has imported nothing: a zygote moves into namespaces of
    # its own (the process that started it stays behind, waiting for it), so as to fork each job
    # into a pid namespace of the job's own.
    was_root = hasattr(os, "geteuid") and os.geteuid() == 0
    own_namespaces = "--zygote" in argv and processes.enter_zygote_namespaces()
    events, jobs = _private_streams()
    # A process limit counts every process of the user on the machine once this is not root in
    # the first user namespace: for root in a namespace of its own, the pid namespaces bound them.
    sandbox.apply_limits(count_processes=not (own_namespaces and was_root))
    # No process of the same user may read or write this one's memory (a job forked from it, a
    # learner process beside it): /proc/PID/mem and ptrace need a dumpable process or a capability.
    processes.hide_from_same_user()
    if "--sandboxed" in argv:
        # Every folder in the sandbox is read-only, which tempfile.gettempdir() (called by torch's
        # lazy imports for the path of a cache it never writes here) would otherwise refuse.
        tempfile.tempdir = "/tmp"
    serves_learners = "--zygote" in argv or "--serial" in argv
    if serves_learners and not own_namespaces:
        # (A zygote in namespaces of its own keeps the capabilities it has in them, which reach
        # nothing outside them, to make each job's pid namespace; every job drops all it has.)
        processes.drop_capabilities()
    # Importing torch makes the garbage collector walk the young heap a few hundred times and find
    # next to nothing: a third of the time a zygote needs to be ready. It is off until the imports
    # and the warm-up are done, and on again before any learner code or reference runs. A zygote
    # frees nothing of that garbage (``prepare_to_fork``): freed all at once it would leave holes
    # all over the heap, which every job's allocations would then fill, copying page after page.
    gc.disable()
    tests = Layout(Path(root)).tests
    observing()   # imports torch, the slow part, once the streams and the limits are in place
    warm = "--warm" in argv or serves_learners
    if warm:
        observing().warm_up()
    if "--zygote" in argv:
        prepare_to_fork(tests)
    gc.enable()
    orders = _Orders(jobs.fileno())
    if "--zygote" in argv:
        memory = argv[argv.index("--job-memory") + 1] if "--job-memory" in argv[:-1] else None
        _serve_forks(events, jobs, orders, tests, "--sandboxed" in argv, own_namespaces, memory)
    elif "--serial" in argv:
        _serve_serially(events, orders, tests)
    else:
        job = orders.next_job()
        if job is None:
            os._exit(0)
        if job.get("mode") == Mode.LEARNER:
            processes.drop_capabilities()
            if not warm:
                # What torch loads on first use (a second or more on a busy machine) is loaded before
                # the first function's clock starts, so that it is never charged to a learner's function.
                observing().warm_up()
        _run_job(_Channel(events, job.get("job")), job, tests)
    os._exit(0)   # do not wait for threads learner code may have left running


def observing():
    """The observing room (``observation.local``): it imports torch, which a child loads only once
    its streams and limits are in place (``main``), so it is looked up when used."""
    from ..observation import local  # deferred: torch

    return local


def _serve_forks(events, jobs, orders: _Orders, tests: Path, sandboxed: bool, own_namespaces: bool = False,
                 memory_folder: str | None = None) -> None:
    """The zygote's loop: fork a fresh child per job, relay its events, then clear up after it. A
    job the parent cancels (it hangs, or broke the protocol) is killed, and the zygote goes on. A
    zygote whose own settings a job changed (``processes.settings``) reports that job's end, then
    answers the next job ``retired`` and ends, so the parent gives that job to a fresh zygote."""
    if not sandboxed:
        processes.become_subreaper()   # orphans of a job come back to us, to be killed
    forks = processes.JobForks(own_namespaces)
    memory = _job_cgroup(memory_folder)
    if memory is not None:
        memory.enter()   # before ``settings``: the cgroup it is in is one of them
    settings = processes.settings()
    gpu = sandbox.gpu_bound()   # the devices it was started with: each job's filter follows them
    processes.ready_to_fork_jobs(gpu)
    zygote = os.getpid()
    while (job := orders.next_job()) is not None:
        job_id = job.get("job")
        if orders.cancelled(job_id):   # cut short before it started: nothing to run
            _report_exit(events, job_id, int(signal.SIGKILL))
            continue
        # Marks where this job's output starts in the shared output pipe, so that a crash is
        # explained with its own output only (never an earlier job's).
        if str(job_id).isalnum():
            os.write(2, OUTPUT_MARK.format(job_id).encode())
        read_end, write_end = os.pipe()
        stops = memory.stops() if memory else 0
        pid = forks.fork()
        if pid == 0:
            os.close(read_end)
            _start_job(zygote, events, jobs, write_end, job, memory, tests, gpu)
        os.close(write_end)
        _relay(pid, read_end, events, orders, job_id)
        _, status = os.waitpid(pid, 0)
        _clear_up(pid, sandboxed, forks.own_pid_namespace)
        changed = changed_by_job(settings, forks)
        _report_exit(events, job_id, status, memory_limit=sandbox.memory_limit() if memory and memory.stops() > stops
                     else None, retiring=changed or None)
        if changed:
            following = orders.next_job()
            if following is not None:
                events.write(b"Z " + json.dumps({"event": Kind.RETIRED, "job": following.get("job")}).encode() + b"\n")
            return


def _job_cgroup(folder: str | None):
    """The jobs' memory cgroup (``sandbox.JobCgroup``), or None where there is none (each job then
    caps its address space instead)."""
    if folder is None:
        return None
    try:
        return sandbox.JobCgroup(folder)
    except OSError:
        return None


def _start_job(zygote: int, events, jobs, write_end: int, job: dict, memory, tests: Path, gpu: bool) -> None:
    """In a job just forked: cut every tie to the zygote and the jobs beside it, then run the job
    and end. Never returns."""
    events.close()
    jobs.close()   # the jobs still queued are not this job's to read
    prepare_job(zygote, memory, gpu)
    _run_job(_Channel(os.fdopen(write_end, "wb", buffering=0), job.get("job")), job, tests)
    os._exit(0)


def prepare_job(zygote: int, memory, gpu: bool) -> None:
    """In a job just forked from ``zygote``, before anything of the job runs: it dies with its
    zygote, leads a process group of its own, is in the jobs' memory cgroup (``memory``: born there,
    or moved in now; else caps its address space), takes namespaces (a network of its own among them) and a session keyring
    of its own, is the first process the kernel stops when the machine runs out of memory, gives up
    every capability, may hold only ``sandbox.OPEN_FILES_LIMIT`` files open (which bounds the pipe
    buffers it can fill) and can make no namespace, mount, socket, memory file or shared memory
    segment any more (``processes.restrict_system_calls``; with ``gpu``, memory files, shared memory
    and sockets stay allowed, as CUDA's driver needs them). The zygote has made all of it ready
    (``processes.ready_to_fork_jobs``). (``benchmarks/fork_cost.py`` measures what this costs.)"""
    # The first process of a pid namespace of its own (number 1) sees its parent outside as 0.
    processes.die_with_parent(0 if os.getpid() == 1 else zygote)
    os.setsid()   # its own process group, killed as a whole
    if memory is not None:
        memory.join()
    processes.first_to_go_out_of_memory()
    processes.isolate_job()
    processes.drop_capabilities()
    if memory is None:
        sandbox.limit_address_space(gpu)
    sandbox.limit_open_files()
    processes.restrict_system_calls(gpu=gpu)


def changed_by_job(settings: tuple, forks) -> bool:
    """In a zygote after a job has ended: clear what the job may have left in the IPC namespace
    and keyrings it shared (where it had none of its own), and say whether the job changed this
    zygote's ``settings`` (or left it unable to fork another), so that it must retire."""
    processes.clear_shared_objects()
    return forks.broken or processes.settings() != settings


def _report_exit(events, job_id, status: int, **notes) -> None:
    """Tell the parent that a job and all it started are gone (its wait status), with ``notes``
    where they apply: ``memory_limit`` (the kernel stopped the job at that many bytes), ``retiring``
    (the job changed this zygote, which serves no other)."""
    fields = {"event": Kind.EXITED, "job": job_id, "status": status, **{k: v for k, v in notes.items() if v is not None}}
    events.write(b"Z " + json.dumps(fields).encode() + b"\n")


class _Orders:
    """The parent's lines to a child: jobs (a line that is not one is skipped), queued ahead, and,
    to a zygote, the cancelling of a job (``{"cancel": ID}``), read from ``fd`` whenever they
    arrive, in a zygote also while a job runs."""

    def __init__(self, fd: int):
        self.fd, self.open = fd, True
        self.pending = b""
        self.jobs: list[dict] = []
        self.cancels: set = set()

    def read(self) -> None:
        """Take in what the parent has sent (call when ``fd`` is readable: it does not block then)."""
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            self.open = False
        self.pending += chunk
        *lines, self.pending = self.pending.split(b"\n")
        for line in lines:
            try:
                order = json.loads(line)
            except ValueError:
                continue
            if isinstance(order, dict) and Order.CANCEL in order:
                self.cancels.add(order[Order.CANCEL])
            elif isinstance(order, dict):
                self.jobs.append(order)

    def next_job(self) -> dict | None:
        """The next job, waiting for it; None once the parent closed the stream."""
        while not self.jobs and self.open:
            self.read()
        return self.jobs.pop(0) if self.jobs else None

    def cancelled(self, job_id) -> bool:
        """Whether the parent has cancelled the job ``job_id``."""
        return job_id in self.cancels


def _relay(pid: int, read_end: int, events, orders: _Orders, job_id) -> None:
    """Relay a job's event lines, prefixed ``J`` and cut at ``LINE_LIMIT`` bytes (a longer one is
    then judged malformed), until its stream ends, or until the parent cancels it: then its process
    group is killed (what escaped the group is killed by ``_clear_up``)."""
    pending = bytearray()
    while True:
        watched = [read_end, orders.fd] if orders.open else [read_end]
        ready, _, _ = select.select(watched, [], [])
        if orders.fd in ready:
            orders.read()
            if orders.cancelled(job_id):
                for kill in (os.killpg, os.kill):   # the group; the job itself if it had no group yet
                    try:
                        kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
                break
        if read_end in ready:
            chunk = os.read(read_end, 1 << 16)
            pending += chunk
            while pending:
                cut = pending.find(b"\n")
                if cut < 0 and len(pending) < LINE_LIMIT and chunk:
                    break   # the rest of this line is still to come
                cut = min(cut + 1 if cut >= 0 else len(pending), LINE_LIMIT)
                events.write(b"J " + bytes(pending[:cut]).rstrip(b"\n") + b"\n")
                del pending[:cut]
            if not chunk:
                break
    os.close(read_end)


def prepare_to_fork(tests: Path) -> None:
    """What a zygote does once, before its first job: load the kata specs of ``tests`` (the graded
    project's, the instructor's: once here rather than in every job) and keep all it holds out of the garbage collector's walks."""
    for path in sorted(tests.glob("test_k*.py")):
        try:
            _SPECS[path.stem[len("test_"):]] = observing().load_kata_spec(path.stem[len("test_"):], tests)
        except BaseException:   # a broken spec is reported by the job that needs it
            pass
    # A forked job that walked what is loaded now would copy most of this process's memory, page
    # by page, before grading anything. Nothing is collected first: a full collection of torch's
    # heap costs a few tenths of a second before the first job, and would free only the imports'
    # garbage, a few MiB that no job touches (it stays, frozen with the rest).
    gc.freeze()


def _serve_serially(events, orders: _Orders, tests: Path) -> None:
    """Where forking is not safe: run jobs one after another in this process, as long as none
    changed what the next would see (``_changes``); a changed child answers its next job
    ``retired`` and ends, and the parent gives that job to a fresh child."""
    before = _fingerprint()
    served = 0
    while (job := orders.next_job()) is not None:
        send = _Channel(events, job.get("job"))
        if served and _changes(before):
            send(Kind.RETIRED)
            return
        _run_job(send, job, tests)
        served += 1


def _watched_namespaces() -> list:
    """Where a learner's kata could change what the next kata sees: torch and its tensor class,
    torch.nn and its module machinery, autograd, NumPy, the builtins and every harness module."""

    # deferred: torch is imported by the child only, after its limits are set
    import numpy
    import torch
    import torch.nn.functional

    harness = [module for name, module in sys.modules.items() if name.split(".")[0] == __package__.split(".")[0]]
    return [torch, torch.Tensor, torch.nn, torch.nn.functional, torch.nn.Module, torch.nn.modules.module,
            torch.autograd, torch.random, numpy, numpy.random, builtins, *harness]


def _fingerprint() -> tuple[dict, frozenset, tuple]:
    """What ``_changes`` compares: the identity of every attribute of the watched namespaces, the
    threads alive, and the signals' handlers and timers (``_signals``)."""

    names = {(id(space), name): id(value) for space in _watched_namespaces() for name, value in vars(space).items()}
    return names, frozenset(thread.ident for thread in threading.enumerate()), _signals()


def _signals() -> tuple:
    """The handler of every signal and whether each interval timer is armed: a kata that set an
    alarm, or a handler of its own, would reach the katas after it (an alarm that goes off while
    the next kata is graded, a SIGTERM it ignores)."""
    handlers = []
    for number in sorted(signal.valid_signals()):
        try:
            handlers.append((int(number), id(signal.getsignal(number))))
        except (OSError, ValueError):   # a signal Python cannot report on
            pass
    timers = tuple(signal.getitimer(which) != (0.0, 0.0)
                   for which in (getattr(signal, name, None) for name in ("ITIMER_REAL", "ITIMER_VIRTUAL", "ITIMER_PROF"))
                   if which is not None and hasattr(signal, "getitimer"))
    return tuple(handlers), timers


def _changes(before: tuple[dict, frozenset, tuple]) -> bool:
    """Whether a job left this process different from ``before``: an attribute replaced or
    removed (one added, such as a submodule torch imports lazily, changes nothing the next job
    sees), a thread still running, or a signal's handler or timer changed."""
    names, threads, signals = _fingerprint()
    return (any(names.get(key) != value for key, value in before[0].items()) or bool(threads - before[1])
            or signals != before[2])


def _clear_up(pid: int, sandboxed: bool, own_pid_namespace: bool = False) -> None:
    """Kill everything the job left running before the next job. (It can have left no files: in
    the sandbox every folder it could write is read-only.) A job that was the first process of its
    own pid namespace has taken all it started with it: the kernel ends a namespace's processes
    before the end of its first is reported."""

    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    if own_pid_namespace:
        return
    if not sandboxed:
        processes.kill_orphans()
        return
    # Our own pid namespace: kill(-1) reaches every process in it but ourselves and its init (and,
    # for a zygote in a namespace of its own, the waiter above it, which no job can reach).
    spared = {1, os.getpid(), *processes.lineage_in_proc()}
    for _ in range(50):
        others = [p.name for p in Path("/proc").iterdir() if p.name.isdigit() and int(p.name) not in spared]
        if not others:
            break
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
        processes.kill_orphans()


def _run_job(send, job: dict, tests: Path) -> None:
    """Observe what ``job`` asks for with the kata specs of ``tests``, ending with the ``done`` event."""

    functions = [tuple(f) for f in job["functions"]]
    extras = job.get("extras") or {}   # official grading's extra cases: {"kata.function": [[index, seed], ...]}
    if job["mode"] == Mode.REFERENCE:
        _observe_reference(send, functions, Path(job["reference"]), extras, tests)
    else:
        if not any(isinstance(finder, _ReferenceGuard) for finder in sys.meta_path):
            sys.meta_path.insert(0, _ReferenceGuard())
        _observe_learner(send, functions, Path(job["solutions"]), extras, tests)
    send(Kind.DONE)


def _observe_reference(send, functions, reference_dir, extras, tests: Path) -> None:
    """Observe the reference's ``functions``, sending each one's expected record (or why it has none)."""
    in_process = observing()
    for kata in dict.fromkeys(k for k, _ in functions):
        try:
            spec = in_process.load_kata_spec(kata, tests)
            module = in_process.load_module(reference_dir / f"{kata}.py")
        except BaseException as error:
            send(Kind.EXPECTED_ERROR, kata=kata, function=None, error=f"{type(error).__name__}: {error}")
            continue
        for name in [f for k, f in functions if k == kata]:
            function = spec.function(name)
            if function is None or not callable(getattr(module, name, None)):
                send(Kind.EXPECTED_ERROR, kata=kata, function=name, error=f"no reference or test for {name}")
                continue
            devices, skipped = in_process.devices_for(function)
            send(Kind.EXPECTED, kata=kata, function=name, aspects=list(function.aspects),
                 rtol=function.rtol, atol=function.atol, timeout=function.timeout, skipped=skipped,
                 devices=list(function.devices), plan=function.hidden_plan(kata),
                 observations=in_process.observe_devices(getattr(module, name), function, kata, devices,
                                                     extras=extras.get(f"{kata}.{name}", ())))


def _observe_learner(send, functions, solutions, extras, tests: Path) -> None:
    """Observe the learner's ``functions`` kata by kata, in the order the judge expects their events."""
    in_process = observing()
    for kata in dict.fromkeys(k for k, _ in functions):
        path = solutions / f"{kata}.py"
        # Said before the learner's module is imported: a device this process can use must be observed.
        usable = ["cpu", "meta"] + (["cuda"] if in_process.cuda_available() else [])
        send(Kind.IMPORTING, kata=kata, devices=usable)
        if not path.exists():
            send(Kind.KATA_ERROR, kata=kata, reason=["error.no_file", {}])
            continue
        try:
            spec = _SPECS.get(kata) or in_process.load_kata_spec(kata, tests)
            result, failure = in_process.import_learner(path)
        except BaseException as error:  # the spec itself failed: report, never crash
            send(Kind.KATA_ERROR, kata=kata, reason=["error.import", {"error": str(error)}])
            continue
        if failure:
            send(Kind.KATA_ERROR, kata=kata, reason=list(failure))
            continue
        for name in [f for k, f in functions if k == kata]:
            send(Kind.START, kata=kata, function=name)
            fn = getattr(result, name, None)
            if not callable(fn):
                send(Kind.MISSING, kata=kata, function=name)
                continue
            function = spec.function(name)
            devices, _ = in_process.devices_for(function)
            send(Kind.OBSERVED, kata=kata, function=name,
                 observations=in_process.observe_devices(fn, function, kata, devices, str(path),
                                                     extras.get(f"{kata}.{name}", ())))
