"""The grading child: the only process of grade.py that runs learner code.

grade.py runs two of them side by side. A "reference" child (the referee) observes the
reference solutions and never sees learner code; a "learner" child observes the solutions and
never loads the reference (``import reference`` fails there). Both stream plain-data events to
the parent over a private pipe; the parent judges, keeps the score and survives whatever
happens here.

Events (one JSON object per line): ready; expected, expected_error (referee); importing,
kata_error (a learner module); start, observed, missing (a learner function); done. A zygote
(batch grading) forks one child per job and adds forked (its pid) and exited (its wait status).
"""

from __future__ import annotations

import json
import os
import sys


def _channel(fd: int):
    stream = os.fdopen(fd, "w", buffering=1, encoding="utf-8")

    def send(**event):
        stream.write(json.dumps(event, allow_nan=True) + "\n")
        stream.flush()
    return send


class _ReferenceGuard:
    """Refuses ``import reference`` from learner code (the answer is not theirs to import)."""

    def find_spec(self, name, path=None, target=None):
        if name == "reference" or name.startswith("reference."):
            raise ImportError(f"importing `{name}` is not allowed while grading: write your own solution "
                              f"/ 评分时不允许导入 `{name}`：请自己完成")
        return None


def main(argv: list[str]) -> None:
    """Entry point: ``argv`` holds the event pipe's fd, the project root and flags (--warm, --zygote)."""
    send = _channel(int(argv[1]))

    from . import observe, runner     # imports torch: the slow part, overlapped with the parent's work
    if "--warm" in argv or "--zygote" in argv:
        _warm_up()
    send(event="ready")
    if "--zygote" not in argv:
        _run_job(send, json.loads(sys.stdin.readline()), runner, observe)
    # A zygote forks a fresh child per job, each starting with torch already imported and warm.
    for line in sys.stdin:
        pid = os.fork()
        if pid == 0:
            os.setsid()   # its own process group, so that the parent can kill it and whatever it started
            _run_job(send, json.loads(line), runner, observe)
        send(event="forked", pid=pid)
        _, status = os.waitpid(pid, 0)
        send(event="exited", status=status)


def _run_job(send, job: dict, runner, observe) -> None:
    """Observe what ``job`` asks for, then end this process (never returns)."""
    from pathlib import Path

    # Learner code that waits for input gets end-of-file at once instead of hanging.
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    functions = [tuple(f) for f in job["functions"]]
    if job["mode"] == "reference":
        _observe_reference(send, functions, Path(job["reference"]), runner)
    else:
        sys.meta_path.insert(0, _ReferenceGuard())
        _observe_learner(send, functions, Path(job["solutions"]), runner, observe)
    send(event="done")
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


def _observe_reference(send, functions, reference_dir, runner) -> None:
    for kata in dict.fromkeys(k for k, _ in functions):
        try:
            spec = runner.load_kata_spec(kata)
            module = runner.load_module(reference_dir / f"{kata}.py")
        except BaseException as error:
            send(event="expected_error", kata=kata, function=None, error=f"{type(error).__name__}: {error}")
            continue
        for name in [f for k, f in functions if k == kata]:
            function = spec.function(name)
            if function is None or not callable(getattr(module, name, None)):
                send(event="expected_error", kata=kata, function=name, error=f"no reference or test for {name}")
                continue
            devices, skipped = runner.devices_for(function)
            send(event="expected", kata=kata, function=name, checks=list(function.checks),
                 rtol=function.rtol, atol=function.atol, timeout=function.timeout, skipped=skipped,
                 devices=list(function.devices),
                 observations=runner.observe_devices(getattr(module, name), function, kata, devices))


def _observe_learner(send, functions, solutions, runner, observe) -> None:
    for kata in dict.fromkeys(k for k, _ in functions):
        path = solutions / f"{kata}.py"
        send(event="importing", kata=kata)
        if not path.exists():
            send(event="kata_error", kata=kata, reason=["error.no_file", {}])
            continue
        try:
            spec = runner.load_kata_spec(kata)
            result, error, printed = observe.call(runner.load_module, (path,), {}, str(path))
        except BaseException as error:  # the spec itself failed: report, never crash
            send(event="kata_error", kata=kata, reason=["error.import", {"error": str(error)}])
            continue
        if error:
            send(event="kata_error", kata=kata, reason=_import_failure(error, path))
            continue
        for name in [f for k, f in functions if k == kata]:
            send(event="start", kata=kata, function=name)
            fn = getattr(result, name, None)
            if not callable(fn):
                send(event="missing", kata=kata, function=name)
                continue
            function = spec.function(name)
            devices, _ = runner.devices_for(function)
            send(event="observed", kata=kata, function=name,
                 observations=runner.observe_devices(fn, function, kata, devices, str(path)))


def _import_failure(error: dict, path) -> list:
    if error["type"] == "SyntaxError":
        return ["error.syntax", {"line": error.get("line", "?"), "error": error["message"]}]
    return ["error.import", {"error": f"{error['type']}: {error['message']}"}]


if __name__ == "__main__":
    main(sys.argv)
