"""Checks for k31_train_eval: which cases, on which devices, and which aspects matter.

The models have dropout, so training mode and evaluation mode give different outputs. Their dropout
is this module's own, and draws no number from the global generator: each training-mode forward
pass drops the units a generator seeded by the values of the model's input picks (the same batch,
the same mask). The contract promises validation losses, not a consumption of random numbers: a
correct solution that runs one more training-mode forward pass (to log a training loss), or draws
random numbers of its own, gets the same masks, and the same losses, as the reference. What the
masks still tell apart is what the contract says: training steps run in training mode (dropout on),
validation in evaluation mode (dropout off). The masks come from torch.rand on a seeded CPU
generator, whose numbers are the same in every PyTorch version (nn.Dropout's changed between 2.2 and
2.13). fit_with_validation is judged by the validation losses it returns, by the model's parameters
and train/eval flags afterwards (the `inputs` and `caller` aspects), and by whether any validation
pass built a graph (probe `graph_during_validation`); besides clean models, it gets one that comes
in evaluation mode, one with a stale .grad and one whose first layer is frozen, and batches of
unequal size.
"""


from torch import nn

from kata_harness.spec import (
    BASIC,
    Case,
    Dropout,
    Function,
    Kata,
    Probe,
    frozen,
    graph_record,
    input_key,
    module,
    randn,
    short_batches,
    stale_grads,
    tracked,
)


class DropoutNet(nn.Module):
    """Linear, activation, dropout, linear; the dropout's mask keyed by the input batch."""

    def __init__(self, d_in: int, hidden: int, activation: nn.Module, p: float):
        super().__init__()
        self.hidden = nn.Linear(d_in, hidden)
        self.activation = activation
        self.dropout = Dropout(p)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        self.dropout.key = input_key(x)
        return self.out(self.dropout(self.activation(self.hidden(x))))


def dropout_net():
    return DropoutNet(3, 6, nn.ReLU(), 0.5)


def small_dropout_net():
    return DropoutNet(2, 4, nn.Tanh(), 0.3)


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
        # The caller's states: a stale .grad and a short last batch; a frozen first layer.
        Case(tracked(stale_grads(module(dropout_net))), short_batches(4, 4, 1), randn(5, 3), randn(5, 1), 0.1, 2,
             label="stale_grads"),
        Case(tracked(frozen(module(small_dropout_net), "hidden")), batches(2, 3, 2), randn(4, 2), randn(4, 1), 0.2, 2,
             label="frozen"),
    ], aspects=BASIC + ("caller", "device_mix"), rtol=1e-5, atol=1e-6, timeout=20,
        probes=(Probe("graph_during_validation", graph_during_validation),)),
])
