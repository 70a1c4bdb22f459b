"""Checks for k28_running_loss: which cases, on which devices, and which aspects matter.

train_epoch is judged by the mean loss it returns, by the model's parameters after the epoch (the
`inputs` aspect: compared with the reference trained on an identical seeded copy), and by the
graphs its loop keeps alive (`GRAPHS_KEPT`, on a `tracked` model): a running total of loss tensors
holds every batch's graph until the epoch ends, where loss.item() lets each one go.
"""

from torch import nn

from kata_harness.spec import BASIC, GRAPHS_KEPT, Case, Function, Kata, module, randn, short_batches, stale_grads, tracked


def linear():
    return nn.Linear(3, 1)


def mlp():
    return nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))


def batches(count, rows, d_in, d_out=1):
    """``count`` fresh (x, y) batches of ``rows`` rows each."""
    return [(randn(rows, d_in), randn(rows, d_out)) for _ in range(count)]


KATA = Kata("k28_running_loss", [
    Function("train_epoch", [
        Case(tracked(module(linear)), batches(4, 3, 3), 0.1),
        Case(tracked(module(mlp)), batches(3, 4, 2), 0.2),
        Case(tracked(module(linear)), batches(1, 5, 3), 0.05),
        # A caller's model with a stale .grad, and a short last batch: the mean of the batch losses
        # is not the mean over samples there.
        Case(tracked(stale_grads(module(linear))), short_batches(4, 4, 1), 0.1, label="short_batch"),
    ], aspects=BASIC + ("caller", "device_mix"), rtol=1e-5, atol=1e-6, timeout=20, probes=(GRAPHS_KEPT,)),
])
