"""What the class report costs, as ratios (only ratios mean anything on a noisy machine).

    python benchmarks/report_cost.py [--submissions 8] [--rows 1000] [--runs 5] [--screenshot docs/class-report.png]

(1) `python grade.py batch --report` on --submissions generated submissions (the reference with
    the self-tests' classic wrong answers mixed in): batch's seconds per submission on this machine;
(2) on a synthetic JSON gradebook of --rows submissions (selftests/classes.py): the time to write
    the class report, and the time the gradebook's per-function details add to batch (building
    them for every function of every row, and writing them into the JSON), medians of --runs, each
    as a share of what batch takes for --rows submissions at (1)'s pace;
(3) the report's size, and how long headless Chromium takes to draw it (navigation to the end of
    the load event; the best and the median of --runs loads), where Chromium is installed.
--screenshot saves the top of (1)'s report, as the README shows it.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kata_harness.aspects.compare import Difference  # noqa: E402
from kata_harness.content.curriculum import load_curriculum  # noqa: E402
from kata_harness.judging.verdicts import Status, Verdict  # noqa: E402
from kata_harness.layout import LAYOUT  # noqa: E402
from kata_harness.outputs import class_report  # noqa: E402
from kata_harness.outputs.gradebook import encode as _gradebook  # noqa: E402
from kata_harness.outputs.gradebook import function_entries  # noqa: E402
from selftests import browser  # noqa: E402
from selftests.classes import synthetic_gradebook, varied_class  # noqa: E402


def median_time(action, runs: int) -> float:
    """The median wall time of ``action()`` over ``runs`` runs."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def verdicts_like(row: dict, functions) -> dict:
    """Verdicts that give the synthetic ``row``'s statuses: a failure differs in its result's values."""
    found = Difference("values", "aspect.values", {"index": "[0, 1]", "yours": "1.5", "expected": "0.75"},
                       {"key": "where.result"})
    made = {}
    for info in functions:
        entry = row["functions"][info.qualified]
        status = Status(entry["status"])
        made[info.qualified] = Verdict(status, "cpu", entry.get("call", ""), entry.get("pitfall"),
                                       found if status == Status.FAILED else None,
                                       ("error.timeout", {"seconds": 5}) if status == Status.ERROR else ())
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=8)
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--screenshot", type=Path, default=None)
    args = parser.parse_args()
    katas = load_curriculum(LAYOUT.curriculum)
    functions = [f for kata in katas for f in kata.functions]

    with tempfile.TemporaryDirectory() as scratch:
        here = Path(scratch)
        varied_class(here / "submissions", args.submissions)
        started = time.perf_counter()
        subprocess.run([sys.executable, str(ROOT / "grade.py"), "batch", str(here / "submissions"), "--out",
                        str(here / "gradebook.json"), "--report", str(here / "class-report.html"), "--lang", "en"],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        per_submission = (time.perf_counter() - started) / args.submissions
        print(f"(1) batch on {args.submissions} submissions: {per_submission:.2f} s per submission")
        if args.screenshot and browser.executable():
            with browser.Browser() as page:
                page.load(here / "class-report.html")
                page.screenshot(args.screenshot, 1100, 1250)
            print(f"    screenshot -> {args.screenshot}")

        rows = synthetic_gradebook(args.rows)
        batch_time = per_submission * args.rows
        out = here / "big.html"
        report = median_time(lambda: class_report.write(out, rows, katas, "en", source="big.json"), args.runs)
        verdicts = [verdicts_like(row, functions) for row in rows]
        details = median_time(lambda: [function_entries(functions, v) for v in verdicts], args.runs)
        plain = [{k: v for k, v in row.items() if k != "functions"} for row in rows]
        written = (median_time(lambda: _gradebook(Path("book.json"), rows, functions), args.runs)
                   - median_time(lambda: _gradebook(Path("book.json"), plain, functions), args.runs))
        book = len(json.dumps(rows, indent=1, ensure_ascii=False).encode())
        print(f"(2) {args.rows} submissions (batch: about {batch_time:.0f} s here): the report {report:.2f} s = "
              f"{100 * report / batch_time:.3f}% of batch; the gradebook's details {details + written:.2f} s "
              f"({details:.2f} building, {written:.2f} writing) = {100 * (details + written) / batch_time:.3f}%; "
              f"the JSON gradebook {book / 1e6:.1f} MB")
        size = out.stat().st_size
        if browser.executable() is None:
            print(f"(3) the report: {size / 1e6:.2f} MB (no Chromium here to time its drawing)")
            return
        drawn = []
        with browser.Browser() as page:
            for _ in range(args.runs):
                page.load(out)
                drawn.append(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd"))
        print(f"(3) the report: {size / 1e6:.2f} MB, drawn in {min(drawn):.0f} ms (best), "
              f"{statistics.median(drawn):.0f} ms (median of {args.runs})")


if __name__ == "__main__":
    main()
