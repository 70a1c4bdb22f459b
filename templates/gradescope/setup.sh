#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image (an Ubuntu base image,
# 22.04 or newer: the katas need Python 3.10+). The zip's contents are in /autograder/source.
set -euxo pipefail
root="${AUTOGRADER_ROOT:-/autograder}"
source_dir="$(cd "$(dirname "$0")" && pwd)"

apt-get update
apt-get install -y python3 python3-venv python3-pip
# Grading sandboxes learner code with bubblewrap when it is present and works; without it, it still grades.
apt-get install -y bubblewrap || echo "bubblewrap is not available: grading runs without its sandbox"
# Where bubblewrap cannot run (Docker usually forbids its namespaces), learner code runs as this
# unprivileged user instead of root; grade_submission.py hides the reference and the secret from it.
id -u kata-student >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin kata-student

# A virtual environment: newer Ubuntu images refuse pip installs into the system Python.
python3 -m venv "$root/venv"
"$root/venv/bin/python" -m pip install --upgrade pip
# The CPU build of PyTorch, from PyTorch's CPU wheel index (about 200 MB instead of several GB of CUDA).
"$root/venv/bin/python" -m pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
"$root/venv/bin/python" -m pip install -e "$source_dir"
