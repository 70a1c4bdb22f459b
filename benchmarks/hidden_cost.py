"""What official grading (public and hidden cases) costs over practice grading, measured side by side.

    python benchmarks/hidden_cost.py [--runs 5]

Copies the project into a scratch folder and freezes it there with a throwaway secret (so that it
holds tests/hidden_key.dat), then runs a full `grade.py --solutions reference --format json`
alternately without and with KATA_SECRET, in both settings where official grades come from:
against the keys (a student template in GitHub Classroom: the hidden key is decrypted) and against
the live reference (batch, Gradescope: the referee observes the hidden cases too). Reports the
median wall time of each and their ratio; machines are noisy, so only ratios from one run mean
anything. (Wall time only: a sandboxed child is killed, not waited for, so CPU time is not counted.)
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECRET = "benchmark-secret-not-for-grading"
FILES = ("grade.py", "pyproject.toml", "conftest.py")
FOLDERS = ("kata_harness", "tests", "curriculum", "katas", "reference")


def scratch_project(folder: Path) -> Path:
    """A copy of the project frozen with SECRET."""
    project = folder / "project"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "hidden_key.dat")
    for name in FILES:
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, project / name)
    for name in FOLDERS:
        shutil.copytree(ROOT / name, project / name, ignore=skip)
    subprocess.run([sys.executable, "grade.py", "freeze"], cwd=project, check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "KATA_SECRET": SECRET})
    return project


def timed(project: Path, against: str, secret: str | None) -> float:
    """Wall seconds of one full grade."""
    environment = {k: v for k, v in os.environ.items() if k != "KATA_SECRET"}
    if secret:
        environment["KATA_SECRET"] = secret
    started = time.perf_counter()
    subprocess.run([sys.executable, "grade.py", "--solutions", "reference", "--against", against, "--format", "json"],
                   cwd=project, check=True, stdout=subprocess.DEVNULL, env=environment)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        project = scratch_project(Path(folder))
        settings = {"answer-key": "template (keys)", "reference": "instructor (live reference)"}
        runs = [(against, secret) for against in settings for secret in (None, SECRET)]
        for against, secret in runs:   # warm the file cache once
            timed(project, against, secret)
        times = {run: [] for run in runs}
        for _ in range(args.runs):
            for run in runs:
                times[run].append(timed(project, *run))
    for against, label in settings.items():
        practice, official = times[(against, None)], times[(against, SECRET)]
        p, o = statistics.median(practice), statistics.median(official)
        print(f"{label:28}  practice median {p:5.2f} s ({', '.join(f'{t:.2f}' for t in practice)})")
        print(f"{'':28}  official median {o:5.2f} s ({', '.join(f'{t:.2f}' for t in official)})")
        print(f"{'':28}  ratio official / practice: {o / p:.2f}x")


if __name__ == "__main__":
    main()
