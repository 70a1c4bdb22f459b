"""Checks for k17_inplace_autograd: which cases, on which devices, and which aspects matter.

sgd_update_ is judged by the `inputs` aspect: after the call each parameter must hold the
updated values, still require grad, be the same tensor object in the same memory, and keep
its `.grad`; the probe `grad_mode` checks that autograd records again after the call (an update
under torch.set_grad_enabled(False) that never switches it back leaves it off for the caller).
doubled_sigmoid is judged by `grad`: backward() through the result must work.
"""

import torch
from torch import nn

from kata_harness.spec import BASIC, GRAD_MODE, Case, Function, Kata, custom, module, randn, tensor


def leaves(*shapes, dtype=torch.float32):
    """A list of leaf tensors that require grad, each with a gradient already in ``.grad``."""
    def build(gen, device):
        params = []
        for shape in shapes:
            p = torch.randn(shape, generator=gen, dtype=torch.float64).to(device, dtype).requires_grad_()
            p.grad = torch.randn(shape, generator=gen, dtype=torch.float64).to(device, dtype)
            params.append(p)
        return params
    return custom(build)


def linear_parameters():
    """The nn.Parameters of a small seeded nn.Linear after one real backward pass."""
    fresh = module(lambda: nn.Linear(4, 3))

    def build(gen, device):
        model = fresh.build(gen, device)
        x = torch.randn(5, 4, generator=gen).to(device)
        model(x).pow(2).mean().backward()
        return list(model.parameters())
    return custom(build)


KATA = Kata("k17_inplace_autograd", [
    Function("sgd_update_", [
        Case(leaves((3, 2), (2,)), 0.1),
        Case(linear_parameters(), 0.5),
        Case(leaves(()), 1.0),
        Case(leaves((2, 2), dtype=torch.float64), 0.01),
    ], probes=(GRAD_MODE,)),
    Function("doubled_sigmoid", [
        Case(randn(5, requires_grad=True)),
        Case(randn(2, 3, scale=3.0, requires_grad=True)),
        Case(randn(4, dtype=torch.float64, requires_grad=True)),
        Case(tensor([0.0, 4.0, -4.0, 20.0, -20.0], requires_grad=True)),
        Case(randn(3, 2)),
    ], aspects=BASIC + ("requires_grad", "grad")),
])
