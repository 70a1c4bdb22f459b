"""Checks for k29_gradient_step: which cases, on which devices, and which aspects matter.

descend_ is judged by what it leaves in its inputs (the `inputs` aspect): w and b updated in place
(the same tensors in the same memory, still leaves that require grad) and their `.grad` cleared;
and by the loss it returns. stepped is judged by the new tensors it returns: their values, and
that each is a leaf that requires grad without history, so that the next backward() fills its
`.grad`; the old tensors must be left as they were, and so must the caller's autograd: a step that
switches recording off for good (`torch.set_grad_enabled(False)`, a `no_grad()` entered and never
left) leaves every later forward pass of the caller without a graph (probe `grad_mode`).
"""

import torch

from kata_harness.spec import BASIC, GRAD_MODE, Case, Function, Kata, custom, randn


def leaf(*shape, dtype=torch.float32):
    """A leaf that requires grad, with no gradient yet."""
    def build(gen, device):
        return torch.randn(shape, generator=gen, dtype=torch.float64).to(device, dtype).requires_grad_()
    return custom(build)


def leaves_with_grads(*shapes, dtype=torch.float32):
    """Leaves that require grad, each with a gradient already in ``.grad``."""
    def build(gen, device):
        params = []
        for shape in shapes:
            p = torch.randn(shape, generator=gen, dtype=torch.float64).to(device, dtype).requires_grad_()
            p.grad = torch.randn(shape, generator=gen, dtype=torch.float64).to(device, dtype)
            params.append(p)
        return params
    return custom(build)


KATA = Kata("k29_gradient_step", [
    Function("descend_", [
        Case(leaf(3), leaf(), randn(6, 3), randn(6), 0.1),
        Case(leaf(2), leaf(), randn(4, 2), randn(4), 0.5),
        Case(leaf(1, dtype=torch.float64), leaf(dtype=torch.float64), randn(5, 1, dtype=torch.float64),
             randn(5, dtype=torch.float64), 0.05),
    ], aspects=BASIC + ("device_mix",)),
    Function("stepped", [
        Case(leaves_with_grads((3,), ()), 0.1),
        Case(leaves_with_grads((2, 2)), 0.5),
        Case(leaves_with_grads((4,), dtype=torch.float64), 0.01),
    ], aspects=BASIC + ("requires_grad", "leaf", "history", "device_mix"), probes=(GRAD_MODE,)),
])
