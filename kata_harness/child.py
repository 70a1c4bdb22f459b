"""The grading child: the only process of grade.py that runs learner code.

grade.py runs two kinds side by side. A referee observes the reference solutions and never sees
learner code; a learner child observes the solutions (under bubblewrap where available) and
never loads the reference (``import reference`` fails there, and the sandbox does not even show
the folder). Both stream plain-data events to the parent (see ``channel``); the parent judges,
keeps the score and survives whatever happens here.

Events, each tagged with the job's id: expected, expected_error (referee); importing,
kata_error (a learner module); start, observed, missing (a learner function); done.
"""

from __future__ import annotations

import json
import os
import re
import sys

from . import sandbox

# A zygote's mark in the output pipe before each job; the parent (channel) keeps only what follows
# the mark of the job it explains.
OUTPUT_MARK = "\x00job {}\x00"
OUTPUT_MARK_PATTERN = re.compile(OUTPUT_MARK.format("([0-9A-Za-z]+)"))


class _ReferenceGuard:
    """Refuses ``import reference`` from learner code (the answer is not theirs to import)."""

    def find_spec(self, name, path=None, target=None):
        if name == "reference" or name.startswith("reference."):
            raise ImportError(f"importing `{name}` is not allowed while grading: write your own solution "
                              f"/ 评分时不允许导入 `{name}`：请自己完成")
        return None


class _Channel:
    """Writes events as JSON lines to a descriptor that learner output does not go to."""

    def __init__(self, fd: int, job):
        self.stream = os.fdopen(fd, "wb", buffering=0)
        self.job = job

    def __call__(self, event: str, **fields) -> None:
        line = json.dumps({"event": event, "job": self.job, **fields}, allow_nan=True) + "\n"
        try:
            self.stream.write(line.encode("utf-8", "replace"))
        except (OSError, ValueError):
            os._exit(3)   # the parent is gone, or learner code closed the channel


def _private_events_fd() -> int:
    """Move the event stream off fd 1 and point fds 1 and 2 at the output pipe (standard error)."""
    events = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return events


def main(argv: list[str]) -> None:
    """Entry point; ``argv`` holds flags: --warm, --zygote, --sandboxed."""
    events_fd = _private_events_fd()
    jobs = sys.stdin.buffer
    sandbox.apply_limits()
    from . import in_process, observe  # imports torch: the slow part, overlapped with the parent's work
    warm = "--warm" in argv or "--zygote" in argv
    if warm:
        _warm_up()
    if "--zygote" not in argv:
        job = json.loads(jobs.readline() or "null")
        if not isinstance(job, dict):
            os._exit(0)
        if job.get("mode") == "learner" and not warm:
            # What torch loads on first use (a second or more on a busy machine) is loaded before the
            # first function's clock starts, so that it is never charged to a learner's function.
            _warm_up()
        _run_job(_Channel(events_fd, job.get("job")), job, in_process, observe)
    _serve_forks(events_fd, jobs, "--sandboxed" in argv, in_process, observe)


def _serve_forks(events_fd: int, jobs, sandboxed: bool, in_process, observe) -> None:
    """The zygote's loop: fork a fresh child per job, relay its events, then clear up after it."""
    from . import processes

    control = os.fdopen(events_fd, "wb", buffering=0)
    if not sandboxed:
        processes.become_subreaper()   # orphans of a job come back to us, to be killed
    for line in iter(jobs.readline, b""):
        try:
            job = json.loads(line)
        except ValueError:
            continue
        # Marks where this job's output starts in the shared output pipe, so that a crash is
        # explained with its own output only (never an earlier job's).
        job_id = str(job.get("job", ""))
        if job_id.isalnum():
            os.write(2, OUTPUT_MARK.format(job_id).encode())
        read_end, write_end = os.pipe()
        zygote = os.getpid()
        pid = os.fork()
        if pid == 0:
            processes.die_with_parent(zygote)
            os.close(read_end)
            control.close()
            os.setsid()   # its own process group, killed as a whole
            _run_job(_Channel(write_end, job.get("job")), job, in_process, observe)
        os.close(write_end)
        with os.fdopen(read_end, "rb") as relayed:
            for event in iter(lambda: relayed.readline(1 << 23), b""):
                control.write(b"J " + event.rstrip(b"\n") + b"\n")
        _, status = os.waitpid(pid, 0)
        _clear_up(pid, sandboxed, processes)
        control.write(b"Z " + json.dumps({"event": "exited", "job": job.get("job"), "status": status}).encode() + b"\n")


