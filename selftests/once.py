"""Build something once per test run, also when pytest-xdist spreads a module over several workers.

A module-scoped fixture runs once per worker that runs one of the module's tests; a release
grades twice to check itself, so building it once for all workers saves that time. The workers'
temporary folders share a parent, where the first worker builds and the others wait and reuse.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def run_folder(tmp_path_factory) -> Path:
    """The test run's temporary folder: the base temp folder, or under pytest-xdist the parent of
    every worker's (where ``built_once`` builds)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def built_once(tmp_path_factory, name: str, build) -> Path:
    """The path ``name``, made by ``build(path)`` in the first worker that asks; the others wait for
    it. Tests must copy what they change: the result is shared."""
    from filelock import FileLock  # a dependency of torch

    shared = run_folder(tmp_path_factory)
    path = shared / name
    with FileLock(f"{path}.lock"):
        if not path.exists():
            partial = shared / f"{name}.partial"   # a failed build leaves nothing that looks finished
            shutil.rmtree(partial, ignore_errors=True)
            partial.mkdir()
            build(partial)
            partial.rename(path)
    return path
