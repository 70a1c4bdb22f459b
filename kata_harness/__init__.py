"""The shared kata harness, one folder per role:

- ``content/``: what learners read (the curriculum, the messages);
- ``spec`` and ``observation/``: what kata tests declare and how a call is observed (the only torch importers);
- ``isolation/``: where learner code runs (the child protocol, children and zygotes, the sandbox);
- ``judging/``: deciding the score in grade.py's parent (comparison, verdicts, the judge, expected results);
- ``outputs/``: what a grading prints (explanations, the JSON document, text, summaries, official formats),
  and what batch writes besides points (each function's details in the gradebook, the class report);
- ``batch/``: grading a whole class (intake, cache, worker pool, deduplication);
- ``platforms/``: what belongs to each platform (the student template and its workflow's grading step,
  Gradescope, Classroom 50, Codio, the learning platforms' imports);
- ``commands/``: grade.py's command line, one module per subcommand;
- ``layout`` (every path), ``files`` (reading learner-controlled files), ``records`` (the plain-data
  records that cross process boundaries) and ``pytest_plugin`` (the pytest route).

One grading: ``commands.grade`` picks the functions and the source of expected results; the judge
(``judging.judge``) queues one job per kata on a lane (``isolation.channel``), whose children observe
the learner's code (``observation``) and stream plain data back; the judge compares it with the
expected records and keeps one verdict per function; ``outputs`` put them into words. docs/architecture.md
tells it in full.

Nothing heavy is imported by this package: grade.py's parent reads the curriculum and judges without
torch.
"""
