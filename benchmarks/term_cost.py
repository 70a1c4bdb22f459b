"""What the instructor's term costs a batch: a class graded with every term feature against the same
class graded without them.

    python benchmarks/term_cost.py [--submissions 300] [--runs 2] [--compare OTHER_CHECKOUT] [--no-sandbox] [-j N]

The class is ``batch_throughput.make_class``'s (a third solved, a third half right, a third stubs;
every solved file a student's own), with a roster of every student (and a few more without a
submission), a record of submission times (an LMS's export: no commits, so the folders are graded
as they are), a deadline that some students missed, a late rule and an extension. Side by side in
one session, alternating (machines are noisy: compare within one run):

- ``plain``: ``grade.py batch CLASS --out G.json``;
- ``term``: the same with ``--roster --record --at --late --extensions --feedback --report``
  (feedback files and the report included), and the shared solutions and provenance every run has;
- with ``--compare``, ``plain`` again in another checkout of this project (the version before the
  term features, say), whose ratio to ``term`` is the whole cost of the features.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from batch_throughput import make_class, timed_batch  # noqa: E402

DEADLINE = "2026-12-01T00:00Z"


def write_term_files(where: Path, made: dict[str, str]) -> list[str]:
    """The roster, the record and the extensions of the class ``made``; the term's options for them."""
    names = sorted(made)
    roster = ["submission,student,email,id"] + [f"{n},学生 {i},{n}@uni.example,{1000 + i}" for i, n in enumerate(names)]
    roster += [f"absent{i},缺席 {i},absent{i}@uni.example,{9000 + i}" for i in range(5)]
    (where / "roster.csv").write_text("\n".join(roster) + "\n", encoding="utf-8")
    times = ["submission,submitted_at"] + [
        f"{n},2026-11-{28 + i % 3}T23:{i % 60:02d}:00Z" if i % 5 else f"{n},2026-12-02T10:00:00Z" for i, n in enumerate(names)]
    (where / "record.csv").write_text("\n".join(times) + "\n", encoding="utf-8")
    (where / "extensions.csv").write_text(f"submission,deadline\n{names[0]},2026-12-04T00:00Z\n", encoding="utf-8")
    return ["--roster", str(where / "roster.csv"), "--record", str(where / "record.csv"), "--at", DEADLINE,
            "--late", "2026-12-03T00:00Z=0.8", "--extensions", str(where / "extensions.csv"),
            "--feedback", str(where / "feedback"), "--report", str(where / "report.html")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=300)
    parser.add_argument("--runs", type=int, default=2, help="batch runs of each kind (medians)")
    parser.add_argument("--compare", type=Path, default=None, metavar="OTHER_CHECKOUT")
    parser.add_argument("--no-sandbox", action="store_true")
    parser.add_argument("-j", "--jobs", type=int, default=None)
    args = parser.parse_args()
    flags = (["--no-sandbox"] if args.no_sandbox else []) + (["-j", str(args.jobs)] if args.jobs else [])
    with tempfile.TemporaryDirectory() as scratch:
        where = Path(scratch)
        made = make_class(where / "class", args.submissions)
        term = write_term_files(where, made)
        kinds = {"plain": (ROOT, flags), "term": (ROOT, flags + term)}
        if args.compare:
            kinds["other"] = (args.compare.resolve(), flags)
        walls: dict[str, list[float]] = {kind: [] for kind in kinds}
        cpus: dict[str, list[float]] = {kind: [] for kind in kinds}
        for _ in range(args.runs):
            for kind, (project, options) in kinds.items():
                wall, _, _, cpu = timed_batch(project, where / "class", where / f"{kind}.json", options)
                walls[kind].append(wall)
                cpus[kind].append(cpu)
        feedback = len(list((where / "feedback").glob("*.md")))
    wall = {kind: statistics.median(values) for kind, values in walls.items()}
    cpu = {kind: statistics.median(values) for kind, values in cpus.items()}
    print(f"{args.submissions} submissions, {os.cpu_count()} CPUs (load average {os.getloadavg()[0]:.1f} at the end), "
          f"{'unsandboxed' if args.no_sandbox else 'sandboxed'}; {feedback} feedback files")
    for kind in kinds:
        print(f"  {kind:5}: {wall[kind]:7.1f} s wall ({', '.join(f'{w:.1f}' for w in walls[kind])}), "
              f"{cpu[kind]:7.1f} CPU s")
    print(f"term / plain: {wall['term'] / wall['plain']:.2f}x wall, {cpu['term'] / cpu['plain']:.2f}x CPU")
    if args.compare:
        print(f"term / the other checkout's plain: {wall['term'] / wall['other']:.2f}x wall, "
              f"{cpu['term'] / cpu['other']:.2f}x CPU")


if __name__ == "__main__":
    main()