def _clear_up(pid: int, sandboxed: bool, processes) -> None:
    """Kill everything the job left running, and in the sandbox empty its /tmp, before the next job."""
    import shutil
    import signal

    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    if not sandboxed:
        processes.kill_orphans()
        return
    # Our own pid namespace: kill(-1) reaches every process in it but ourselves and its init.
    for _ in range(50):
        others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, os.getpid())]
        if not others:
            break
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
        processes.kill_orphans()
    for entry in os.listdir("/tmp"):
        path = os.path.join("/tmp", entry)
        if os.path.ismount(path):
            continue   # a folder of the job's own files, bound read-only
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass


def _run_job(send, job: dict, in_process, observe) -> None:
    """Observe what ``job`` asks for, then end this process (never returns)."""
    from pathlib import Path

    # Learner code that waits for input gets end-of-file at once instead of hanging.
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    functions = [tuple(f) for f in job["functions"]]
    extras = job.get("extras") or {}   # official grading's extra cases: {"kata.function": [[index, seed], ...]}
    if job["mode"] == "reference":
        _observe_reference(send, functions, Path(job["reference"]), in_process, extras)
    else:
        sys.meta_path.insert(0, _ReferenceGuard())
        _observe_learner(send, functions, Path(job["solutions"]), in_process, observe, extras)
    send("done")
    os._exit(0)   # do not wait for threads learner code may have left running


def _warm_up() -> None:
    """Make torch load now what it loads on first use (about a second): meta-device kernels and
    the optimizer machinery, so that a child kept in reserve answers at once."""
    import torch

    meta = torch.empty(2, 3, device="meta")
    torch.nn.functional.linear(meta, torch.empty(4, 3, device="meta"))
    torch.zeros_like(meta, dtype=torch.bool)
    weight = torch.nn.Parameter(torch.zeros(1))
    weight.grad = torch.ones(1)
    torch.optim.SGD([weight], lr=0.1).step()


def _observe_reference(send, functions, reference_dir, in_process, extras) -> None:
    for kata in dict.fromkeys(k for k, _ in functions):
        try:
            spec = in_process.load_kata_spec(kata)
            module = in_process.load_module(reference_dir / f"{kata}.py")
        except BaseException as error:
            send("expected_error", kata=kata, function=None, error=f"{type(error).__name__}: {error}")
            continue
        for name in [f for k, f in functions if k == kata]:
            function = spec.function(name)
            if function is None or not callable(getattr(module, name, None)):
                send("expected_error", kata=kata, function=name, error=f"no reference or test for {name}")
                continue
            devices, skipped = in_process.devices_for(function)
            send("expected", kata=kata, function=name, aspects=list(function.aspects),
                 rtol=function.rtol, atol=function.atol, timeout=function.timeout, skipped=skipped,
                 devices=list(function.devices), plan=function.hidden_plan(kata),
                 observations=in_process.observe_devices(getattr(module, name), function, kata, devices,
                                                     extras=extras.get(f"{kata}.{name}", ())))


def _observe_learner(send, functions, solutions, in_process, observe, extras) -> None:
    for kata in dict.fromkeys(k for k, _ in functions):
        path = solutions / f"{kata}.py"
        send("importing", kata=kata)
        if not path.exists():
            send("kata_error", kata=kata, reason=["error.no_file", {}])
            continue
        try:
            spec = in_process.load_kata_spec(kata)
            result, failure = in_process.import_learner(path)
        except BaseException as error:  # the spec itself failed: report, never crash
            send("kata_error", kata=kata, reason=["error.import", {"error": str(error)}])
            continue
        if failure:
            send("kata_error", kata=kata, reason=list(failure))
            continue
        for name in [f for k, f in functions if k == kata]:
            send("start", kata=kata, function=name)
            fn = getattr(result, name, None)
            if not callable(fn):
                send("missing", kata=kata, function=name)
                continue
            function = spec.function(name)
            devices, _ = in_process.devices_for(function)
            send("observed", kata=kata, function=name,
                 observations=in_process.observe_devices(fn, function, kata, devices, str(path),
                                                     extras.get(f"{kata}.{name}", ())))
