"""Batch grading at class scale: submissions per second, and the ratio to the work floor.

    python benchmarks/batch_throughput.py [--submissions 300] [--runs 3] [--files distinct]
                                          [--compare OTHER_CHECKOUT] [--no-sandbox] [-j N]

The class: a third solved, a third half right (the first half of the katas solved, with the
classic wrong answers of ``selftests/submissions.py``, the rest left as stubs), a third stubs.
``--files`` says how much of it is shared, which decides how much ``grade.py batch`` can reuse:
``distinct`` (default: every file a student wrote is theirs alone, the stubs they left are the
template's), ``unique`` (no two files alike, stubs included: nothing to reuse) or ``copies``
(every solved file a copy of the reference, as ``selftests/submissions.make`` writes them).

It measures, side by side in one session (machines are noisy: compare within one run):

- the *work floor*: observing every case of every function of the reference solutions once, in
  one process, with no isolation (torch imported and warm; the median of several passes);
- ``python grade.py batch CLASS`` (sandboxed unless ``--no-sandbox``): wall seconds, submissions
  per second, seconds per submission over the work floor, the CPU seconds of all its processes
  (sampled; unlike the wall time, they hardly change with what else the machine runs), and peak
  memory: the most that grade.py and all its processes held together (proportional set size,
  sampled), and the largest one;
- with ``--compare``, the same batch run by another checkout of this project (say, the commit
  before a change), alternating with this one, and whether both gradebooks are the same bytes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from selftests.submissions import WRONG  # noqa: E402

KINDS = ("solved", "half", "stub")

# Run in a process of its own: the reference observed once per pass, after one pass to warm up.
FLOOR = """
import statistics, sys, time
sys.path.insert(0, sys.argv[1])
from kata_harness.content.curriculum import load_curriculum
from kata_harness.layout import LAYOUT
from kata_harness.observation import local
katas = load_curriculum(LAYOUT.curriculum)
calls = []
for kata in katas:
    spec = local.load_kata_spec(kata.name, LAYOUT.tests)
    module = local.load_module(LAYOUT.reference / f"{kata.name}.py")
    for info in kata.functions:
        function = spec.function(info.name)
        calls.append((getattr(module, info.name), function, kata.name, local.devices_for(function)[0]))
def once():
    started, used = time.perf_counter(), time.process_time()
    for fn, function, kata, devices in calls:
        local.observe_devices(fn, function, kata, devices)
    return time.perf_counter() - started, time.process_time() - used
