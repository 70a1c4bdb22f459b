"""The vocabulary kata tests are written in: ``Kata``, ``Function``, ``Case``, the input recipes
(``randn``, ``tensor``, ``module``, ...), ``Probe`` and the aspect sets, as ``from kata_harness.spec
import Kata, Function, Case`` finds them. They are defined in the observing room
(``observation/spec.py``), which builds each case's inputs and observes the calls."""

from .observation.spec import *  # noqa: F403 (this module is the vocabulary's public name)
from .observation.spec import __all__  # noqa: F401
