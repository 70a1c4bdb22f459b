"""One list of package versions, ``templates/pins.txt``, for every platform that installs packages.

Gradescope's setup.sh, the Classroom 50 autograder and Codio's install command read the list itself
(each release puts it beside them); the practice workflow and the devcontainer of the student
template name the same versions in their own text, and the tests here hold those equal to the list.
Every pin lies inside pyproject.toml's range for its package; torch is 2.13.0, the version .ci/run
installs (the newest whose CPU build this project's CI machine has), and the project's own
self-test workflow also runs the newest release on GitHub's runners.
"""

import ast
import json
import re
import sys

import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

if sys.version_info >= (3, 11):
    import tomllib
else:   # pyproject.toml's dependency for Python 3.10
    import tomli as tomllib

from selftests.gradekit import ROOT

PINS_FILE = ROOT / "templates" / "pins.txt"
STUDENT = ROOT / "templates" / "student"
NEWEST_TORCH = "2.15.0"   # the newest release on PyPI when this was written; the self-test workflow runs it


def _pins() -> dict:
    """{canonical name: Requirement} of pins.txt, each exactly one ``name==version`` (a marker allowed)."""
    pins = {}
    for line in PINS_FILE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        requirement = Requirement(line)
        specifiers = list(requirement.specifier)
        assert len(specifiers) == 1 and specifiers[0].operator == "==", line
        assert canonicalize_name(requirement.name) not in pins, f"{requirement.name} is pinned twice"
        pins[canonicalize_name(requirement.name)] = requirement
    return pins


def _version(requirement: Requirement) -> str:
    return next(iter(requirement.specifier)).version


def _named_pins(text: str) -> dict:
    """{canonical name: version} of every ``name==version`` written in ``text`` (a command line)."""
    return {canonicalize_name(name): version for name, version in re.findall(r"([A-Za-z0-9_.-]+)==([0-9][^\s\"';]*)", text)}


def test_the_list_pins_every_dependency_once_inside_the_projects_ranges():
    pins = _pins()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for line in project["dependencies"]:
        declared = Requirement(line)
        name = canonicalize_name(declared.name)
        assert name in pins, f"pins.txt has no version of {declared.name}"
        assert declared.specifier.contains(_version(pins[name]), prereleases=False), (line, str(pins[name]))
        assert str(declared.marker) == str(pins[name].marker), (line, str(pins[name]))   # where it applies
    assert set(pins) == {canonicalize_name(Requirement(line).name) for line in project["dependencies"]}
    assert _version(pins["torch"]) == "2.13.0"


def test_ci_installs_the_pinned_torch_and_no_other():
    installs = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
                if "pip install" in line and not line.lstrip().startswith("#")]
    torch = [line for line in installs if re.search(r"\btorch\b", line)]
    assert len(torch) == 1 and re.findall(r"torch\S*", torch[0]) == [f"torch=={_version(_pins()['torch'])}"]


def test_the_practice_workflow_and_the_devcontainer_name_the_pinned_versions():
    pins = {name: _version(requirement) for name, requirement in _pins().items()}
    workflow = (STUDENT / ".github" / "workflows" / "classroom.yml").read_text(encoding="utf-8")
    install = next(line for line in workflow.splitlines() if "--index-url" in line)
    named = _named_pins(workflow)
    assert {"torch", "numpy", "pytest"} <= set(named) and named == {name: pins[name] for name in named}
    assert "torch==" in install
    devcontainer = json.loads((STUDENT / ".devcontainer" / "devcontainer.json").read_text(encoding="utf-8"))
    named = _named_pins(devcontainer["onCreateCommand"])
    assert {"torch", "numpy", "pytest", "pytest-timeout", "pytest-xdist", "watchfiles"} <= set(named)
    assert named == {name: pins[name] for name in named}


def test_the_instructor_side_graders_install_from_the_list():
    """setup.sh and the Classroom 50 autograder name no version of their own: they read pins.txt, which
    each release puts beside them (test_gradescope.py and test_classroom50.py check the releases)."""
    setup = (ROOT / "templates" / "gradescope" / "setup.sh").read_text(encoding="utf-8")
    assert not _named_pins(setup) and '-r "$pins"' in setup and 'pins="$source_dir/pins.txt"' in setup
    assert "--index-url https://download.pytorch.org/whl/cpu" in setup and "--only-binary :all:" in setup
    assert "pip install -e" not in setup   # nothing unpinned comes in through the project's own metadata
    autograder = (ROOT / "templates" / "classroom50" / "autograder.py").read_text(encoding="utf-8")
    assert not _named_pins(autograder)
    packages = next(node.value for node in ast.walk(ast.parse(autograder)) if isinstance(node, ast.Assign)
                    and getattr(node.targets[0], "id", "") == "PACKAGES")
    assert {element.value for element in packages.elts} <= set(_pins())
    codio = (ROOT / "docs" / "platforms" / "codio.md").read_text(encoding="utf-8")   # the stack's install command
    assert "-r .guides/secure/pins.txt" in codio and not _named_pins(codio)


def test_the_self_test_workflow_runs_the_newest_torch_and_the_pinned_set():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "selftests.yml").read_text(encoding="utf-8"))
    matrix = workflow["jobs"]["selftests"]["strategy"]["matrix"]
    assert matrix["torch"] == [NEWEST_TORCH] and set(matrix["os"]) == {"ubuntu-latest", "macos-latest", "windows-latest"}
    pinned = [entry for entry in matrix["include"] if entry.get("set") == "pins"]
    assert [entry["torch"] for entry in pinned] == [_version(_pins()["torch"])]
    steps = workflow["jobs"]["selftests"]["steps"]
    assert any("-r templates/pins.txt" in step.get("run", "") and step.get("if") == "matrix.set == 'pins'"
               for step in steps)
    assert not [step["run"] for step in steps if "${{" in step.get("run", "")]   # the matrix reaches them as variables
    development = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    tested = development[development.index("## Which versions were tested where"):]
    assert NEWEST_TORCH in tested and _version(_pins()["torch"]) in tested
