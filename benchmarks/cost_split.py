"""Where a full grade's time goes: import, per-kata fixed cost and per-case work, in CPU time.

    python benchmarks/cost_split.py [--runs 3]

Two parts, in one run (machines are noisy and shared: CPU time, user plus system of the process
and its children from ``resource.getrusage``, is what counts; wall time is shown beside it):

1. *Whole commands*, alternately (A B C A B C ...), ``--runs`` times, median of each:
   the lazy import floor (``import torch, numpy, pytest, torch._dynamo``), the grading parent's own
   import (``kata_harness.commands.grade``, no torch), ``grade.py lesson1``, ``grade.py lesson2``
   and the full ``grade.py`` of every lesson, each with ``--solutions reference`` against the live
   reference. The grades run with ``KATA_SANDBOX=none``: a sandboxed child is killed, not waited
   for, so its CPU time would not be counted (the sandbox itself costs milliseconds).
2. *One kata job, taken apart*: this process warms up as a zygote does (started with its
   environment, glibc's huge pages included; torch and its lazy parts loaded with the garbage
   collector off, the kata specs loaded, the heap frozen), then, for every kata, forks a fresh
   child per job, as the zygote does, which times each step the job and the parent do for that
   kata: taking its spec (loaded by the zygote) and loading the reference module (the
   per-kata fixed cost, with the curriculum file the parent reads for it), observing every case
   (``observe_devices``: the call, describe, every aspect's record), encoding the events as JSON
   lines, and the parent's side: decoding them (``protocol.parse_event``) and comparing every case
   (``verdicts.judge``, expected against itself, so every aspect runs to the end). A bare fork and
   exit is timed beside it. Medians over ``--runs`` passes.

A grade observes every case once where the answer key stands in for the live reference (it holds
exactly what the referee would send: ``AnswerKey.standing_in``), twice where a referee observes
the reference beside the learner's child: the work column counts one observation.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kata_harness.content.curriculum import _parse_toml, load_curriculum, load_kata  # noqa: E402
from kata_harness.isolation import child, processes, protocol  # noqa: E402
from kata_harness.judging import answer_key, verdicts  # noqa: E402
from kata_harness.layout import LAYOUT  # noqa: E402

LAZY_FLOOR = [sys.executable, "-c", "import torch, numpy, pytest, torch._dynamo"]
PARENT_IMPORT = [sys.executable, "-c", "import kata_harness.commands.grade, kata_harness.judging.judge"]
GRADE = [sys.executable, "grade.py", "--solutions", "reference", "--format", "json"]


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


_OWN_TUNABLES = "COST_SPLIT_GLIBC_TUNABLES"   # the glibc tunables this ran with before it started again as a zygote


def _start_as_a_zygote_does() -> None:
    """Run again with the environment a zygote starts with (glibc's huge pages), so that its forks
    cost what the zygote's do; the commands it times get the environment it was given."""
    environment = processes.fork_friendly(dict(os.environ))
    if environment != dict(os.environ):
        environment[_OWN_TUNABLES] = os.environ.get("GLIBC_TUNABLES", "")
        os.execve(sys.executable, [sys.executable, *sys.argv], environment)


def measured(command: list[str]) -> tuple[float, float]:
    """(CPU seconds of the command and all it waited for, wall seconds) of one run."""
    environment = {**os.environ, "KATA_SANDBOX": "none"}
    if _OWN_TUNABLES in environment:
        given = environment.pop(_OWN_TUNABLES)
        environment.pop("GLIBC_TUNABLES")
        if given:
            environment["GLIBC_TUNABLES"] = given
    cpu, started = _children_cpu(), time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, env=environment)
    return _children_cpu() - cpu, time.perf_counter() - started


def _job_steps(kata: str) -> dict:
    """CPU seconds of each step of one kata's job and its judging, in this (fresh, forked) process."""
    local = child.observing()
    clock = time.process_time
    steps = dict.fromkeys(("curriculum", "load", "observe", "encode", "decode", "compare"), 0.0)
    cases = 0
    _parse_toml.cache_clear()   # what grade.py pays: each file parsed once, in its parent
    started = clock()
    load_kata(LAYOUT.curriculum / f"{kata}.toml")
    steps["curriculum"] = clock() - started
    started = clock()
    spec = child._SPECS.get(kata) or local.load_kata_spec(kata, LAYOUT.tests)
    module = local.load_module(LAYOUT.reference / f"{kata}.py")
    steps["load"] = clock() - started
    for function in spec.functions:
        devices, _ = local.devices_for(function)
        started = clock()
        observed = local.observe_devices(getattr(module, function.name), function, kata, devices)
        steps["observe"] += clock() - started
        cases += sum(len(each) for each in observed.values())
        started = clock()
        line = (json.dumps({"event": protocol.Kind.OBSERVED, "job": 1, "kata": kata, "function": function.name,
                            "observations": observed}, allow_nan=True) + "\n").encode("utf-8", "replace")
        steps["encode"] += clock() - started
        started = clock()
        event = protocol.parse_event(line, 0.0)
        steps["decode"] += clock() - started
        started = clock()
        verdict = verdicts.judge(function.aspects, local.tolerance_of(function), event.fields["observations"], observed)
        steps["compare"] += clock() - started
        if verdict.status != verdicts.Status.PASSED:
            sys.exit(f"{kata}.{function.name}: the reference does not pass against itself")
    return {"cases": cases, "functions": len(spec.functions), **steps}


