"""How much a full grade costs over the bare import floor, measured side by side.

    python benchmarks/grade_speed.py [--runs 5] [--compare OTHER_CHECKOUT]

Runs, alternately, in one session (machines are noisy: only ratios from one run mean anything):

- floor:        python -c "import torch, numpy, pytest"
- lazy floor:   the same plus `import torch._dynamo`: what torch itself loads on the first use of
                an optimizer (torch.optim imports it in Optimizer.step and zero_grad). No process
                that runs the optimizer katas can finish sooner.
- reference:    python grade.py --solutions reference --format json (every lesson, against the
                reference: sandboxed, as a learner runs it)
- stubs:        python grade.py --format json (the stubs of every lesson, against the reference)
- template:     the reference's solutions graded in a released student template (answer key)
- one kata:     python grade.py k01 in that template
- with ``--compare``, reference and stubs again in another checkout (the version before a change)

and reports the median wall time of each and its ratio to both floors, whether each checkout's
answer key stands in for the live reference on this machine (a key frozen on another machine,
whose CPU has other instruction sets, or with another harness does not: that checkout's reference
and stubs grades then observe the reference live, in a referee beside the learner's lane, and
cost a second torch import; run ``python grade.py freeze`` there first to compare like with
like), and for the floors, reference and stubs also the median CPU time (user and system of the whole process tree, from a
run of its own beside each: unsandboxed, since a sandboxed child is killed, not waited for, and
its CPU time would go uncounted), which a machine shared with other work changes far less.
"""

import argparse
import os
import resource
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


def cpu_of(command, cwd: Path) -> float:
    """CPU seconds (user and system) of one run of ``command`` and every process it waited for,
    learner code unsandboxed (see the module's docstring)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL, env={**os.environ, "KATA_SANDBOX": "none"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def template_with_reference(folder: Path) -> Path:
    """A released student template whose katas/ hold the reference solutions."""
    template = folder / "template"
    subprocess.run([sys.executable, str(ROOT / "grade.py"), "release", str(template)], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    for solution in (ROOT / "reference").glob("k*.py"):
        shutil.copy(solution, template / "katas" / solution.name)
    return template


STANDING_IN = ("from kata_harness.judging import answer_key as a; from kata_harness.layout import LAYOUT; "
               "k = a.load(LAYOUT.answer_key); print(len(k.standing_in(LAYOUT.root)) if k else 0, "
               "len(k.expected) if k else 0)")


def standing_in(checkout: Path) -> str:
    """How many of the functions that ``checkout``'s answer key holds it stands in for here."""
    done = subprocess.run([sys.executable, "-c", STANDING_IN], cwd=checkout, capture_output=True, text=True)
    if done.returncode != 0:
        return "could not be read"
    held, total = done.stdout.split()
    if held == total:
        return f"stands in for all {total} functions"
    return (f"stands in for {held} of {total} functions: the rest is observed live by a referee "
            "(frozen on another machine or with another harness; run `python grade.py freeze` there)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--compare", type=Path, default=None, metavar="OTHER_CHECKOUT")
    args = parser.parse_args()
    reference = [sys.executable, "grade.py", "--solutions", "reference", "--format", "json"]
    stubs = [sys.executable, "grade.py", "--format", "json"]
    with tempfile.TemporaryDirectory() as folder:
        template = template_with_reference(Path(folder))
        first_kata = sorted(p.stem for p in (ROOT / "katas").glob("k*.py"))[0].split("_")[0]
        commands = {
            "floor": (FLOOR, ROOT),
            "lazy floor": (LAZY_FLOOR, ROOT),
            "reference": (reference, ROOT),
            "stubs": (stubs, ROOT),
            "template": ([sys.executable, "grade.py", "--format", "json"], template),
            f"one kata ({first_kata})": ([sys.executable, "grade.py", first_kata, "--format", "json"], template),
        }
        if args.compare:
            commands.update({"other reference": (reference, args.compare.resolve()),
                             "other stubs": (stubs, args.compare.resolve())})
        with_cpu = [name for name in commands if "floor" in name or "reference" in name or "stubs" in name]
        for command, cwd in commands.values():   # warm the file cache once
            timed(command, cwd)
        times: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in with_cpu}
        for _ in range(args.runs):
            for name, (command, cwd) in commands.items():
                times[name].append(timed(command, cwd))
                if name in with_cpu:
                    cpus[name].append(cpu_of(command, cwd))
    medians = {name: statistics.median(values) for name, values in times.items()}
    cpu = {name: statistics.median(values) for name, values in cpus.items()}
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end")
    print(f"answer key, this checkout: {standing_in(ROOT)}")
    if args.compare:
        print(f"answer key, other checkout: {standing_in(args.compare.resolve())}")
    for name, values in times.items():
        line = (f"{name:<16} median {medians[name]:5.2f} s  ({', '.join(f'{t:.2f}' for t in values)})"
                f"  {medians[name] / medians['floor']:.2f}x floor  {medians[name] / medians['lazy floor']:.2f}x lazy floor")
        if name in cpu:
            line += f"; CPU {cpu[name]:5.2f} s, {cpu[name] / cpu['lazy floor']:.2f}x the lazy floor's"
        print(line)


if __name__ == "__main__":
    main()