once()
passes = [once() for _ in range(int(sys.argv[2]))]
print(statistics.median(p[0] for p in passes), statistics.median(p[1] for p in passes))
"""


def make_class(directory: Path, count: int, files: str = "distinct") -> dict[str, str]:
    """Write ``count`` submissions into ``directory`` (see the module's docstring); returns {name: kind}."""
    stems = sorted(path.name for path in (ROOT / "katas").glob("k*.py"))
    made = {}
    for number in range(count):
        kind = KINDS[number % len(KINDS)]
        name = f"student{number:04d}-{kind}"
        folder = directory / name
        folder.mkdir(parents=True)
        for index, stem in enumerate(stems):
            solved = kind == "solved" or (kind == "half" and index < len(stems) // 2)
            text = (ROOT / ("reference" if solved else "katas") / stem).read_text(encoding="utf-8")
            if kind == "half" and solved:
                text += WRONG.get(stem, "")
            if files == "unique" or (files == "distinct" and solved):
                text = f"# {name}\n" + text   # a student's own file: no other is quite like it
            (folder / stem).write_text(text, encoding="utf-8")
        made[name] = kind
    return made


def work_floor(runs: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) to observe every case of every reference function once, in one
    process (the medians of ``runs`` passes)."""
    done = subprocess.run([sys.executable, "-c", FLOOR, str(ROOT), str(runs)], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    wall, cpu = done.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def _tree(root: int) -> list[int]:
    """``root`` and every process descending from it (Linux)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_bytes()
            except OSError:
                continue
            parents.setdefault(int(stat[stat.rfind(b")") + 2:].split()[1]), []).append(int(entry.name))
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack.extend(parents.get(pid, []))
    return found


def _cpu_seconds(pid: int, reaped: bool) -> float:
    """CPU seconds one process has used, with (``reaped``) those of the children it has waited for
    (0 when it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return 0.0
    utime, stime, cutime, cstime = (int(v) for v in stat[stat.rfind(b")") + 2:].split()[11:15])
    return (utime + stime + ((cutime + cstime) if reaped else 0)) / os.sysconf("SC_CLK_TCK")


def _memory(pid: int) -> tuple[int, int]:
    """(proportional set size, resident set size) of one process, in KiB (0 when it is gone)."""
    try:
        lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
        fields = dict(line.split(":", 1) for line in lines if ":" in line and not line.startswith(" "))
        return int(fields["Pss"].split()[0]), int(fields["Rss"].split()[0])
    except (OSError, KeyError, ValueError):
        return 0, 0


class CountingCgroup:
    """A cgroup of its own that counts the CPU time of every process started in it and all they
    start, exactly (a sandboxed zygote is killed, not reaped, so no parent's count holds its
    jobs'): cgroup v1's ``cpuacct`` or v2's ``cpu.stat``, where this process may make one (as
    root, say). ``make`` returns None elsewhere: the caller samples instead."""

    # Where each version's cgroups are, and the file that counts their CPU time.
    COUNTERS = ((Path("/sys/fs/cgroup/cpuacct"), "cpuacct.usage"), (Path("/sys/fs/cgroup"), "cpu.stat"))

    def __init__(self, folder: Path, counter: str):
        self.folder, self.counter = folder, counter

    @classmethod
    def make(cls) -> CountingCgroup | None:
        for root, counter in cls.COUNTERS:
            if not (root / counter).exists():
                continue
            made = cls(root / f"kata-benchmark-{os.getpid()}", counter)
            try:
                made.folder.mkdir()
                made.usage()
                return made
            except (OSError, KeyError, ValueError):
                made.remove()
        return None

    def usage(self) -> float:
        """CPU seconds its processes have used so far."""
        text = (self.folder / self.counter).read_text()
        if self.counter == "cpuacct.usage":
            return int(text) / 1e9   # nanoseconds
        return int(dict(line.split() for line in text.splitlines())["usage_usec"]) / 1e6

    def enter(self) -> None:
        """In a child before it runs the command (``preexec_fn``): move into the cgroup."""
        (self.folder / "cgroup.procs").write_text("0")

    def remove(self) -> None:
        """Remove the cgroup (waiting a little for its last processes to end)."""
        for _ in range(50):
            try:
                self.folder.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.1)


def timed_batch(project: Path, submissions: Path, out: Path, flags: list[str]) -> tuple[float, float, float, float]:
    """(wall seconds, peak MiB of all its processes together, peak MiB of the largest, CPU seconds of
    all its processes) of one ``grade.py batch`` of ``project``; the cache of an earlier run is
    removed first. The CPU seconds are exact where a cgroup can count them (``CountingCgroup``), else
    sampled (each process's own and those of the children it reaped, as last seen, which misses a
    killed zygote's last jobs); either way they hardly depend on what else the machine runs, unlike
    the wall time."""
    out.with_name(out.name + ".cache.json").unlink(missing_ok=True)
    counting = CountingCgroup.make() if sys.platform.startswith("linux") else None
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, str(project / "grade.py"), "batch", str(submissions), "--out", str(out),
                                *flags], cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               preexec_fn=counting.enter if counting else None)
    peaks = [0, 0]
    cpu: dict[int, float] = {}

    def sample() -> None:
        while process.poll() is None:
            tree = _tree(process.pid) if sys.platform.startswith("linux") else []
            sizes = [_memory(pid) for pid in tree]
            peaks[0] = max(peaks[0], sum(pss for pss, _ in sizes))
            peaks[1] = max([peaks[1], *(rss for _, rss in sizes)])
            # A zygote's jobs live too briefly to be sampled: they count once reaped, in the zygote's
            # children. grade.py's own children (the referee, the sandboxes) are sampled themselves.
            for pid in tree:
                cpu[pid] = max(cpu.get(pid, 0.0), _cpu_seconds(pid, reaped=pid != process.pid))
            time.sleep(0.25)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, errors = process.communicate()
    wall = time.perf_counter() - started
    sampler.join()
    used = sum(cpu.values())
    if counting is not None:
        time.sleep(0.2)   # a killed zygote's last exit is counted once it is done
        used = counting.usage()
        counting.remove()
    if process.returncode:
        sys.exit(f"{project}: batch failed:\n{errors.decode(errors='replace')[-2000:]}")
    return wall, peaks[0] / 1024, peaks[1] / 1024, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3, help="batch runs of each checkout (medians)")
    parser.add_argument("--files", choices=("distinct", "unique", "copies"), default="distinct")
    parser.add_argument("--compare", type=Path, default=None, metavar="OTHER_CHECKOUT")
    parser.add_argument("--no-sandbox", action="store_true")
    parser.add_argument("-j", "--jobs", type=int, default=None)
    args = parser.parse_args()
    flags = (["--no-sandbox"] if args.no_sandbox else []) + (["-j", str(args.jobs)] if args.jobs else [])
    projects = {"this": ROOT, **({"other": args.compare.resolve()} if args.compare else {})}
    with tempfile.TemporaryDirectory() as scratch:
        submissions = Path(scratch) / "class"
        make_class(submissions, args.submissions, args.files)
        floors, results = [], {name: [] for name in projects}
        books: dict[str, bytes] = {}
        for _ in range(args.runs):
            floors.append(work_floor(5))
            for name, project in projects.items():
                out = Path(scratch) / f"{name}.csv"
                results[name].append(timed_batch(project, submissions, out, flags))
                books[name] = out.read_bytes()
    floor = statistics.median(f[0] for f in floors)
    floor_cpu = statistics.median(f[1] for f in floors)
    print(f"{args.submissions} submissions ({args.files} files), {os.cpu_count()} CPUs (load average "
          f"{os.getloadavg()[0]:.1f} at the end), {'unsandboxed' if args.no_sandbox else 'sandboxed'}; work floor "
          f"{floor:.3f} s per submission, {floor_cpu:.3f} CPU s (runs: {', '.join(f'{f[0]:.3f}' for f in floors)})")
    for name, runs in results.items():
        wall = statistics.median(run[0] for run in runs)
        cpu = statistics.median(run[3] for run in runs)
        print(f"{name:>5} ({projects[name]}): median {wall:.1f} s ({', '.join(f'{r[0]:.1f}' for r in runs)}), "
              f"{args.submissions / wall:.1f} submissions/s, {wall / args.submissions / floor:.2f}x the work floor "
              f"per submission; {cpu:.0f} CPU s in all ({cpu / args.submissions / floor_cpu:.2f}x the floor's CPU per "
              f"submission; {cpu / (os.cpu_count() or 1):.0f} s on as many idle CPUs); peak "
              f"{max(r[1] for r in runs):.0f} MiB together, largest process {max(r[2] for r in runs):.0f} MiB")
    if args.compare:
        this, other = (statistics.median(run[0] for run in results[name]) for name in ("this", "other"))
        print(f"this / other: {this / other:.2f} of the time; gradebooks "
              f"{'identical' if books['this'] == books['other'] else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
