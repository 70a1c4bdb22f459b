"""The shared kata harness. The main paths through it:

- grading (``python grade.py``): ``cli`` and ``commands`` read the command line; ``curriculum``
  loads titles, points, pitfalls and hints (pure Python); ``expectations`` says where expected
  results come from (the live reference or the answer key); ``grading`` is the judge in the
  parent process, talking over ``channel`` to ``child`` processes (under ``sandbox``), which
  observe learner code with ``in_process``; ``report`` explains each verdict with ``messages``;
  ``formats``, ``official`` and ``summary`` print it.
- observing (in a child, or in pytest): ``spec`` is what kata tests declare (cases, input
  recipes, aspects); ``observe`` calls a function on fresh inputs and ``describe`` records what
  can be seen, as plain data (``records``); ``compare`` finds the first difference.
- the pytest route: ``pytest_plugin`` turns kata tests into pytest items with compact reports.
- instructors: ``answer_key`` and ``hidden`` (freeze), ``release``, ``batch``, ``check``,
  ``integrity``; learners: ``watch``, ``reset``.

This package imports nothing heavy at import time: grade.py's parent process reads the
curriculum without importing torch.
"""
