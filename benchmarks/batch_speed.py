"""Grading speed, measured side by side in one run (only ratios mean anything on a noisy machine).

    python benchmarks/batch_speed.py [--submissions 20] [--runs 5]

(1) a full `python grade.py --solutions reference` against the bare `import torch, numpy,
    pytest` floor, alternating, medians of --runs each;
(2) `python grade.py batch` on generated submissions (solved, stub, wrong, crashing, whole
    repositories) against grading them one by one with `python grade.py --solutions SUB`.
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from selftests.submissions import make  # noqa: E402


def timed(command) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    python, grade = sys.executable, str(ROOT / "grade.py")

    floor_command = [python, "-c", "import torch, numpy, pytest"]
    full_command = [python, grade, "--solutions", "reference", "--format", "json"]
    # A kata whose checks need none of the parts torch loads on first use (meta-device kernels,
    # the optimizer machinery): what the harness itself costs over the floor.
    plain_command = full_command + ["k15"]
    for command in (floor_command, full_command, plain_command):
        timed(command)   # warm the file cache
    floor, full, plain = [], [], []
    for _ in range(args.runs):
        floor.append(timed(floor_command))
        full.append(timed(full_command))
        plain.append(timed(plain_command))
    base = statistics.median(floor)
    print(f"(1) full grade {statistics.median(full):.2f} s, import floor {base:.2f} s: "
          f"{statistics.median(full) / base:.2f}x  (k15 alone: {statistics.median(plain) / base:.2f}x)")

    with tempfile.TemporaryDirectory() as scratch:
        submissions = Path(scratch) / "submissions"
        kinds = make(submissions, args.submissions)
        batch = timed([python, grade, "batch", str(submissions), "--out", str(Path(scratch) / "book.csv")])
        alone = 0.0
        for name, kind in kinds.items():
            folder = submissions / name / ("katas" if kind == "repo" else "")
            alone += timed([python, grade, "--solutions", str(folder), "--format", "json"])
    print(f"(2) {args.submissions} submissions: batch {batch:.1f} s, one by one {alone:.1f} s: "
          f"batch is {alone / batch:.1f}x faster")


if __name__ == "__main__":
    main()
