"""The aspects of a call that a kata's contract may care about: one object each, in one table.

An aspect knows how to observe its part of a call (in the grading child), how to compare the
learner's observation with the expected one (in grade.py's parent, on plain data), which fields
it adds to an observation (so that completeness is checked field by field), and which pitfall
keys its differences carry (what ``grade.py check`` accepts in the curriculum). The table,
``ASPECTS``, is in the order differences are looked for; each aspect's ``stage`` says when it
observes (right after the call, after it, or last, when it may call the function again).

Adding an aspect is one file here and one entry in ``ASPECTS``. Facts about a tensor (its shape,
dtype, values, ...) are the table ``result.TENSOR_FACTS``, which both the describer and the
comparison read.

Nothing here imports torch: grade.py's parent imports this package to compare, and an aspect's
``observe`` works with the instruments the observing room hands it (``Instruments``), in the child.
"""

from __future__ import annotations

from .base import Aspect, Instruments, Judging, ObservedCall
from .caller import CALLER, CALLER_GRADS
from .device_mix import DEVICE_MIX
from .grad import GRAD
from .independent import INDEPENDENT
from .inputs import INPUTS
from .probes import PROBES
from .procedure import PROCEDURE
from .result import RESULT, TENSOR_FACTS
from .rng import RNG

# The procedure comes first: a run's losses tell a wrong number of steps before their shape does.
ASPECTS: tuple[Aspect, ...] = (PROCEDURE, RESULT, DEVICE_MIX, INPUTS, CALLER, CALLER_GRADS, GRAD, INDEPENDENT, RNG, PROBES)

# What a function may name in ``Function(aspects=...)``: the facts of its result tensors, the
# sequence type of its containers, and the aspects one chooses.
CHOSEN = tuple(aspect.name for aspect in ASPECTS if not aspect.always)
NAMES = frozenset(fact.name for fact in TENSOR_FACTS) | {"container"} | frozenset(CHOSEN)
BASIC = ("shape", "dtype", "device", "values", "inputs", "container")   # what most contracts care about

# The pitfall keys a difference may carry whatever a function chose: structure is always compared
# (a wrong kind, length, subclass or module flag; a scalar's value), and the learner's code may raise.
ALWAYS_FOUND = ("default", "raises") + tuple(key for aspect in ASPECTS if aspect.always for key in aspect.pitfalls)

__all__ = ["ALWAYS_FOUND", "ASPECTS", "Aspect", "BASIC", "CHOSEN", "Instruments", "Judging", "NAMES", "ObservedCall",
           "TENSOR_FACTS"]
