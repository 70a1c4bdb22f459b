"""Every path the harness reads or writes, in one object: a project's layout.

A project (this one, a student template, a copy a self-test makes) is a folder holding the
learner's ``katas/``, the instructor's ``reference/``, the kata specs and answer keys in
``tests/``, the ``curriculum/``, the lesson notes, the harness and ``grade.py``. ``Layout(root)``
names each of them; ``LAYOUT`` is the project this harness belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Layout:
    """The paths of the project at ``root``."""

    root: Path

    ANSWER_KEY = "tests/answer_key.dat"       # names as messages and manifests show them
    HIDDEN_KEY = "tests/hidden_key.dat"
    MANIFEST = "grading-manifest.json"

    @property
    def katas(self) -> Path:
        """The learner's solutions (stubs in a fresh template)."""
        return self.root / "katas"

    @property
    def reference(self) -> Path:
        """The instructor's reference solutions (absent from a student template)."""
        return self.root / "reference"

    @property
    def tests(self) -> Path:
        """The kata specs (``test_kNN_*.py``) and the answer keys."""
        return self.root / "tests"

    @property
    def answer_key(self) -> Path:
        """The public answer key: the reference's observations of the public cases."""
        return self.root / self.ANSWER_KEY

    @property
    def hidden_key(self) -> Path:
        """The encrypted hidden key: the reference's observations of the hidden cases."""
        return self.root / self.HIDDEN_KEY

    @property
    def curriculum(self) -> Path:
        """One TOML file per kata: titles, points, pitfalls, hints."""
        return self.root / "curriculum"

    @property
    def harness(self) -> Path:
        """This package."""
        return self.root / "kata_harness"

    @property
    def templates(self) -> Path:
        """What a release adds (the student README, Gradescope's scripts, ...)."""
        return self.root / "templates"

    @property
    def manifest(self) -> Path:
        """A student template's integrity manifest."""
        return self.root / self.MANIFEST

    @property
    def backups(self) -> Path:
        """Where ``grade.py reset`` keeps the learner's files."""
        return self.root / ".kata_backups"

    def spec(self, kata: str) -> Path:
        """The test module that declares ``kata``'s checks."""
        return self.tests / f"test_{kata}.py"

    def in_template(self) -> bool:
        """Whether this project is a student template (it carries an integrity manifest)."""
        return self.manifest.exists()


LAYOUT = Layout(ROOT)
