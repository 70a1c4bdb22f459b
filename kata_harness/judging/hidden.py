"""Hidden cases: checks that run only in official grading, whose expected results no student file holds.

Official grading (the instructor's secret is given, or the format is one an instructor-side
grader records a grade from: gradescope) runs, after a function's public cases, its hidden cases
(``spec.Function.hidden_plan``): the cases a test module declares ``hidden=True``, and every
randomised public case drawn again with a seed derived from the secret. A submission that looks
its answers up in the public answer key therefore earns practice points only.

The expected results of hidden cases come from the live reference, or, where grading is against
the answer key, from ``tests/hidden_key.dat``, which ``KATA_SECRET=... python grade.py freeze``
writes into the instructor's project (no student template ships it: whoever grades with the hidden
cases has them from the instructor's project): a header in plain text (the number of hidden cases per function and the digest
of the public key it belongs to) and a Fernet token (AES-128-CBC with HMAC-SHA256) whose key is
derived from the secret. Only grade.py's parent reads the secret and decrypts; the children get
the hidden cases as [case index, seed] pairs, never the secret.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from ..files import read_regular, read_text
from ..layout import Layout
from . import answer_key
from .expectations import ANSWER_KEY, Source
from .integrity import SECRET_VARIABLE

MAGIC = b"KATA-HIDDEN-KEY 1\n"
# The formats a grade is recorded from where learner code cannot run first. Student-repository CI
# (classroom, workflow) gives practice feedback and never gets the secret: it grades the public cases.
OFFICIAL_FORMATS = ("gradescope",)
# The key derivation: PBKDF2 rather than a plain hash, since an instructor may choose a weak secret
# and the encrypted file is in every student's repository.
_SALT = b"torch-pitfall-katas hidden key v1"
_ITERATIONS = 200_000


class HiddenKeyError(Exception):
    """The hidden key cannot be used; ``key`` is the message key that says why and what to do."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def read_secret(path: str | Path | None = None) -> str | None:
    """The instructor's secret: the contents of ``path`` (``--secret-file``) or the ``KATA_SECRET``
    variable, without surrounding white space; None when there is none. An empty variable counts
    as none (GitHub passes a secret that is not set as an empty string); an empty or unreadable
    file raises ``OSError``."""
    if path is not None:
        secret = read_text(Path(path), 4096).strip()
        if not secret:
            raise OSError(f"{path} is empty")
        return secret
    return os.environ.get(SECRET_VARIABLE, "").strip() or None


def is_official(secret: str | None, output_format: str) -> bool:
    """Whether grading is official: the secret is given, or the format records a grade."""
    return secret is not None or output_format in OFFICIAL_FORMATS


