"""The kept sandboxed lane of the self-tests (``warm``): which folders it serves, which it does not."""

import tempfile
from pathlib import Path

from selftests import warm
from selftests.gradekit import ROOT


def test_the_kept_lane_serves_the_run_s_temp_folder_and_the_project_s_graded_folders(tmp_path):
    """Folders made under the run's temp folder (this test's ``tmp_path`` among them, made after the
    lane may have started) and the project's graded folders share the one kept sandboxed lane;
    any other folder gets a lane that shows only itself, as grade.py's zygote does."""
    kept = warm._shown_with(tmp_path.resolve())
    assert tmp_path.resolve() not in kept and any(tmp_path.resolve().is_relative_to(shown) for shown in kept)
    for folder in (ROOT / "reference", ROOT / "katas", ROOT / "selftests" / "examples" / "solved"):
        assert warm._shown_with(folder.resolve()) == kept
    assert (ROOT / "tests").resolve() not in kept   # the kata specs are bound file by file, never the answer key
    with tempfile.TemporaryDirectory() as elsewhere:
        alone = Path(elsewhere).resolve()
        assert warm._shown_with(alone) == (alone,)
