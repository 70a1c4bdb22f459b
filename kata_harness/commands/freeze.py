"""``grade.py freeze``: record the reference's observations into the answer key (and, with the
instructor's secret, those of the hidden cases into the encrypted hidden key)."""

from __future__ import annotations

import sys
from pathlib import Path

from ..api import read_secret
from ..content.curriculum import load_curriculum, resolve
from ..content.messages import message
from ..judging.answer_key import AnswerKey, harness_digest, kata_digest, observing_environment, reference_digest, write
from ..judging.expectations import observe_reference
from ..judging.hidden import extras_for, write_key
from ..layout import LAYOUT, ROOT, Layout
from . import UsageError


def run(args, *, started: float) -> int:
    """``grade.py freeze``: record the reference's observations into the answer key (and, with the
    instructor's secret, those of the hidden cases into the encrypted hidden key)."""

    secret = read_secret(args.secret_file, "freeze")
    if not LAYOUT.reference.is_dir():
        raise UsageError(message("error.no_reference", "en"))
    if secret is None and LAYOUT.hidden_key.exists():
        # A new public key would leave the hidden key behind; official grading would then refuse.
        raise UsageError(f"freeze: {Layout.HIDDEN_KEY} exists, so freeze needs the secret it was made with: "
                         f"KATA_SECRET=... python grade.py freeze (or delete it to give up hidden cases)")
    katas = load_curriculum(LAYOUT.curriculum)
    try:
        key, size = freeze_answer_key(katas)
        print(f"answer key: {len(key.expected)} functions in {len(katas)} katas, torch {key.torch_version}, "
              f"{size // 1024} KiB -> {Layout.ANSWER_KEY}")
        if secret:
            cases, functions, size = freeze_hidden_key(secret, resolve([], katas), key.expected)
            print(f"hidden key: {cases} hidden cases of {functions} functions, encrypted, {size // 1024} KiB -> "
                  f"{Layout.HIDDEN_KEY}")
    except FreezeError as failed:
        print("\n".join(failed.lines), file=sys.stderr)
        return 1
    return 0


class FreezeError(Exception):
    """The reference could not be observed; ``lines`` say which functions and why (nothing was written)."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


def observed_all(observed, what: str = "the answer key") -> None:
    """Raise ``FreezeError`` when the referee could not observe some function (``observed``: a
    ``grading.Grading`` from ``observe_reference``): one line per function, then what was not written."""
    if observed.verdicts:
        lines = [f"{name}: {verdict.reason.fields.get('error', verdict.reason.key) if verdict.reason else '?'}"
                 for name, verdict in observed.verdicts.items()]
        raise FreezeError(lines + [f"freeze: the reference could not be observed; {what} was not written"])


def freeze_answer_key(katas: list, root: Path = ROOT) -> tuple[AnswerKey, int]:
    """``grade.py freeze``: have the referee child observe every function of ``root``'s reference
    and write the key to ``root/tests/answer_key.dat``, with the torch version, the digests that
    make it stale, and the pristine stubs. Returns the key and its size in bytes; raises
    ``FreezeError`` (writing nothing) when a function could not be observed. It also records what
    else the observations depended on (the harness, the environment), so that grading against the
    live reference can take them from the key while none of that changed (``AnswerKey.standing_in``)."""
    import torch  # deferred: only for its version (the observing happens in the referee child)

    functions = [info for kata in katas for info in kata.functions]
    observed_with = {"harness": harness_digest(root), "environment": observing_environment()}
    observed = observe_reference(functions, Layout(root))
    observed_all(observed)
    key = AnswerKey(
        torch_version=torch.__version__, reference=reference_digest(root),
        katas={kata.name: kata_digest(kata.name, root) for kata in katas},
        expected=observed.expected,
        stubs={kata.name: (Layout(root).katas / f"{kata.name}.py").read_text(encoding="utf-8") for kata in katas},
        observed_with=observed_with,
    )
    return key, write(key, Layout(root).answer_key)


def freeze_hidden_key(secret: str, functions, public: dict, root: Path = ROOT) -> tuple[int, int, int]:
    """``KATA_SECRET=... grade.py freeze``, after the public key: observe the reference on the
    hidden cases the secret gives (``public``: the public key's expected events, which hold each
    function's plan) and write the encrypted hidden key. Returns (hidden cases, functions, size in
    bytes); raises ``FreezeError`` (writing nothing) when the reference cannot be
    observed or raises on a hidden case."""
    extras = {name: extras_for(event["plan"], secret, name) for name, event in public.items()}
    extras = {name: pairs for name, pairs in extras.items() if pairs}
    observed = observe_reference([f for f in functions if f.qualified in extras], Layout(root), extras)
    observed_all(observed, "the hidden key")
    # The public cases come first, as in grading; the key keeps what follows them.
    hidden_observations = {name: {device: cases[public[name]["plan"]["public"]:]
                                  for device, cases in observed.expected[name]["observations"].items()}
                           for name in extras}
    failing = sorted(name for name, devices in hidden_observations.items()
                     if any("raised" in case for cases in devices.values() for case in cases))
    if failing:   # a hidden case the reference fails on would cost every student its points
        raise FreezeError([f"freeze: the reference raises on hidden cases of {', '.join(failing)}; "
                                      f"the hidden key was not written"])
    size = write_key(secret, extras, hidden_observations, root)
    return sum(map(len, extras.values())), len(extras), size
