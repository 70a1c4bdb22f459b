"""A startup hook that makes this interpreter lack what Windows lacks, for the portability self-tests.

Put on PYTHONPATH, Python imports it at startup (``sitecustomize``): it deletes ``os.fork``,
``os.killpg``, ``os.setsid``, ``signal.SIGKILL`` and ``signal.SIGALRM``, and makes ``Popen`` refuse
``pass_fds`` as CPython's Windows ``_execute_child`` does. A crude stand-in, not a Windows run: it
shows that no code path of the harness needs these POSIX-only APIs.
"""

import os
import signal
import subprocess

for _name in ("fork", "killpg", "setsid"):
    if hasattr(os, _name):
        delattr(os, _name)
for _name in ("SIGKILL", "SIGALRM"):
    if hasattr(signal, _name):
        delattr(signal, _name)

_original = subprocess.Popen._execute_child  # type: ignore[attr-defined]


def _execute_child(self, args, executable, preexec_fn, close_fds, pass_fds, *rest):
    assert not pass_fds, "pass_fds not supported on Windows."
    return _original(self, args, executable, preexec_fn, close_fds, pass_fds, *rest)


subprocess.Popen._execute_child = _execute_child  # type: ignore[attr-defined]
