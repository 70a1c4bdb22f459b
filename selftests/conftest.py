"""The self-tests' own pytest setup: fixtures/ holds example katas and solutions, not tests."""

collect_ignore_glob = ["fixtures/*"]
