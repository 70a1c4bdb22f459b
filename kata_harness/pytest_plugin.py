"""pytest integration: each ``KATA`` declared in a test module becomes one item per function and
device, graded by the harness and reported in the learner's terms (no harness frames).

The project a pytest run checks is its root folder (``config.rootpath``: where ``pyproject.toml``
and the ``conftest.py`` that loads this plugin are), whichever copy of the harness runs it."""

from __future__ import annotations

import os
import threading
from functools import cache
from pathlib import Path

import pytest

from .content.curriculum import load_curriculum
from .content.messages import LANGUAGES, default_language, message
from .judging import expectations
from .judging.judge import FUNCTION_TIMEOUT
from .judging.verdicts import Status, Verdict, judge
from .layout import Layout
from .observation import local
from .observation.local import cuda_available, import_learner, load_kata_spec, load_module, observe_devices
from .outputs.explanations import render
from .spec import Function, Kata


class KataFailure(Exception):
    """A learner-facing failure; its text is the whole report."""


def pytest_addoption(parser):
    """The --solutions and --lang options."""
    group = parser.getgroup("katas")
    group.addoption("--solutions", default="katas", metavar="DIR",
                    help="folder of solutions to check (default: katas; 'reference' checks the reference)")
    group.addoption("--lang", default=None, choices=LANGUAGES, help="language of the reports (en or zh)")


def pytest_configure(config):
    """Register the cuda and points markers."""
    config.addinivalue_line("markers", "cuda: needs a CUDA GPU; skipped when there is none")
    config.addinivalue_line("markers", "points(n): the points the checked function is worth")


@cache
def _warmed_up() -> None:
    local.warm_up()


def _project(config) -> Layout:
    """The project this pytest run checks: its root folder."""
    return Layout(Path(config.rootpath))


@cache
def _function_info(project: Layout):
    return {f.qualified: f for kata in load_curriculum(project.curriculum) for f in kata.functions}


@cache
def _source(project: Layout):
    """Where ``project``'s expected results come from, chosen as grade.py chooses
    (``expectations.open_source``): the source, or the ``NoExpectations`` that says why there is none."""
    try:
        return expectations.open_source(project.root)
    except expectations.NoExpectations as missing:
        return missing


@cache
def _module(path: str, mtime: float):
    return load_module(Path(path))


def _load(path: Path):
    """A reference kata module (cached until the file changes)."""
    return _module(str(path), path.stat().st_mtime)


@cache
def _learner(path: str, mtime: float):
    return import_learner(Path(path))


def _import_learner(path: Path):
    """The learner's kata module and None, or None and why it cannot be imported (cached until
    the file changes: one import per session, as grade.py does)."""
    return _learner(str(path), path.stat().st_mtime)


def _solutions_dir(config) -> Path:
    solutions = Path(config.getoption("--solutions"))
    return solutions if solutions.is_absolute() else Path(config.rootpath) / solutions


def pytest_collect_file(file_path, parent):
    """`pytest katas/k05_devices.py` runs that kata's tests (against that file)."""
    if file_path.suffix != ".py" or file_path.parent.resolve() != _solutions_dir(parent.config).resolve():
        return None
    if not _project(parent.config).spec(file_path.stem).exists():
        return None
    return KataFile.from_parent(parent, path=file_path)


def _within(limit: float, work, too_long: str):
    """``work()``, or a ``KataFailure`` saying ``too_long`` when it runs past ``limit`` seconds.
    The learner's code runs in a thread, so a hang costs only this test on every OS (a timeout
    that interrupts the main thread does not exist on Windows); the thread is left behind."""
    box = {}

    def run():
        try:
            box["value"] = work()
        except BaseException as error:  # handed to the test's own thread
            box["error"] = error
    thread = threading.Thread(target=run, daemon=True, name="kata-learner-call")
    thread.start()
    thread.join(limit)
    if thread.is_alive():
        raise KataFailure(too_long)
    if "error" in box:
        raise box["error"]
    return box["value"]


class KataFile(pytest.File):
    """A learner's kata file named on the command line: its kata's checks."""

    def collect(self):
        return _items(self, load_kata_spec(self.path.stem, _project(self.config).tests))


def pytest_pycollect_makeitem(collector, name, obj):
    """A test module's ``KATA`` becomes one item per function and device."""
    if name != "KATA" or not isinstance(obj, Kata):
        return None
    return _items(collector, obj)


def _item_devices(function) -> list[tuple[str, list[str]]]:
    """(item device, devices it checks) for each item of ``function``. The meta device carries no
    values, so a meta item of its own would pass a function whose values are wrong: its checks
    (device, dtype, shape of every result) run in the cpu item, after the cpu checks, as grade.py
    judges them together."""
    folded = "cpu" in function.devices and "meta" in function.devices
    return [(device, [device, "meta"] if folded and device == "cpu" else [device])
            for device in function.devices if not (folded and device == "meta")]


