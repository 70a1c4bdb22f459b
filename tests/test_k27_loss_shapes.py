"""Checks for k27_loss_shapes: which cases, on which devices, and which aspects matter.

regression_loss's models return (N, 1) and its targets are (N,): a loss taken on those shapes as
they are broadcasts them to (N, N) and gives another value (with N = 1 both agree, which is why
larger N are there too). The loss must still carry a graph, so that training can back-propagate
through it, and leave the caller's model as it came (its mode, its parameters' flags and .grad: the
`caller_grads` aspect). as_regression_data takes plain lists, so its cases draw nothing; the hidden ones
(official grading) are declared as such, with whole numbers, so that no expected (float) value is
written in this file.
"""

from torch import nn

from kata_harness.spec import BASIC, Case, Function, Kata, module, randn, stale_grads


def linear(features):
    return lambda: nn.Linear(features, 1)


KATA = Kata("k27_loss_shapes", [
    Function("regression_loss", [
        Case(module(linear(3)), randn(5, 3), randn(5)),
        Case(module(linear(2)), randn(4, 2), randn(4)),
        Case(module(linear(1)), randn(1, 1), randn(1)),
        Case(module(linear(4)), randn(3, 4), randn(3)),
        # A caller's model as it comes in the middle of training: in evaluation mode, holding the .grad of
        # an earlier backward, and data that requires grad; a loss leaves all of it as it was.
        Case(stale_grads(module(linear(3), train=False)), randn(5, 3, requires_grad=True), randn(5),
             label="callers_model"),
    ], aspects=BASIC + ("requires_grad", "device_mix", "caller_grads")),
    Function("as_regression_data", [
        Case([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [1.5, 2.5, 3.5]),
        Case([[1], [2], [3], [4]], [2, 4, 6, 8]),
        Case([[0.5, -1.0, 2.0]], [0.0]),
        Case([[2, 0], [0, 2]], [1, -1], hidden=True),
        Case([[3], [5], [8]], [2, 4, 7], hidden=True),
    ], aspects=BASIC + ("requires_grad",)),
])
