"""Classic wrong answers and other correct idioms for k22_backward."""

import torch

from selftests.variants import right, wrong

# --- derivative -------------------------------------------------------------------------------


@wrong("derivative", "scalar", "how much each element")
def derivative_backward_on_vector(f, x):
    leaf = x.detach().clone().requires_grad_(True)
    f(leaf).backward()             # "grad can be implicitly created only for scalar outputs"
    return leaf.grad


@wrong("derivative", "mean()", "number of elements")
def derivative_through_mean(f, x):
    leaf = x.detach().clone().requires_grad_(True)
    f(leaf).mean().backward()      # every derivative divided by x.numel()
    return leaf.grad


@wrong("derivative", "caller's x", "stay as it was")
def derivative_on_the_callers_x(f, x):
    x.requires_grad_(True)
    f(x).sum().backward()
    return x.grad


@right("derivative")
def derivative_by_sum(f, x):
    leaf = x.detach().clone().requires_grad_(True)
    f(leaf).sum().backward()
    return leaf.grad


@right("derivative")
def derivative_by_autograd_grad(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    grad, = torch.autograd.grad(y, leaf, grad_outputs=torch.ones_like(y))
    return grad


# --- backprop_upstream ------------------------------------------------------------------------


@wrong("backprop_upstream", "upstream", "plain sum")
def upstream_ignored(f, x, upstream):
    leaf = x.detach().clone().requires_grad_(True)
    f(leaf).sum().backward()       # the gradient of a plain sum: upstream never used
    return leaf.grad


@wrong("backprop_upstream", "averaged", "number of elements")
def upstream_averaged(f, x, upstream):
    leaf = x.detach().clone().requires_grad_(True)
    (f(leaf) * upstream).mean().backward()
    return leaf.grad


@wrong("backprop_upstream", "shape", "Mismatch in shape")
def upstream_summed_first(f, x, upstream):
    leaf = x.detach().clone().requires_grad_(True)
    f(leaf).backward(upstream.sum())   # a 0-dim gradient for a non-scalar y
    return leaf.grad


@right("backprop_upstream")
def upstream_by_weighted_sum(f, x, upstream):
    leaf = x.detach().clone().requires_grad_(True)
    (f(leaf) * upstream).sum().backward()
    return leaf.grad


@right("backprop_upstream")
def upstream_by_autograd_grad(f, x, upstream):
    leaf = x.detach().requires_grad_(True)
    grad, = torch.autograd.grad(f(leaf), leaf, grad_outputs=upstream)
    return grad