def hidden_seed(secret: str, kata: str, function: str, index: int) -> int:
    """The seed of a randomised case drawn again in official grading: HMAC-SHA256 of the secret
    and the case's name, cut to 63 bits. Learner code may see it; it reveals nothing of the secret."""
    digest = hmac.new(secret.encode(), f"{kata}.{function}.{index}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def extras_for(plan: dict, secret: str, qualified: str) -> list:
    """The [case index, seed] pairs official grading adds for one function, from its spec's plan
    (``Function.hidden_plan``: a seed of None is drawn from the secret)."""
    kata, function = qualified.split(".", 1)
    return [[index, seed if seed is not None else hidden_seed(secret, kata, function, index)]
            for index, seed in plan["hidden"]]


def public_digest(path: Path) -> str:
    """SHA-256 of the public answer key's bytes: what ties a hidden key to it ("" when unreadable)."""
    try:
        return hashlib.sha256(read_regular(path)).hexdigest()
    except OSError:
        return ""


def _fernet(secret: str):
    # deferred: cryptography loads OpenSSL, and only official grading and freezing need it
    from cryptography.fernet import Fernet
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

    derived = PBKDF2HMAC(algorithm=hashes.SHA256(), length=32, salt=_SALT, iterations=_ITERATIONS) \
        .derive(secret.encode())
    return Fernet(base64.urlsafe_b64encode(derived))


def write_key(secret: str, extras: dict, observations: dict, root: Path) -> int:
    """Write ``tests/hidden_key.dat`` under ``root``: ``extras`` ({function: [[index, seed], ...]})
    and the reference's ``observations`` of them ({function: {device: [...]}}), encrypted, for the
    public key now in place. Returns its size in bytes."""
    digest = public_digest(Layout(root).answer_key)
    header = {"answer_key": digest, "checks": {name: len(pairs) for name, pairs in sorted(extras.items())}}
    payload = json.dumps({"answer_key": digest, "extras": extras, "observations": observations}, allow_nan=True)
    # Time 0: a Fernet token otherwise carries its creation time in plain text.
    token = _fernet(secret).encrypt_at_time(zlib.compress(payload.encode(), 9), 0)
    raw = MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + token + b"\n"
    Layout(root).hidden_key.write_bytes(raw)
    return len(raw)


def _parts(raw: bytes) -> tuple[dict, bytes]:
    if not raw.startswith(MAGIC):
        raise ValueError("not a hidden key")
    header, _, token = raw[len(MAGIC):].partition(b"\n")
    parsed = json.loads(header)
    if not isinstance(parsed, dict) or not isinstance(parsed.get("checks"), dict):
        raise ValueError("no header")
    return parsed, token.strip()


def read_header(root: Path) -> dict | None:
    """The hidden key's plain-text header (``answer_key``, ``checks``), or None when there is no
    readable hidden key."""
    try:
        return _parts(read_regular(Layout(root).hidden_key))[0]
    except (OSError, ValueError):
        return None


def decrypt(secret: str, root: Path) -> dict:
    """The hidden key's contents (``extras``, ``observations``); raises ``HiddenKeyError`` when it
    is missing, belongs to another answer key, or the secret does not open it."""
    from cryptography.fernet import InvalidToken  # deferred: see _fernet

    path = Layout(root).hidden_key
    if not path.exists():
        raise HiddenKeyError("error.hidden_missing")
    digest = public_digest(Layout(root).answer_key)
    try:
        header, token = _parts(read_regular(path))
    except (OSError, ValueError):
        raise HiddenKeyError("error.hidden_stale") from None
    if header.get("answer_key") != digest:
        raise HiddenKeyError("error.hidden_stale")
    try:
        payload = json.loads(zlib.decompress(_fernet(secret).decrypt(token)))
    except InvalidToken:
        raise HiddenKeyError("error.secret_wrong") from None
    except (ValueError, zlib.error):
        raise HiddenKeyError("error.hidden_stale") from None
    if payload.get("answer_key") != digest:
        raise HiddenKeyError("error.hidden_stale")
    return payload


@dataclass
class HiddenCases:
    """What one grading run does about hidden cases.

    ``official``: the grade counts (JSON ``"official"``); ``extras``: the hidden cases to run,
    {function: [[index, seed], ...]}; ``observations``: their expected observations when they come
    from the hidden key (None: from the live reference, or none); ``not_run``: hidden cases a
    practice run leaves out; ``error``: the message key when official grading cannot happen
    (every function then scores 0 with that message)."""

    official: bool
    extras: dict = field(default_factory=dict)
    observations: dict | None = None
    not_run: int = 0
    error: str | None = None

    def give_to(self, source: Source) -> None:
        """Give an expectations source the hidden cases: the live reference observes them, a
        recorded key appends their decrypted observations."""
        source.with_hidden(self.extras, self.observations)


def prepare(secret: str | None, official: bool, functions, source, root: Path) -> HiddenCases:
    """Decide the hidden cases of one run of ``functions`` against ``source`` (an expectations
    source). Practice (not ``official``): none, counting those left out. Official without the
    secret (a format that records a grade): the public cases only where no hidden key exists,
    else an error. With the secret: from the hidden key when grading against the answer key, else
    planned from the public key for the live reference."""
    names = [f.qualified for f in functions]
    if not official:
        header = read_header(root)
        checks = header["checks"] if header else {}
        return HiddenCases(False, not_run=sum(int(checks.get(name, 0)) for name in names))
    if secret is None:
        return HiddenCases(True, error="error.secret_missing" if Layout(root).hidden_key.exists() else None)
    if source.name == ANSWER_KEY:
        return _from_hidden_key(secret, names, root)
    return _planned(secret, functions, root)


def _from_hidden_key(secret: str, names: list[str], root: Path) -> HiddenCases:
    """Official grading against the answer key: the hidden cases and their expected observations,
    decrypted from the hidden key."""
    try:
        payload = decrypt(secret, root)
    except HiddenKeyError as problem:
        return HiddenCases(True, error=problem.key)
    extras = {name: payload["extras"][name] for name in names if payload["extras"].get(name)}
    observations = {name: payload["observations"][name] for name in extras}
    if any(len(cases) != len(extras[name]) for name in extras for cases in observations[name].values()):
        return HiddenCases(True, error="error.hidden_stale")
    return HiddenCases(True, extras, observations)


def _planned(secret: str, functions, root: Path) -> HiddenCases:
    """Official grading against the live reference: the hidden cases each function's plan in the
    public key asks for, drawn with the secret (the reference observes them). Where a hidden key
    exists, the secret must open it, as against the key: a mistyped secret would draw other hidden
    cases than the frozen ones, and nobody would notice."""
    if Layout(root).hidden_key.exists():
        try:
            decrypt(secret, root)
        except HiddenKeyError as problem:
            if problem.key == "error.secret_wrong":   # a stale key is the live reference's to outgrow
                return HiddenCases(True, error=problem.key)
    key = answer_key.load(Layout(root).answer_key)
    stale = set(key.stale_katas(root)) if key else set()
    if key is None or any(f.kata in stale or "plan" not in key.expected.get(f.qualified, {}) for f in functions):
        return HiddenCases(True, error="error.hidden_plan")
    extras = {f.qualified: extras_for(key.expected[f.qualified]["plan"], secret, f.qualified) for f in functions}
    return HiddenCases(True, {name: pairs for name, pairs in extras.items() if pairs})