def in_fork(kata: str | None) -> dict:
    """The steps of ``kata``'s job (None: a bare fork that ends at once), in a fresh fork, with the
    CPU seconds of the whole child (fork and exit included) as ``job``."""
    read_end, write_end = os.pipe()
    cpu = _children_cpu() + time.process_time()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            answer = _job_steps(kata) if kata else {}
            os.write(write_end, json.dumps(answer).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    answer = json.loads(b"".join(iter(lambda: os.read(read_end, 65536), b"")))
    os.close(read_end)
    os.waitpid(pid, 0)
    return {**answer, "job": _children_cpu() + time.process_time() - cpu}


def whole_commands(runs: int, lessons: list[str]) -> dict:
    """Median (CPU, wall) seconds of each whole command, run alternately."""
    commands = {"lazy floor": LAZY_FLOOR, "parent import": PARENT_IMPORT,
                **{lesson: GRADE + [lesson] for lesson in lessons}, "full grade": GRADE}
    for command in commands.values():   # warm the file cache once
        measured(command)
    times: dict[str, list] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(measured(command))
    return {name: (statistics.median(c for c, _ in values), statistics.median(w for _, w in values))
            for name, values in times.items()}


def job_split(runs: int, katas: list[str]) -> dict:
    """Median CPU seconds of each step, per kata, over ``runs`` passes (after one to warm up)."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")   # as in the children
    gc.disable()   # prepared as a zygote prepares (child.main): no collection, the heap frozen
    child.observing().warm_up()
    child.prepare_to_fork(LAYOUT.tests)
    gc.enable()
    passes = []
    for number in range(runs + 1):
        this = {kata: in_fork(kata) for kata in katas}
        this["bare fork"] = in_fork(None)
        if number:
            passes.append(this)
    return {kata: {step: statistics.median(p[kata][step] for p in passes) for step in passes[0][kata]}
            for kata in passes[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only-jobs", action="store_true", help="part 2 only (no whole commands)")
    args = parser.parse_args()
    _start_as_a_zygote_does()
    katas = load_curriculum(LAYOUT.curriculum)
    lessons = sorted({kata.lesson.name for kata in katas})
    _parse_toml.cache_clear()   # a grade parses every file once (then it is cached in its process)
    started = time.process_time()
    load_curriculum(LAYOUT.curriculum)
    curriculum_once = time.process_time() - started
    started = time.process_time()
    answer_key.load(LAYOUT.answer_key)
    key_once = time.process_time() - started

    whole = {"lazy floor": (1.0, 1.0), "parent import": (0.0, 0.0), "full grade": (1.0, 1.0)} if args.only_jobs \
        else whole_commands(args.runs, lessons)
    split = job_split(args.runs, [kata.name for kata in katas])
    bare = split.pop("bare fork")["job"]
    steps = ("curriculum", "load", "observe", "encode", "decode", "compare")
    total = {step: sum(kata[step] for kata in split.values()) for step in (*steps, "job", "cases", "functions")}
    count = len(split)
    floor_cpu = whole["lazy floor"][0]
    beyond = whole["full grade"][0] - floor_cpu
    per_case = {step: total[step] / total["cases"] * 1000 for step in ("observe", "encode", "decode", "compare")}
    in_job = sum(total[step] for step in steps)
    fixed = (total["job"] - in_job) / count * 1000   # the fork, its copy-on-write, its exit
    print(json.dumps({
        "whole_commands": {name: {"cpu_s": round(cpu, 2), "wall_s": round(wall, 2),
                                  "cpu_over_lazy_floor": round(cpu / floor_cpu, 2),
                                  "wall_over_lazy_floor": round(wall / whole["lazy floor"][1], 2)}
                           for name, (cpu, wall) in whole.items()},
        "katas": count, "functions": total["functions"], "cases": total["cases"],
        "full_grade_beyond_floor_cpu_s": round(beyond, 2),
        "beyond_floor_cpu_ms_per_kata": round(beyond / count * 1000, 1),
        "once_per_grade_cpu_ms": {"curriculum (every kata)": round(curriculum_once * 1000, 1),
                                  "answer key": round(key_once * 1000, 1),
                                  "grading parent's import": round(whole["parent import"][0] * 1000, 1)},
        "per_kata_fixed_cpu_ms": {"fork and exit": round(bare * 1000, 1),
                                  "spec and reference module": round(total["load"] / count * 1000, 1),
                                  "curriculum file": round(total["curriculum"] / count * 1000, 1),
                                  "fork, copy-on-write and exit of a job": round(fixed, 1)},
        "per_case_cpu_ms": {step: round(value, 2) for step, value in per_case.items()},
        "per_kata_cpu_ms": {kata: {"cases": int(values["cases"]), "job": round(values["job"] * 1000, 1),
                                   "observe": round(values["observe"] * 1000, 1)}
                            for kata, values in sorted(split.items(), key=lambda item: -item[1]["job"])},
    }, indent=1))


if __name__ == "__main__":
    main()
