"""Checks for k30_optimizers: which cases, on which devices, and which aspects matter.

The training functions are judged by the losses they return and by the model's parameters after
the call (the `inputs` aspect: compared with the reference run on an identical fresh copy of the
same seeded model). train_steps is handed an optimizer built over the model of its own case (the
model recipe keeps the model it built for the optimizer recipe that follows it); the optimizers
are spec.SGD and spec.Adam, torch's own with a short repr, so that the "Called ..." line reads
well. Momentum and Adam keep state from step to step, so an optimizer made anew, or a step taken
on cleared gradients, gives other losses.

train_steps and adam_fit are judged as procedures (aspect `procedure`): their losses and the
model's final parameters against the reference's own run, a wrong number of steps or losses
recorded after their step named as such. Each is also graded with the states a caller hands in: a
stale .grad, a frozen first layer, and (train_steps) the same model and optimizer twice in a row;
the `caller` aspect checks the model's mode, parameter objects and flags afterwards.

The training functions allow 20 s: the first use of torch.optim in a process imports
torch._dynamo (about 1.5 s here, several seconds on a slow machine).
"""

from torch import nn

from kata_harness.spec import BASIC, SGD, Adam, Case, Function, Kata, Recipe, custom, frozen, module, randn, stale_grads

_BUILT = [None]   # the model the case built last, for the optimizer recipe after it


def model_of(source):
    """``module(factory)`` (or a module recipe: ``stale_grads(module(...))``), remembered for the
    optimizer recipe that follows it in the case."""
    fresh = source if isinstance(source, Recipe) else module(source)

    def build(gen, device):
        _BUILT[0] = fresh.build(gen, device)
        return _BUILT[0]
    return custom(build)


def optimizer(kind, **options):
    """An optimizer of ``kind`` over the parameters of the model built just before it."""
    return custom(lambda gen, device: kind(_BUILT[0].parameters(), **options))


def linear():
    return nn.Linear(3, 1)


def mlp():
    return nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))


KATA = Kata("k30_optimizers", [
    Function("train_steps", [
        Case(model_of(linear), optimizer(SGD, lr=0.1, momentum=0.9), randn(5, 3), randn(5, 1), 3),
        Case(model_of(mlp), optimizer(Adam, lr=0.05), randn(4, 2), randn(4, 1), 3),
        Case(model_of(linear), optimizer(SGD, lr=0.2, momentum=0.0), randn(6, 3), randn(6, 1), 2),
        # A caller's model with a stale .grad; a model whose first layer is frozen (the optimizer holds
        # it, and must leave it); the same model and optimizer handed in twice in a row (momentum
        # carries on from the first call).
        Case(model_of(stale_grads(module(linear))), optimizer(SGD, lr=0.1, momentum=0.9), randn(5, 3), randn(5, 1), 2,
             label="stale_grads"),
        Case(model_of(frozen(module(mlp), "0")), optimizer(Adam, lr=0.05), randn(4, 2), randn(4, 1), 3, label="frozen"),
        Case(model_of(linear), optimizer(SGD, lr=0.1, momentum=0.9), randn(5, 3), randn(5, 1), 2, calls=2,
             label="two_calls"),
    ], aspects=BASIC + ("caller", "procedure", "device_mix"), rtol=1e-5, atol=1e-6, timeout=20),
    Function("adam_fit", [
        Case(module(linear), randn(5, 3), randn(5, 1), 0.1, 3),
        Case(module(mlp), randn(4, 2), randn(4, 1), 0.05, 4),
        Case(module(linear), randn(3, 3), randn(3, 1), 0.01, 2),
        # A caller's model that still holds the .grad of an earlier backward.
        Case(stale_grads(module(linear)), randn(4, 3), randn(4, 1), 0.1, 2, label="stale_grads"),
        # Part of the model frozen by the caller: Adam must not move it, nor unfreeze it.
        Case(frozen(module(mlp), "0"), randn(4, 2), randn(4, 1), 0.05, 3, label="frozen"),
    ], aspects=BASIC + ("caller", "procedure", "device_mix"), rtol=1e-5, atol=1e-6, timeout=20),
    Function("clipped_step", [
        Case(module(linear), randn(5, 3), randn(5, 1, scale=3.0), 0.1, 0.5),
        Case(module(mlp), randn(4, 2), randn(4, 1, scale=3.0), 0.2, 0.1),
        Case(module(linear), randn(4, 3), randn(4, 1), 0.1, 100.0),
        # Two steps in a row on a model that came in with a stale .grad: each step starts clean.
        Case(stale_grads(module(linear)), randn(5, 3), randn(5, 1, scale=3.0), 0.1, 0.5, label="stale_grads", calls=2),
    ], aspects=BASIC + ("caller", "device_mix"), rtol=1e-5, atol=1e-6, timeout=20),
])