def _items(parent, kata: Kata) -> list:
    """One item per function and device (meta inside cpu), marked with its points (and cuda where it applies)."""
    items = []
    for function in kata.functions:
        for device, checked in _item_devices(function):
            item = KataItem.from_parent(parent, name=f"{function.name}[{device}]",
                                        kata=kata.name, function=function, device=device, checked=checked)
            if device == "cuda":
                item.add_marker(pytest.mark.cuda)
            info = _function_info(_project(parent.config)).get(f"{kata.name}.{function.name}")
            item.add_marker(pytest.mark.points(info.points if info else 1))
            items.append(item)
    return items


class KataItem(pytest.Item):
    """One kata function checked on one device (``checked``: that device, and meta for the cpu item)."""

    def __init__(self, *, kata, function, device, checked=None, **kwargs):
        super().__init__(**kwargs)
        self.kata, self.function, self.device = kata, function, device
        self.checked = list(checked or [device])

    def _lang(self) -> str:
        return self.config.getoption("--lang") or default_language()

    def runtest(self):
        """Grade the learner's function on this item's device; fail with the learner's message."""
        if self.device == "cuda" and not cuda_available():
            pytest.skip(message("skipped.cuda", self._lang()))
        info = _function_info(_project(self.config))[f"{self.kata}.{self.function.name}"]
        solutions_dir = _solutions_dir(self.config)
        learner_file = solutions_dir / f"{self.kata}.py"
        shown_file = os.path.relpath(learner_file, self.config.rootpath)
        lang = self._lang()
        if not learner_file.exists():
            raise KataFailure(message("error.no_file", lang, file=shown_file))
        learner, failure = _import_learner(learner_file)
        if failure:
            raise KataFailure(message(failure.key, lang, file=shown_file, **failure.fields))
        learner_fn = getattr(learner, self.function.name, None)
        if not callable(learner_fn):
            raise KataFailure(message("error.not_found", lang, file=shown_file, function=self.function.name))
        source = _source(_project(self.config))
        if isinstance(source, expectations.NoExpectations):
            raise KataFailure(message(str(source), lang))
        if source.name == expectations.REFERENCE:
            reference_file = source.folder / f"{self.kata}.py"
            if not reference_file.exists():   # as grade.py says: the instructor's problem, named
                raise KataFailure(message("error.reference", lang, error=f"reference/{self.kata}.py does not exist"))
            reference = _load(reference_file)
            expected = observe_devices(getattr(reference, self.function.name), self.function, self.kata, self.checked)
        else:
            expected = self._recorded(source, info, lang)
        limit = self.function.timeout or FUNCTION_TIMEOUT
        _warmed_up()   # what torch loads on first use is loaded once, before the first time limit starts
        verdict = _within(limit, lambda: grade_against(self.function, self.kata, learner_fn, expected, str(learner_file)),
                          message("error.timeout", lang, seconds=limit))
        if verdict.status != Status.PASSED:
            raise KataFailure(render(verdict, info, lang, solutions=os.path.relpath(solutions_dir, self.config.rootpath)))

    def _recorded(self, source, info, lang: str) -> dict:
        """This item's observations from the answer key (a template without reference/)."""
        event = source.lookup(info)
        if isinstance(event, Verdict):   # stale, or not in the key: the learner's message says which
            raise KataFailure(message(event.reason_key or "error.not_in_key", lang))
        if self.device not in event["observations"]:
            pytest.skip(message("skipped.not_in_key", lang, device=self.device))
        return {device: event["observations"][device] for device in self.checked if device in event["observations"]}

    def repr_failure(self, excinfo, style=None):
        """The learner's message alone, without harness frames."""
        if isinstance(excinfo.value, KataFailure):
            return f"{self.kata}.{self.function.name} [{self.device}]\n{excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        """Where the item is reported: the test module and ``kata.function[device]``."""
        return self.path, None, f"{self.kata}.{self.function.name}[{self.device}]"


def grade_function(spec: Function, kata: str, learner_fn, reference_fn, learner_file=None,
                   devices=None) -> Verdict:
    """Grade ``learner_fn`` against ``reference_fn`` in this process."""
    usable, skipped = local.devices_for(spec)
    devices = usable if devices is None else devices
    verdict = grade_against(spec, kata, learner_fn, observe_devices(reference_fn, spec, kata, devices), learner_file)
    verdict.skipped = skipped
    return verdict


def grade_against(spec: Function, kata: str, learner_fn, expected: dict, learner_file=None) -> Verdict:
    """Grade ``learner_fn`` against recorded observations (``{device: [case observations]}``) in this
    process: the pytest route, which observes and judges where the learner's code runs."""
    yours = observe_devices(learner_fn, spec, kata, list(expected), learner_file)
    return judge(spec.aspects, local.tolerance_of(spec), yours, expected)
