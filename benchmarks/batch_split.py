"""Where a batch's time goes: grade.py's own CPU by part, and how long each worker's zygote waits.

    python benchmarks/batch_split.py [--submissions 30] [--no-sandbox] [-j N]

Grades ``batch_floor``'s class (``batch_throughput.make_class``, with every term option of
``term_cost``) in this process, as ``grade.py batch`` does, timing (thread CPU time, so that each
thread's share is its own):

- grade.py's parts: the intake (reading every submission), the expected table and the cache's
  state, decoding the children's events (``protocol.parse_event``, in the reader threads), judging
  them (``verdicts.verdict_for``), the term's finish and the gradebook, the feedback files and the
  class report, and everything else (the command's start, the worker threads' book-keeping);
- each worker's zygote from grade.py's side: how many jobs it ran, the wall time from sending each
  job to the report of its end (``exited``), and the time from that report to the next job sent,
  while the zygote waits for its worker (the worker judges, stages the next file, sends it).

The children's CPU time (the zygotes and their jobs) is ``batch_floor.py``'s to measure; on a
shared machine read the CPU times and the shares, not the wall time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from batch_throughput import make_class  # noqa: E402
from term_cost import write_term_files  # noqa: E402

from kata_harness import commands  # noqa: E402
from kata_harness.batch import engine  # noqa: E402
from kata_harness.commands import batch as batch_command  # noqa: E402
from kata_harness.isolation import channel  # noqa: E402
from kata_harness.judging import judge  # noqa: E402

SPENT: dict[str, float] = defaultdict(float)   # part -> thread CPU seconds
_LOCK = threading.Lock()
SENT: dict[int, list[float]] = defaultdict(list)    # worker thread -> when each job was sent
ENDED: dict[int, list[float]] = defaultdict(list)   # worker thread -> when each job's end was reported


def _timed(part: str, function):
    """``function``, adding the CPU time of the thread that calls it to ``part``."""

    def timed(*args, **kwargs):
        started = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            with _LOCK:
                SPENT[part] += time.thread_time() - started
    return timed


def _instrument() -> None:
    """Wrap the parts of grade.py measured, where they are called from."""
    engine.collect = _timed("intake", engine.collect)
    engine.state_digest = _timed("expected table and cache state", engine.state_digest)
    batch_command.expected_table = _timed("expected table and cache state", batch_command.expected_table)
    channel.parse_event = _timed("decoding events", channel.parse_event)
    judge.verdict_for = _timed("judging", judge.verdict_for)
    engine.term.finish = _timed("term and gradebook", engine.term.finish)
    engine.gradebook.encode = _timed("term and gradebook", engine.gradebook.encode)
    batch_command.feedback.write_all = _timed("feedback and report", batch_command.feedback.write_all)
    batch_command.class_report.write = _timed("feedback and report", batch_command.class_report.write)
    send, ended = channel.ForkedChild.send, channel.ForkedChild._ended

    def sending(self, job):
        SENT[threading.get_ident()].append(time.monotonic())
        return send(self, job)

    def ending(self, fields):
        ENDED[threading.get_ident()].append(time.monotonic())
        return ended(self, fields)
    channel.ForkedChild.send, channel.ForkedChild._ended = sending, ending


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=30)
    parser.add_argument("--no-sandbox", action="store_true")
    parser.add_argument("-j", "--jobs", type=int, default=None)
    args = parser.parse_args()
    _instrument()
    with tempfile.TemporaryDirectory() as scratch:
        where = Path(scratch)
        made = make_class(where / "class", args.submissions)
        term = write_term_files(where, made)
        argv = ["batch", str(where / "class"), "--out", str(where / "gradebook.json"), *term,
                *(["--no-sandbox"] if args.no_sandbox else []), *(["-j", str(args.jobs)] if args.jobs else [])]
        started, own = time.monotonic(), time.process_time()
        commands.parse(argv, started).run()
        wall, own = time.monotonic() - started, time.process_time() - own
    print(f"{args.submissions} submissions, {'unsandboxed' if args.no_sandbox else 'sandboxed'}, every term option, "
          f"{os.cpu_count()} CPUs (load average {os.getloadavg()[0]:.1f} at the end): {wall:.1f} s wall; grade.py's "
          f"own CPU {own:.2f} s")
    for part, seconds in sorted(SPENT.items(), key=lambda item: -item[1]):
        print(f"  {part:32} {seconds:6.2f} CPU s ({seconds / own:.0%})")
    rest = own - sum(SPENT.values())
    print(f"  {'everything else':32} {rest:6.2f} CPU s ({rest / own:.0%})")
    for number, worker in enumerate(SENT):
        sent, ended = SENT[worker], ENDED[worker]
        busy = sum(end - send for send, end in zip(sent, ended))
        waits = [send - end for end, send in zip(ended, sent[1:])]
        if not waits:
            continue
        print(f"  worker {number + 1}: {len(sent)} jobs, {busy:.1f} s from each job sent to its end reported "
              f"(the first includes the zygote's start), {sum(waits):.2f} s waiting for the worker between jobs "
              f"({sum(waits) / (busy + sum(waits)):.1%}; median {statistics.median(waits) * 1000:.1f} ms, "
              f"longest {max(waits) * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
