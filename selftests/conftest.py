"""The self-tests' own pytest setup: fixtures/ holds example katas and solutions, not tests.
Self-tests run whole grading sessions, so they get a longer backstop than the kata tests' 60 s."""

import pytest

collect_ignore_glob = ["fixtures/*"]


def pytest_collection_modifyitems(items):
    for item in items:
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(900))
