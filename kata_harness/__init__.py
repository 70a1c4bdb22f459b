"""The shared kata harness.

- ``catalog``: the curriculum (titles, points, pitfalls, hints); pure Python.
- ``spec``: what kata tests declare (cases, input recipes, aspects); imports torch.
- ``observe``: runs one function on fresh inputs and records what can be observed, as plain data.
- ``compare``: compares two observations and finds the first difference; pure Python.
- ``report``: turns a difference into the learner's message (pitfall, fix, tutorial section).
- ``runner``: loads modules and grades functions in-process (pytest, self-tests, grading child).
- ``child``: the grading child process that grade.py talks to.
- ``pytest_plugin``: turns kata tests into pytest items with compact reports.

This package imports nothing heavy at import time: grade.py's parent process reads the
catalog without importing torch.
"""
