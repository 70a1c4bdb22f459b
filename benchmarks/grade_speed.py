"""How much a full grade costs over the bare import floor, measured side by side.

    python benchmarks/grade_speed.py [--runs 5]

Runs `python grade.py --solutions reference --format json` and `python -c "import torch, numpy,
pytest"` alternately, and reports the median of each and their ratio (machines are noisy:
only the ratio from one run means anything).
"""

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {
    "floor": [sys.executable, "-c", "import torch, numpy, pytest"],
    "grade": [sys.executable, str(ROOT / "grade.py"), "--solutions", "reference", "--format", "json"],
}


def timed(command) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for command in COMMANDS.values():   # warm the file cache once
        timed(command)
    times = {name: [] for name in COMMANDS}
    for _ in range(args.runs):
        for name, command in COMMANDS.items():
            times[name].append(timed(command))
    floor, grade = statistics.median(times["floor"]), statistics.median(times["grade"])
    print(f"import floor  median {floor:.2f} s  ({', '.join(f'{t:.2f}' for t in times['floor'])})")
    print(f"full grade    median {grade:.2f} s  ({', '.join(f'{t:.2f}' for t in times['grade'])})")
    print(f"ratio grade / floor: {grade / floor:.2f}x")


if __name__ == "__main__":
    main()
