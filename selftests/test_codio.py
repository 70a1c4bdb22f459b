"""Codio: ``grade.py release --codio DIR`` and its codio_grade.py on a simulated Codio layout.

A Codio code test whose command names a file in ``.guides/secure`` runs in an ephemeral container
holding the student's workspace (``/home/codio/workspace``) and that folder, which students never
get. With "Allow Partial Points" on, the test reports its points as a percentage (0-100), with
feedback (at most 1 MB, ``format`` md) to ``$CODIO_PARTIAL_POINTS_V2_URL`` (POST, form-encoded), and
must exit 0. Here the workspace is a temporary folder, ``.guides/secure`` holds what release wrote,
and a local HTTP server plays Codio's.
"""

import http.server
import os
import shutil
import subprocess
import sys
import threading
import urllib.parse

import pytest

from kata_harness.content.curriculum import load_curriculum
from kata_harness.isolation.sandbox import available
from kata_harness.layout import LAYOUT
from selftests.gradekit import ROOT, run
from selftests.once import built_once

# Every test here runs grade.py or Codio's script; Codio runs Linux.
pytestmark = [pytest.mark.e2e, pytest.mark.skipif(sys.platform == "win32", reason="Codio runs Linux")]

POINTS = {f.qualified: f.points for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions}
TOTAL_POINTS = sum(POINTS.values())
SECRET = "codio-selftest-secret-Vq3n"
PEEK = '''

def filled(shape, value):
    # Hand in the reference's answer, read from the grader's folder (which exists while the test runs).
    namespace = {{}}
    exec(open({reference!r}).read(), namespace)
    print(open({secret!r}).read())
    return namespace["filled"](shape, value)
'''


@pytest.fixture(scope="module")
def secure(tmp_path_factory):
    """What release writes for a Codio assignment's .guides/secure folder (with a secret)."""
    def release(folder):
        environment = {**os.environ, "KATA_SECRET": SECRET}
        done = subprocess.run([sys.executable, str(ROOT / "grade.py"), "release", "--codio", str(folder / "secure")],
                              capture_output=True, text=True, timeout=900, env=environment)
        assert done.returncode == 0, done.stderr
        assert "checked" in done.stdout

    return built_once(tmp_path_factory, "codio-release", release) / "secure"


class _Codio(http.server.BaseHTTPRequestHandler):
    """Codio's partial-points endpoint: records each POST's form fields."""
    received: list = []

    def do_POST(self):
        length = int(self.headers["Content-Length"])
        self.received.append(dict(urllib.parse.parse_qsl(self.rfile.read(length).decode())))
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


@pytest.fixture
def codio():
    """A local stand-in for Codio's endpoint; yields (its URL, the POSTs it received)."""
    received: list = []
    handler = type("Handler", (_Codio,), {"received": received})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/partial?token=t", received
    finally:
        server.shutdown()


def _workspace(secure, tmp_path, solutions=()):
    """A student's workspace (the template's katas, the reference's in ``solutions``) with the secure folder."""
    workspace = tmp_path / "workspace"
    shutil.copytree(ROOT / "katas", workspace / "katas", ignore=shutil.ignore_patterns("__pycache__"))
    for name in solutions:
        shutil.copy(ROOT / "reference" / f"{name}.py", workspace / "katas" / f"{name}.py")
    shutil.copytree(secure, workspace / ".guides" / "secure")
    return workspace


def _run_code_test(workspace, url, env=None):
    """The code test's command, as Codio runs it: from the workspace."""
    environment = {**{k: v for k, v in os.environ.items() if k != "KATA_SECRET"},
                   "CODIO_PARTIAL_POINTS_V2_URL": url, **(env or {})}
    done = subprocess.run([sys.executable, ".guides/secure/codio_grade.py"], cwd=workspace, capture_output=True,
                          text=True, timeout=900, env=environment)
    assert done.returncode == 0, done.stderr[-3000:]   # Codio gives 0 points otherwise
    return done.stdout + done.stderr


def test_the_secure_folder_holds_the_grader_with_its_reference_and_secret(secure):
    for name in ("codio_grade.py", "grade.py", "reference/k01_creation.py", "kata_secret", "codio.json", "pins.txt"):
        assert (secure / name).is_file(), name
    assert (secure / "pins.txt").read_bytes() == (ROOT / "templates" / "pins.txt").read_bytes()   # what the stack installs
    assert (secure / "kata_secret").read_text().strip() == SECRET


def test_partial_points_are_the_percentage_with_the_summary_as_feedback(secure, tmp_path, codio):
    if not available():
        pytest.skip("bubblewrap does not work here (codio_grade.py refuses to grade without it)")
    url, received = codio
    workspace = _workspace(secure, tmp_path, ["k01_creation", "k03_dtypes"])
    _run_code_test(workspace, url)
    earned = sum(points for name, points in POINTS.items() if name.startswith(("k01_creation.", "k03_dtypes.")))
    assert len(received) == 1 and received[0]["format"] == "md"
    assert float(received[0]["points"]) == pytest.approx(100 * earned / TOTAL_POINTS, abs=0.01)
    assert f"score {earned}/{TOTAL_POINTS}" in received[0]["feedback"]
    assert len(received[0]["feedback"].encode()) <= 1_000_000


def test_learner_code_cannot_read_the_secure_folder(secure, tmp_path, codio):
    """The folder is in the test's container, beside the workspace: learner code that opens the
    reference or the secret finds nothing there, and earns nothing."""
    if not available():
        pytest.skip("bubblewrap does not work here")
    url, received = codio
    workspace = _workspace(secure, tmp_path, ["k01_creation"])
    with (workspace / "katas" / "k01_creation.py").open("a") as handle:
        handle.write(PEEK.format(reference=str(workspace / ".guides/secure/reference/k01_creation.py"),
                                 secret=str(workspace / ".guides/secure/kata_secret")))
    log = _run_code_test(workspace, url)
    k01 = sum(points for name, points in POINTS.items() if name.startswith("k01_creation."))
    assert float(received[0]["points"]) == pytest.approx(100 * (k01 - 1) / TOTAL_POINTS, abs=0.01)   # not filled
    assert SECRET not in received[0]["feedback"] and SECRET not in log
    assert "FileNotFoundError" in received[0]["feedback"] or "No such file" in received[0]["feedback"]


def test_a_linked_katas_folder_hands_in_nothing(secure, tmp_path, codio):
    """``katas -> .guides/secure/reference`` would hand in the reference itself."""
    if not available():
        pytest.skip("bubblewrap does not work here")
    url, received = codio
    workspace = _workspace(secure, tmp_path)
    shutil.rmtree(workspace / "katas")
    (workspace / "katas").symlink_to(workspace / ".guides" / "secure" / "reference")
    _run_code_test(workspace, url)
    assert float(received[0]["points"]) == 0 and "not implemented" in received[0]["feedback"]


def test_without_bubblewrap_nothing_is_graded(secure, tmp_path, codio):
    """Unsandboxed, learner code could read the reference and the secret: 0 points, and why."""
    url, received = codio
    workspace = _workspace(secure, tmp_path, [path.stem for path in (ROOT / "reference").glob("k*.py")])
    _run_code_test(workspace, url, env={"KATA_SANDBOX": "none"})
    assert float(received[0]["points"]) == 0 and "bubblewrap" in received[0]["feedback"]


def test_release_refuses_a_folder_inside_the_project(tmp_path):
    done = run("release", "--codio", str(ROOT / "reference" / "secure"))
    assert done.returncode == 2 and "inside this project" in done.stderr
