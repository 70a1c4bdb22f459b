"""Checks for k31_train_eval: which cases, on which devices, and which aspects matter.

The models have dropout, so training mode and evaluation mode give different outputs; the global
generator is seeded alike before the learner's call and the reference's, so the same dropout masks
are drawn as long as the same forward passes run in the same modes. The dropout layer is this
module's own: it draws its mask with torch.rand, whose numbers are the same in every PyTorch version,
where nn.Dropout's masks changed between 2.2 and 2.13 (an answer key frozen with one would fail a
correct solution graded with the other). fit_with_validation is judged
by the validation losses it returns, by the model's parameters and train/eval flags afterwards
(the `inputs` aspect), and by whether any validation pass built a graph (probe
`graph_during_validation`).
"""

import torch
from torch import nn

from kata_harness.spec import BASIC, Case, Function, Kata, Probe, graph_record, module, randn, tracked


class Dropout(nn.Module):
    """Dropout as nn.Dropout does it (in training mode each unit zeroed with probability p, the others
    scaled by 1 / (1 - p); in evaluation mode nothing), its mask drawn with torch.rand."""

    def __init__(self, p: float):
        super().__init__()
        self.p = p

    def forward(self, x):
        if not self.training:
            return x
        return x * (torch.rand(x.shape, dtype=x.dtype, device=x.device) >= self.p) / (1 - self.p)

    def extra_repr(self):
        return f"p={self.p}"


def dropout_net():
    return nn.Sequential(nn.Linear(3, 6), nn.ReLU(), Dropout(0.5), nn.Linear(6, 1))


def small_dropout_net():
    return nn.Sequential(nn.Linear(2, 4), nn.Tanh(), Dropout(0.3), nn.Linear(4, 1))


def batches(count, rows, d_in):
    return [(randn(rows, d_in), randn(rows, 1)) for _ in range(count)]


def graph_during_validation(call):
    """Whether autograd recorded during a forward pass in evaluation mode (a validation pass)."""
    record = graph_record(call.args[0])
    if record is None or not record.forwards:
        return "no forward pass seen"
    return any(grad for training, grad in record.passes if not training)


KATA = Kata("k31_train_eval", [
    Function("fit_with_validation", [
        Case(tracked(module(dropout_net)), batches(2, 4, 3), randn(5, 3), randn(5, 1), 0.1, 2),
        Case(tracked(module(small_dropout_net)), batches(3, 3, 2), randn(4, 2), randn(4, 1), 0.2, 2),
        Case(tracked(module(dropout_net, train=False)), batches(1, 5, 3), randn(3, 3), randn(3, 1), 0.1, 3,
             label="came_in_eval_mode"),
    ], aspects=BASIC + ("device_mix",), rtol=1e-5, atol=1e-6, timeout=20,
        probes=(Probe("graph_during_validation", graph_during_validation),)),
])
