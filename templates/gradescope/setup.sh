#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image (an Ubuntu base image,
# 22.04 or newer). The zip's contents are in /autograder/source.
set -euxo pipefail
root="${AUTOGRADER_ROOT:-/autograder}"
source_dir="$(cd "$(dirname "$0")" && pwd)"
pins="$source_dir/pins.txt"   # the one list of versions every platform installs (templates/pins.txt)

apt-get update
apt-get install -y python3 python3-venv python3-pip
# The pinned versions (NumPy 2.4) need Python 3.11 or newer: Ubuntu 22.04's python3 is 3.10, and its
# universe has python3.11.
python=python3
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  apt-get install -y python3.11 python3.11-venv
  python=python3.11
fi
# Grading sandboxes learner code with bubblewrap when it is present and works; without it, it still grades.
apt-get install -y bubblewrap || echo "bubblewrap is not available: grading runs without its sandbox"
# Where bubblewrap cannot run (Docker usually forbids its namespaces), learner code runs as this
# unprivileged user instead of root; grade_submission.py hides the reference and the secret from it.
id -u kata-student >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin kata-student

# A virtual environment: newer Ubuntu images refuse pip installs into the system Python.
"$python" -m venv "$root/venv"
# Every package at its pinned version, wheels only: first the CPU build of PyTorch, from PyTorch's
# CPU wheel index (about 200 MB instead of several GB of CUDA), then the rest from PyPI. The project
# itself is not installed: grade.py runs from /autograder/source.
torch_pin="$(grep -E '^torch==' "$pins")"
"$root/venv/bin/python" -m pip install --only-binary :all: "$torch_pin" --index-url https://download.pytorch.org/whl/cpu
"$root/venv/bin/python" -m pip install --only-binary :all: -r "$pins"
