"""Checks for k23_retain_graph: which cases, on which devices, and which aspects matter.

Both functions are about one forward pass used more than once. The models are counted
(`tracked`: how often each ran, kept in the harness, keyed by the model): two_loss_grads must run
the model once and back-propagate twice through that one graph, fit_head must run the
encoder, which is not trained, once. fit_head is also judged by the head's parameters after training (the `inputs`
aspect: compared with the reference trained on an identical seeded copy) and by whether any
gradient reached the encoder, which a graph kept across steps (`retain_graph=True` on every
step) fills.

Both are also handed the models a real caller holds (labels `stale_grads`, `frozen_encoder`): a
model whose parameters already hold a `.grad` from an earlier backward, in eval mode, or called
twice in a row (the first call's leftovers are the second's stale gradients); an encoder the caller
froze or put in eval mode. The results must not change, and the caller's models must keep their
modes, parameter objects and requires_grad flags (the `caller` aspect). two_loss_grads' gradients
are data: they hold no graph (`requires_grad`), and they are copies of their own, which the
caller's next backward() leaves alone (probe `after_next_backward`): a parameter's `.grad` handed
back as it is changes with it.
"""

from torch import nn

from kata_harness.spec import BASIC, Case, Function, Kata, Probe, frozen, graph_record, module, randn, stale_grads, tracked


def linear():
    return nn.Linear(3, 2)


def wide_linear():
    return nn.Linear(4, 3)


def encoder():
    return nn.Sequential(nn.Linear(3, 4), nn.Tanh())


def head():
    return nn.Linear(4, 1)


def model_runs(call):
    """How many forward passes the model made (the contract: one)."""
    record = graph_record(call.args[0])
    return "no forward pass seen" if record is None or not record.forwards else record.forwards


def after_next_backward(call):
    """The gradients returned, after the caller's next backward() through the model (which adds into
    every .grad the model holds): a result that is model.weight.grad itself changes with it."""
    model, x = call.args[0], call.args[1]
    model(x).sum().backward()
    return list(call.result) if isinstance(call.result, (tuple, list)) else call.result


def encoder_runs(call):
    """How many forward passes the encoder, which is not trained, made (the contract: one, before the loop)."""
    return model_runs(call)


def encoder_grads(call):
    """Whether any gradient reached parameters of the encoder, which is not trained."""
    return any(p.grad is not None for p in call.args[0].parameters())


KATA = Kata("k23_retain_graph", [
    Function("two_loss_grads", [
        Case(tracked(module(linear)), randn(5, 3)),
        Case(tracked(module(wide_linear)), randn(2, 4)),
        Case(tracked(module(linear)), randn(1, 3, scale=3.0)),
        # A caller's model in eval mode with a stale .grad; a clean one called twice in a row.
        Case(tracked(stale_grads(module(linear, train=False))), randn(4, 3), label="stale_grads"),
        Case(tracked(module(wide_linear)), randn(3, 4), label="stale_grads", calls=2),
    ], aspects=BASIC + ("caller", "requires_grad"),
        probes=(Probe("model_runs", model_runs), Probe("after_next_backward", after_next_backward))),
    Function("fit_head", [
        Case(tracked(module(encoder)), module(head), randn(6, 3), randn(6, 1), 0.1, 3),
        Case(tracked(module(encoder)), module(head), randn(4, 3), randn(4, 1), 0.5, 2),
        Case(tracked(module(encoder)), module(head), randn(5, 3), randn(5, 1), 0.05, 4),
        # A head with a stale .grad from an earlier backward, beside an encoder in eval mode.
        Case(tracked(module(encoder, train=False)), stale_grads(module(head)), randn(5, 3), randn(5, 1), 0.1, 3,
             label="stale_grads"),
        # An encoder whose first layer the caller froze: it must stay frozen.
        Case(tracked(frozen(module(encoder), "0")), module(head), randn(4, 3), randn(4, 1), 0.2, 2,
             label="frozen_encoder"),
    ], aspects=BASIC + ("caller",), rtol=1e-5, atol=1e-6, timeout=20,
        probes=(Probe("encoder_runs", encoder_runs), Probe("encoder_grads", encoder_grads))),
])
