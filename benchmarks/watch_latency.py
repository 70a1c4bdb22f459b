"""Watch mode's save-to-verdict latency against a cold `python grade.py KATA`, side by side.

    python benchmarks/watch_latency.py [--kata k01_creation,k30_optimizers] [--saves 7] [--pause 3]
                                       [--poll] [--compare OTHER_CHECKOUT]

Starts `grade.py watch KATA` on a scratch copy of the stubs, then saves the kata file
alternately as the reference and as the stub, and measures the time from each save to the
summary line (`score X/Y`) that ends every re-grade, and the CPU time the watch's processes
(grade.py, its zygote and the job it forked) spent on it (Linux: user and system time from /proc,
the jobs' once their zygote reaped them). Then times cold runs of `python grade.py KATA` on the
same folder. Reports the medians and their ratio, and the bound by design: the CPU time of one
save's grading plus the longest a save can wait to be seen (the poll interval, watch's default;
file events usually come sooner). On a busy machine the wall time also holds the wait for a core;
the CPU time does not. With ``--compare``, another checkout's watch runs beside this one's, their
saves alternating; ``--poll`` watches without file events.
"""

import argparse
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from batch_throughput import _cpu_seconds, _tree  # noqa: E402

from kata_harness.commands.watch import POLL  # noqa: E402


def _tree_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds of ``pid`` itself, and of every process under it with the children each has reaped."""
    if not sys.platform.startswith("linux"):
        return 0.0, 0.0
    return _cpu_seconds(pid, reaped=False), sum(_cpu_seconds(p, reaped=True) for p in _tree(pid) if p != pid)


def _lines(process, into: queue.Queue) -> None:
    for line in process.stdout:
        into.put((time.perf_counter(), line))


def _wait_for(lines: queue.Queue, prefix: str, timeout: float = 120) -> float:
    deadline = time.perf_counter() + timeout
    while True:
        at, line = lines.get(timeout=max(deadline - time.perf_counter(), 0.01))
        if line.startswith(prefix):
            return at


def _watcher(project: Path, kata: str, scratch: Path, poll: bool = False):
    """A ``grade.py watch KATA`` of ``project`` on a scratch copy of its stubs, once it watches:
    (process, its lines, the kata file, [reference text, stub text], its command)."""
    solutions = scratch / "katas"
    shutil.copytree(project / "katas", solutions)
    target = solutions / f"{kata}.py"
    versions = [(project / "reference" / target.name).read_text(), (project / "katas" / target.name).read_text()]
    command = [sys.executable, str(project / "grade.py"), "watch", kata, "--solutions", str(solutions), "--lang", "en",
               *(["--poll"] if poll else [])]
    process = subprocess.Popen(command, cwd=project, stdout=subprocess.PIPE, text=True, bufsize=1)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_lines, args=(process, lines), daemon=True).start()
    _wait_for(lines, "watching")
    return process, lines, target, versions, command


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kata", default="k01_creation", help="the kata saved (several: comma-separated, in turn)")
    parser.add_argument("--saves", type=int, default=7, help="saves per kata and checkout")
    parser.add_argument("--pause", type=float, default=3.0, help="seconds between a verdict and the next save")
    parser.add_argument("--poll", action="store_true", help="watch without file events (polling only)")
    parser.add_argument("--compare", type=Path, default=None, metavar="OTHER_CHECKOUT",
                        help="also watch in another checkout, its saves alternating with this one's")
    args = parser.parse_args()
    projects = {"this": ROOT, **({"other": args.compare.resolve()} if args.compare else {})}
    katas = args.kata.split(",")
    latencies: dict[tuple[str, str], list[float]] = {}
    cpus: dict[tuple[str, str], list[float]] = {}
    own: dict[tuple[str, str], list[float]] = {}   # grade.py's part of each save's CPU
    cold: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for kata in katas:
            watchers = {name: _watcher(project, kata, Path(scratch) / f"{name}-{kata}", args.poll)
                        for name, project in projects.items()}
            for number in range(args.saves):
                for name, (process, lines, target, versions, _) in watchers.items():
                    time.sleep(args.pause)   # a person reads the verdict
                    while not lines.empty():   # a save can be seen as two changes: drop the second's lines
                        lines.get_nowait()
                    used = _tree_cpu(process.pid)
                    saved = time.perf_counter()
                    target.write_text(versions[number % 2])
                    latencies.setdefault((name, kata), []).append(_wait_for(lines, "score ") - saved)
                    time.sleep(0.1)   # the zygote reaps the job after its last event: let it be counted
                    after = _tree_cpu(process.pid)
                    cpus.setdefault((name, kata), []).append(sum(after) - sum(used))
                    own.setdefault((name, kata), []).append(after[0] - used[0])
            for process, *_ in watchers.values():
                process.terminate()
                process.wait(timeout=10)
            for _ in range(max(3, args.saves // 2)):
                for name, (_, _, target, _, command) in watchers.items():
                    started = time.perf_counter()
                    subprocess.run(command[:2] + [kata, "--solutions", str(target.parent)], cwd=projects[name],
                                   check=True, stdout=subprocess.DEVNULL)
                    cold.setdefault((name, kata), []).append(time.perf_counter() - started)
    for (name, kata), values in latencies.items():
        warm, slow = statistics.median(values), statistics.median(cold[(name, kata)])
        cpu = statistics.median(cpus[(name, kata)])
        print(f"{name:>5} {kata}: watch, save to verdict: median {warm:.3f} s ({', '.join(f'{t:.3f}' for t in values)}); "
              f"CPU per save {cpu:.3f} s ({', '.join(f'{t:.3f}' for t in cpus[(name, kata)])}; grade.py's own "
              f"{statistics.median(own[(name, kata)]):.3f} s, the rest its zygote's and the job's); bound by design "
              f"{cpu + POLL:.3f} s (CPU + the {POLL} s poll); cold grade.py {kata}: median {slow:.3f} s; "
              f"watch is {slow / warm:.1f}x faster")


if __name__ == "__main__":
    main()
