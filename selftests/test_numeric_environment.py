"""The learner's sandboxed child computes with the same CPU kernels as the referee beside it.

``ATEN_CPU_CAPABILITY`` picks torch's CPU kernels (a machine without AVX2 runs the ``default`` ones).
The referee runs with the grader's environment; a sandbox that dropped the variable made a correct
answer differ from the reference in the last bits, and a kata that compares exactly failed it.
"""

from __future__ import annotations

import os

import pytest

from kata_harness.isolation import sandbox
from kata_harness.layout import LAYOUT
from selftests.gradekit import grade_json, statuses


def test_the_sandbox_keeps_the_kernel_choice(monkeypatch):
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", "default")
    args = sandbox.command([], LAYOUT)
    settings = {args[i + 1]: args[i + 2] for i, arg in enumerate(args) if arg == "--setenv"}
    assert settings.get("ATEN_CPU_CAPABILITY") == "default"


@pytest.mark.e2e
@pytest.mark.skipif(not sandbox.available(), reason="needs bubblewrap: the sandbox is what is checked")
def test_the_reference_scores_full_marks_on_the_default_kernels():
    doc = grade_json("k40", "k41", "--solutions", "reference", env={**os.environ, "ATEN_CPU_CAPABILITY": "default"})
    assert doc["score"] == doc["max_score"], {name: status for name, status in statuses(doc).items()
                                              if status != "passed"}


@pytest.mark.e2e
def test_the_answer_key_gives_the_reference_full_marks_on_the_default_kernels():
    """A student template grades against the answer key, frozen on this machine's kernels: on
    another family (a CPU without AVX2, ``default``) the reference still scores full marks, so
    no observation may hang on the last bits (Adam stepping a parameter whose gradient is rounding
    noise, say: k40 and k42 had one)."""
    doc = grade_json("--solutions", "reference", "--against", "answer-key",
                     env={**os.environ, "ATEN_CPU_CAPABILITY": "default"})
    assert doc["score"] == doc["max_score"], {name: status for name, status in statuses(doc).items()
                                              if status != "passed"}
