"""pytest setup for the kata tests: markers (cuda, points), the --solutions and --lang options,
automatic skipping of cuda checks without a GPU, and compact reports for learners.
The machinery lives in kata_harness/pytest_plugin.py."""

pytest_plugins = ("kata_harness.pytest_plugin",)
