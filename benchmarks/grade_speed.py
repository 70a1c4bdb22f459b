"""How much a full grade costs over the bare import floor, measured side by side.

    python benchmarks/grade_speed.py [--runs 5]

Runs, alternately, in one session (machines are noisy: only ratios from one run mean anything):

- floor:        python -c "import torch, numpy, pytest"
- lazy floor:   the same plus `import torch._dynamo`: what torch itself loads on the first use of
                an optimizer (torch.optim imports it in Optimizer.step and zero_grad). No process
                that runs the optimizer katas can finish sooner.
- reference:    python grade.py --solutions reference --format json (live reference, sandboxed)
- template:     the reference's solutions graded in a released student template (answer key)
- one kata:     python grade.py k01 in that template

and reports the median of each and its ratio to both floors.
"""

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOOR = [sys.executable, "-c", "import torch, numpy, pytest"]
LAZY_FLOOR = [sys.executable, "-c", "import torch, numpy, pytest, torch._dynamo"]


def timed(command, cwd: Path) -> float:
    """Wall seconds of one run of ``command``."""
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def template_with_reference(folder: Path) -> Path:
    """A released student template whose katas/ hold the reference solutions."""
    template = folder / "template"
    subprocess.run([sys.executable, str(ROOT / "grade.py"), "release", str(template)], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    for solution in (ROOT / "reference").glob("k*.py"):
        shutil.copy(solution, template / "katas" / solution.name)
    return template


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        template = template_with_reference(Path(folder))
        first_kata = sorted(p.stem for p in (ROOT / "katas").glob("k*.py"))[0].split("_")[0]
        commands = {
            "floor": (FLOOR, ROOT),
            "lazy floor": (LAZY_FLOOR, ROOT),
            "reference": ([sys.executable, "grade.py", "--solutions", "reference", "--format", "json"], ROOT),
            "template": ([sys.executable, "grade.py", "--format", "json"], template),
            f"one kata ({first_kata})": ([sys.executable, "grade.py", first_kata, "--format", "json"], template),
        }
        for command, cwd in commands.values():   # warm the file cache once
            timed(command, cwd)
        times = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, (command, cwd) in commands.items():
                times[name].append(timed(command, cwd))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        print(f"{name:<16} median {medians[name]:5.2f} s  ({', '.join(f'{t:.2f}' for t in values)})"
              f"  {medians[name] / medians['floor']:.2f}x floor  {medians[name] / medians['lazy floor']:.2f}x lazy floor")


if __name__ == "__main__":
    main()
