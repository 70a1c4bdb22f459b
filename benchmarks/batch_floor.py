"""Batch against the fork-per-kata floor: a class graded with the whole term, beside what forking
one job per kata file costs at least.

    python benchmarks/batch_floor.py [--submissions 300] [--runs 2] [--compare OTHER_CHECKOUT] [--no-sandbox] [-j N]

The class and the term are ``term_cost``'s (``batch_throughput.make_class``: a third solved, a
third half right, a third stubs, every solved file a student's own; a roster, a record of times, a
deadline, a late rule, an extension, feedback and the report). Batch grades each distinct kata
file once, each in a process of its own forked from a zygote, so its floor is the number of
distinct kata files (``jobs``) times what one forked job costs, as ``benchmarks/fork_cost.py``
measures it in the same checkout (its ``forked job``: CPU per job, the zygote's and the job's).
Alternating, in one session (machines are noisy: compare within one run):

- ``fork_cost.py --rounds 2`` of each checkout, before and after each of its batches (the floor of
  one moment differs from the next by a tenth or more on a shared machine): its CPU milliseconds
  per forked job;
- ``grade.py batch CLASS --out G.json`` with every term option, of each checkout (sandboxed unless
  ``--no-sandbox``): wall seconds and the CPU seconds of all its processes (counted exactly by a
  cgroup where the benchmark may make one, else sampled: ``batch_throughput.timed_batch``).

It reports each batch's CPU over its checkout's floor (``jobs`` x the median forked job's CPU), and
its wall time over that floor spread over the CPUs batch uses (``-j``, default every CPU).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from batch_throughput import CountingCgroup, make_class, timed_batch  # noqa: E402
from term_cost import write_term_files  # noqa: E402


def distinct_kata_files(submissions: Path) -> int:
    """How many different kata files the class holds (batch grades each once)."""
    return len({(path.name, path.read_bytes()) for path in submissions.glob("*/k*.py")})


def forked_job_ms(project: Path) -> float:
    """CPU milliseconds of one forked job in ``project`` (``fork_cost.py``, two rounds)."""
    done = subprocess.run([sys.executable, str(project / "benchmarks" / "fork_cost.py"), "--rounds", "2"],
                          cwd=project, capture_output=True, text=True, check=True)
    return float(json.loads(done.stdout)["cpu_ms_per_job"]["forked job"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=300)
    parser.add_argument("--runs", type=int, default=2, help="rounds of each measurement (medians)")
    parser.add_argument("--compare", type=Path, default=None, metavar="OTHER_CHECKOUT")
    parser.add_argument("--no-sandbox", action="store_true")
    parser.add_argument("-j", "--jobs", type=int, default=None)
    args = parser.parse_args()
    flags = (["--no-sandbox"] if args.no_sandbox else []) + (["-j", str(args.jobs)] if args.jobs else [])
    cpus = args.jobs or os.cpu_count() or 1
    projects = {"this": ROOT, **({"other": args.compare.resolve()} if args.compare else {})}
    with tempfile.TemporaryDirectory() as scratch:
        where = Path(scratch)
        made = make_class(where / "class", args.submissions)
        term = write_term_files(where, made)
        jobs = distinct_kata_files(where / "class")
        floors: dict[str, list[float]] = {name: [] for name in projects}
        batches: dict[str, list[tuple[float, float]]] = {name: [] for name in projects}
        for _ in range(args.runs):
            for name, project in projects.items():
                floors[name].append(forked_job_ms(project))
                wall, _, _, cpu = timed_batch(project, where / "class", where / f"{name}.json", flags + term)
                batches[name].append((wall, cpu))
                floors[name].append(forked_job_ms(project))
    counting = CountingCgroup.make() if sys.platform.startswith("linux") else None
    if counting is not None:
        counting.remove()
    print(f"{args.submissions} submissions, {jobs} distinct kata files, {os.cpu_count()} CPUs (load average "
          f"{os.getloadavg()[0]:.1f} at the end), {'unsandboxed' if args.no_sandbox else 'sandboxed'}, every term option, "
          f"batch's CPU {'counted by a cgroup' if counting else 'sampled'}")
    for name, project in projects.items():
        job_ms = statistics.median(floors[name])
        wall = statistics.median(w for w, _ in batches[name])
        cpu = statistics.median(c for _, c in batches[name])
        floor_cpu = jobs * job_ms / 1000
        print(f"{name:>5} ({project}): forked job {job_ms:.1f} CPU ms ({', '.join(f'{v:.1f}' for v in floors[name])}); "
              f"floor {floor_cpu:.0f} CPU s, {floor_cpu / cpus:.0f} s on {cpus} CPUs; batch {cpu:.0f} CPU s "
              f"({cpu / floor_cpu:.2f}x the floor's CPU), {wall:.0f} s wall ({wall / (floor_cpu / cpus):.2f}x the floor "
              f"spread over {cpus} CPUs; runs {', '.join(f'{w:.0f}' for w, _ in batches[name])})")


if __name__ == "__main__":
    main()
