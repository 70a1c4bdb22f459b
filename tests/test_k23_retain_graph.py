"""Checks for k23_retain_graph: which cases, on which devices, and which aspects matter.

Both functions are about one forward pass used more than once. The models are counted
(`tracked`: how often each ran, kept in the harness, keyed by the model): two_loss_grads must run
the model once and back-propagate twice through that one graph, fit_head must run the
encoder, which is not trained, once. fit_head is also judged by the head's parameters after training (the `inputs`
aspect: compared with the reference trained on an identical seeded copy) and by whether any
gradient reached the encoder, which a graph kept across steps (`retain_graph=True` on every
step) fills.
"""

from torch import nn

from kata_harness.spec import Case, Function, Kata, Probe, graph_record, module, randn, tracked


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
    ], probes=(Probe("model_runs", model_runs),)),
    Function("fit_head", [
        Case(tracked(module(encoder)), module(head), randn(6, 3), randn(6, 1), 0.1, 3),
        Case(tracked(module(encoder)), module(head), randn(4, 3), randn(4, 1), 0.5, 2),
        Case(tracked(module(encoder)), module(head), randn(5, 3), randn(5, 1), 0.05, 4),
    ], rtol=1e-5, atol=1e-6, timeout=20,
        probes=(Probe("encoder_runs", encoder_runs), Probe("encoder_grads", encoder_grads))),
])
