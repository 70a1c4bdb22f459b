"""Watch mode's save-to-verdict latency against a cold `python grade.py KATA`, side by side.

    python benchmarks/watch_latency.py [--kata k01] [--saves 7] [--pause 3]

Starts `grade.py watch KATA` on a scratch copy of the stubs, then saves the kata file
alternately as the reference and as the stub, and measures the time from each save to the
summary line (`score X/Y`) that ends every re-grade. Then times cold runs of
`python grade.py KATA` on the same folder. Reports the medians and their ratio.
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


def _lines(process, into: queue.Queue) -> None:
    for line in process.stdout:
        into.put((time.perf_counter(), line))


def _wait_for(lines: queue.Queue, prefix: str, timeout: float = 120) -> float:
    deadline = time.perf_counter() + timeout
    while True:
        at, line = lines.get(timeout=max(deadline - time.perf_counter(), 0.01))
        if line.startswith(prefix):
            return at


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kata", default="k01_creation")
    parser.add_argument("--saves", type=int, default=7)
    parser.add_argument("--pause", type=float, default=3.0, help="seconds between a verdict and the next save")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        solutions = Path(scratch) / "katas"
        shutil.copytree(ROOT / "katas", solutions)
        target = solutions / f"{args.kata}.py"
        versions = [(ROOT / "reference" / target.name).read_text(), (ROOT / "katas" / target.name).read_text()]
        command = [sys.executable, str(ROOT / "grade.py"), "watch", args.kata, "--solutions", str(solutions),
                   "--lang", "en"]
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True, bufsize=1)
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=_lines, args=(process, lines), daemon=True).start()
        _wait_for(lines, "watching")
        latencies = []
        for number in range(args.saves):
            time.sleep(args.pause)   # a person reads the verdict
            while not lines.empty():   # a save can be seen as two changes: drop the second's lines
                lines.get_nowait()
            saved = time.perf_counter()
            target.write_text(versions[number % 2])
            latencies.append(_wait_for(lines, "score ") - saved)
        process.terminate()
        process.wait(timeout=10)
        cold = []
        for _ in range(max(3, args.saves // 2)):
            started = time.perf_counter()
            subprocess.run(command[:2] + [args.kata, "--solutions", str(solutions)], cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL)
            cold.append(time.perf_counter() - started)
    warm, slow = statistics.median(latencies), statistics.median(cold)
    print(f"watch, save to verdict: median {warm:.3f} s  ({', '.join(f'{t:.3f}' for t in latencies)})")
    print(f"cold grade.py {args.kata}: median {slow:.3f} s  ({', '.join(f'{t:.3f}' for t in cold)})")
    print(f"watch is {slow / warm:.1f}x faster")


if __name__ == "__main__":
    main()
