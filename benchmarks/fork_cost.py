"""What batch's isolation costs per kata job: a fresh fork of a warm zygote for every job, against
the same job run in one process.

    python benchmarks/fork_cost.py [--rounds 5]

A zygote is prepared as batch prepares its own (started with the same environment, glibc's huge
pages included; torch imported and warmed up with the garbage collector off, the kata specs
loaded, its heap frozen). Each job observes one kata's functions, with the reference
solutions graded as a learner's would be. Per job, side by side (the three kinds alternate, so the
machine's noise falls on all of them alike):

- *in one process*: the job run in a copy of the zygote that runs every job itself: the work alone;
- *bare fork*: a child forked and ended at once: what the process costs, with no job;
- *forked job*: a child forked to run the job (without relaying its events): the fork-per-kata floor;
- *isolated job*: the same job isolated as batch isolates it: forked as the first process of a pid
  namespace of its own, in the jobs' memory cgroup, with its own user, IPC and network namespaces
  and session keyring, the highest OOM score, no capabilities, 256 open files at most and the
  system-call filter (``child.prepare_job``), the zygote clearing up and checking
  its own settings after it (``child.changed_by_job``). The benchmark process is the zygote, in
  namespaces of its own where this machine allows them and in the jobs' memory cgroup (its jobs
  are born there), as batch's zygote is.

It reports CPU milliseconds per job (the zygote's and the child's), the wall milliseconds of each
forked kind (from the fork to the zygote ready for the next: what CPU time does not show, such as
the kernel's waits, is there), the forked job's minor page
faults, and, from one more pass, the memory the forked job wrote into: every page of the zygote's
that a job writes (a reference count, the C heap's bookkeeping) is copied for it first.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kata_harness.content.curriculum import load_curriculum  # noqa: E402
from kata_harness.isolation import child, processes, sandbox  # noqa: E402
from kata_harness.layout import LAYOUT  # noqa: E402


def _private_dirty_kib() -> int:
    """Memory this process has written since it was forked (and its own), in KiB."""
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines():
        if line.startswith("Private_Dirty:"):
            return int(line.split()[1])
    return 0


def _children_cpu() -> tuple[float, int]:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime, used.ru_minflt


def _forked(job: dict | None, measure_memory: bool = False, isolation=None) -> tuple[float, int, int, float]:
    """(CPU seconds of the fork, the child and its end; the child's minor faults; KiB it wrote; wall
    seconds from the fork to the zygote ready for the next job) of
    one child that runs ``job`` (None: ends at once); with ``isolation`` (forks, memory cgroup,
    settings), isolated as batch isolates a job."""
    read_end, write_end = os.pipe()
    cpu_before, faults_before = _children_cpu()
    own_before, wall_before = time.process_time(), time.monotonic()
    zygote = os.getpid()
    pid = isolation[0].fork() if isolation else os.fork()
    if pid == 0:
        os.close(read_end)
        if isolation:
            child.prepare_job(zygote, isolation[1], isolation[3])
        written = _private_dirty_kib() if measure_memory else 0
        if job is not None:
            child._run_job(lambda event, **fields: None, job, LAYOUT.tests)
        written = _private_dirty_kib() - written if measure_memory else 0
        os.write(write_end, str(written).encode())
        os._exit(0)
    os.close(write_end)
    answer = b"".join(iter(lambda: os.read(read_end, 64), b""))
    os.close(read_end)
    os.waitpid(pid, 0)
    if isolation and child.changed_by_job(isolation[2], isolation[0]):
        sys.exit("a job changed the zygote's settings: the benchmark cannot go on")
    own, wall = time.process_time() - own_before, time.monotonic() - wall_before
    cpu_after, faults_after = _children_cpu()
    return cpu_after - cpu_before + own, faults_after - faults_before, int(answer or 0), wall


def _serve_in_process(jobs: list[dict], orders, answers) -> None:
    """The copy that runs each job it is sent in itself, answering its CPU seconds."""
    while True:
        asked = os.read(orders, 8)
        if not asked:
            os._exit(0)
        started = time.process_time()
        child._run_job(lambda event, **fields: None, jobs[int(asked)], LAYOUT.tests)
        os.write(answers, f"{time.process_time() - started:.9f}".encode().ljust(32))


def _start_as_a_zygote_does() -> None:
    """Run again with the environment a zygote starts with (one thread for torch, glibc's huge pages)."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")   # as in batch's sandbox
    environment = processes.fork_friendly(dict(os.environ))
    if environment != dict(os.environ):
        os.execve(sys.executable, [sys.executable, *sys.argv], environment)


def _alternated(jobs: list[dict], rounds: int, in_one_process, isolation) -> tuple[dict, dict, int]:
    """Every job of every round (after one to warm up) run each way, the ways taking turns: the CPU
    seconds of each way, the wall seconds of each forked way, and the forked jobs' minor faults."""
    totals = {"in one process": 0.0, "bare fork": 0.0, "forked job": 0.0, "isolated job": 0.0}
    walls = {"bare fork": 0.0, "forked job": 0.0, "isolated job": 0.0}
    faults = 0
    for round_number in range(rounds + 1):
        for index, job in enumerate(jobs):
            kinds = [("in one process", lambda i=index: in_one_process(i)),
                     ("bare fork", lambda: _forked(None)),
                     ("forked job", lambda j=job: _forked(j)),
                     ("isolated job", lambda j=job: _forked(j, isolation=isolation))]
            for name, run in kinds[index % 4:] + kinds[:index % 4]:
                result = run()
                if round_number == 0:   # the warm-up pass
                    continue
                if isinstance(result, tuple):
                    totals[name] += result[0]
                    walls[name] += result[3]
                    faults += result[1] if name == "forked job" else 0
                else:
                    totals[name] += result
    return totals, walls, faults


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="passes over the katas (after one to warm up)")
    args = parser.parse_args()
    if not hasattr(os, "fork") or not Path("/proc/self/smaps_rollup").exists():
        sys.exit("this benchmark needs Linux (fork and /proc)")
    _start_as_a_zygote_does()
    memory = sandbox.JobMemory.make()   # before the namespaces: the grader makes it, outside them
    own_namespaces = processes.enter_zygote_namespaces()
    gc.disable()   # as a zygote imports (see child.main)
    child.observing()   # torch, after the checks above

    katas = load_curriculum(LAYOUT.curriculum)
    jobs = [{"mode": "learner", "job": index, "solutions": str(LAYOUT.reference),
             "functions": [[kata.name, f.name] for f in kata.functions]} for index, kata in enumerate(katas)]
    child.observing().warm_up()
    child.prepare_to_fork(LAYOUT.tests)
    gc.enable()
    cgroup = sandbox.JobCgroup(str(memory.folder)) if memory else None
    if cgroup is not None:
        cgroup.enter()   # as a zygote does: its jobs are born in the cgroup
    forks = processes.JobForks(own_namespaces)
    gpu = sandbox.gpu_bound()
    processes.ready_to_fork_jobs(gpu)   # as a zygote does before its first job
    isolation = (forks, cgroup, processes.settings(), gpu)
    orders_read, orders_write = os.pipe()
    answers_read, answers_write = os.pipe()
    server = os.fork()
    if server == 0:
        os.close(orders_write)   # else it would never see the end of its orders
        _serve_in_process(jobs, orders_read, answers_write)

    def in_one_process(index: int) -> float:
        os.write(orders_write, str(index).encode().ljust(8))
        return float(os.read(answers_read, 32))

    totals, walls, faults = _alternated(jobs, args.rounds, in_one_process, isolation)
    os.close(orders_write)
    os.waitpid(server, 0)
    written = [_forked(job, measure_memory=True)[2] for job in jobs]
    count = args.rounds * len(jobs)
    per_job = {name: total / count * 1000 for name, total in totals.items()}
    print(json.dumps({"jobs": count, "cpu_ms_per_job": {k: round(v, 1) for k, v in per_job.items()},
                      "wall_ms_per_job": {k: round(v / count * 1000, 1) for k, v in walls.items()},
                      "forked_job_over_work": round(per_job["forked job"] / per_job["in one process"], 2),
                      "isolated_job_over_forked_job": round(per_job["isolated job"] / per_job["forked job"], 2),
                      "isolation": {"own pid namespaces": forks.own_pid_namespace, "memory cgroup": cgroup is not None},
                      "copy_on_write_ms_per_job": round(per_job["forked job"] - per_job["bare fork"]
                                                        - per_job["in one process"], 1),
                      "minor_faults_per_forked_job": round(faults / count),
                      "kib_written_per_forked_job": sorted(written)[len(written) // 2]}, indent=1))
    if memory is not None:
        try:   # out of the jobs' cgroup again, so that it can be removed
            (memory.folder.parent / "cgroup.procs").write_text("0")
        except OSError:
            pass   # left for the next grader to remove (its maker is gone)
        memory.remove()


if __name__ == "__main__":
    main()
