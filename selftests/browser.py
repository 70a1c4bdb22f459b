"""A real headless Chromium, driven through the DevTools protocol, for the self-tests that open a page.

Chromium talks the protocol over two pipes (``--remote-debugging-pipe``: it reads commands on its
file descriptor 3 and writes answers and events on 4, each message JSON ended by a NUL byte), so
neither a port nor a WebDriver is needed. ``Browser.load`` opens a page and keeps every request it
makes, every console message, log entry, uncaught exception and dialog, which a test can check.

    python -m selftests.browser PAGE.html SHOT.png [WIDTH [HEIGHT]]   # a screenshot (as in docs/)
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

# Headless as root, offline: no sandbox (root cannot have Chromium's), no GPU, and none of the
# background traffic (updates, sync, QUIC probes) that would only fill the log with refused connections.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars", "--remote-debugging-pipe")
EVENTS_KEPT = ("Network.requestWillBeSent", "Runtime.consoleAPICalled", "Runtime.exceptionThrown",
               "Log.entryAdded", "Page.javascriptDialogOpening")


def executable() -> str | None:
    """The Chromium on this machine (Debian's ``chromium``, or Chrome), or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class BrowserError(RuntimeError):
    """Chromium answered a command with an error, closed its pipe, or was too slow."""


class Browser:
    """One headless Chromium with a fresh profile, and one page in it."""

    def __init__(self, width: int = 1200, height: int = 900, timeout: float = 60.0):
        path = executable()
        if path is None:
            raise BrowserError("no Chromium on this machine")
        self.timeout, self.profile = timeout, tempfile.mkdtemp(prefix="kata-chromium-")
        commands_read, commands_write = os.pipe()
        answers_read, answers_write = os.pipe()
        devnull = os.open(os.devnull, os.O_RDWR)
        # Chromium's ends go to its 3 and 4 (posix_spawn's dup2s: no Python runs between fork and exec),
        # from above 9, so that no move overwrites an end still to be moved (a pipe may itself be 3 or 4).
        ends = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (commands_read, answers_write, devnull)]
        for fd in (commands_read, answers_write, devnull):
            os.close(fd)
        moves = [(ends[2], 0), (ends[2], 1), (ends[2], 2), (ends[0], 3), (ends[1], 4)]
        self.pid = os.posix_spawn(path, [path, *FLAGS, f"--user-data-dir={self.profile}", f"--window-size={width},{height}",
                                         "about:blank"], dict(os.environ),
                                  file_actions=[(os.POSIX_SPAWN_DUP2, fd, to) for fd, to in moves])
        for fd in ends:
            os.close(fd)
        self.commands, self.answers = os.fdopen(commands_write, "wb"), answers_read
        self.buffer, self.next_id, self.events = b"", 0, []
        self.session = self._page_session()

    # --- the protocol ---------------------------------------------------------------------------
    def _send(self, method: str, params: dict | None = None, session: str | None = None) -> int:
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.commands.write(json.dumps(message).encode() + b"\0")
        self.commands.flush()
        return self.next_id

    def _receive(self, deadline: float) -> dict:
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise BrowserError("Chromium did not answer in time")
            import select
            ready, _, _ = select.select([self.answers], [], [], 0.5)
            if ready:
                chunk = os.read(self.answers, 1 << 20)
                if not chunk:
                    raise BrowserError("Chromium closed its pipe")
                self.buffer += chunk
        raw, _, self.buffer = self.buffer.partition(b"\0")
        message = json.loads(raw)
        if message.get("method") in EVENTS_KEPT:
            self.events.append(message)
        return message

    def call(self, method: str, params: dict | None = None, *, page: bool = True) -> dict:
        """Send one command (to the page, or with ``page=False`` to the browser) and return its result."""
        sent = self._send(method, params, self.session if page else None)
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._receive(deadline)
            if message.get("id") == sent:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error']}")
                return message.get("result", {})

    def wait_for(self, method: str) -> dict:
        """The next event ``method`` of the page (events already received count)."""
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._receive(deadline)
            if message.get("method") == method and message.get("sessionId") == self.session:
                return message.get("params", {})

    def _page_session(self) -> str:
        targets = self.call("Target.getTargets", page=False)["targetInfos"]
        page = next(t["targetId"] for t in targets if t["type"] == "page")
        session = self.call("Target.attachToTarget", {"targetId": page, "flatten": True}, page=False)["sessionId"]
        self.session = session
        for domain in ("Page", "Network", "Runtime", "Log"):
            self.call(f"{domain}.enable")
        return session

    # --- what a test uses --------------------------------------------------------------------------
    def load(self, path: Path) -> None:
        """Open the file ``path`` and wait until it has loaded (events from earlier pages are dropped)."""
        self.events.clear()
        self.call("Page.navigate", {"url": path.resolve().as_uri()})
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (returned by value: JSON data)."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def requests(self) -> list[str]:
        """The URL of every request the page made since it was opened (its own file included)."""
        return [e["params"]["request"]["url"] for e in self.events if e["method"] == "Network.requestWillBeSent"]

    def problems(self) -> list[dict]:
        """Every console message, log entry, uncaught exception and dialog since the page was opened."""
        return [e for e in self.events if e["method"] != "Network.requestWillBeSent"]

    def screenshot(self, path: Path, width: int = 1200, height: int | None = None) -> None:
        """Save the page as a PNG, laid out ``width`` CSS pixels wide: all of it, or its top ``height`` pixels."""
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        tall = height or self.evaluate("document.documentElement.scrollHeight")
        shot = self.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                    "clip": {"x": 0, "y": 0, "width": width, "height": tall, "scale": 1}})
        path.write_bytes(base64.b64decode(shot["data"]))

    def pdf(self, path: Path) -> None:
        """Print the page to a PDF file, as the browser's print dialog would (A4, backgrounds kept)."""
        printed = self.call("Page.printToPDF", {"paperWidth": 8.27, "paperHeight": 11.69, "printBackground": True})
        path.write_bytes(base64.b64decode(printed["data"]))

    def close(self) -> None:
        """Close Chromium (kill it if it does not leave in time) and remove its profile."""
        try:
            self._send("Browser.close")
        except OSError:
            pass
        deadline = time.monotonic() + 10
        while os.waitpid(self.pid, os.WNOHANG) == (0, 0):
            if time.monotonic() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
                break
            time.sleep(0.05)
        self.commands.close()
        os.close(self.answers)
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


if __name__ == "__main__":
    page, shot = Path(sys.argv[1]), Path(sys.argv[2])
    with Browser() as browser:
        browser.load(page)
        browser.screenshot(shot, *(int(n) for n in sys.argv[3:5]))
    print(f"{shot}: {shot.stat().st_size} bytes")
