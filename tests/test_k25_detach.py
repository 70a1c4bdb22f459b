"""Checks for k25_detach: which cases, on which devices, and which aspects matter.

consistency_loss is judged by its value, by whether it carries a graph, and by the gradients a
backward() through it leaves on the model's parameters (probe `weight_grads`): where the target
model(x) was not made a constant, they also flow through the target and differ. freeze_ is judged
by every parameter's requires_grad flag afterwards (probe `requires_grad_flags`), by the
parameters' values and the model's train/eval flags (the `inputs` aspect: freezing changes neither).

consistency_loss is also handed the models a real caller holds: one in eval mode (label
`eval_mode`) and one whose first layer the caller froze (label `frozen`). The loss must not
change, and the caller's model must keep its mode and every parameter's requires_grad flag (the
`caller` aspect): a target computed after switching the model's mode or flags, switched back to
what the function assumed rather than to what it found, leaves the caller's model changed.
"""

from torch import nn

from kata_harness.spec import BASIC, Case, Function, Kata, Probe, custom, frozen, module, randn, stale_grads


def mlp():
    return nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))


def linear():
    return nn.Linear(2, 2)


def with_batch_norm():
    return nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3), nn.ReLU(), nn.Linear(3, 1))


def partly_frozen():
    """A model whose first layer is already frozen (its flags must stay off)."""
    def build(gen, device):
        model = module(mlp).build(gen, device)
        model[0].requires_grad_(False)
        return model
    return custom(build)


def weight_grads(call):
    """The gradients a backward() through the result leaves on the model's parameters."""
    model = call.args[0]
    for p in model.parameters():
        p.grad = None
    call.result.backward()
    return [p.grad for p in model.parameters()]


def requires_grad_flags(call):
    """Each parameter's requires_grad after the call (the contract: all False)."""
    return [p.requires_grad for p in call.args[0].parameters()]


KATA = Kata("k25_detach", [
    Function("consistency_loss", [
        Case(module(mlp), randn(5, 3), randn(5, 3, scale=0.1)),
        Case(module(linear), randn(4, 2), randn(4, 2, scale=0.3)),
        Case(module(mlp), randn(2, 3), randn(2, 3, scale=0.5)),
        Case(module(mlp, train=False), randn(4, 3), randn(4, 3, scale=0.2), label="eval_mode"),
        Case(frozen(module(mlp), "0"), randn(3, 3), randn(3, 3, scale=0.2), label="frozen"),
    ], aspects=BASIC + ("requires_grad", "caller"), probes=(Probe("weight_grads", weight_grads),)),
    Function("freeze_", [
        Case(module(mlp)),
        Case(module(linear)),
        Case(module(with_batch_norm, train=True)),
        Case(partly_frozen()),
        # A caller's model in eval mode with stale gradients: freezing changes neither.
        Case(stale_grads(module(mlp, train=False))),
    ], aspects=BASIC + ("caller_grads",), probes=(Probe("requires_grad_flags", requires_grad_flags),)),
])
