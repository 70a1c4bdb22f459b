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


# --- the caller's x already requires grad (and holds a .grad from an earlier backward) ---------


@wrong("derivative", "already requires grad", "clone()", "x.grad")
def derivative_on_a_clone_still_in_the_graph(f, x):
    leaf = x.clone().requires_grad_(True)   # a leaf only while x requires no grad
    y = f(leaf)
    y.backward(torch.ones_like(y))          # otherwise it runs on into the caller's x.grad
    return leaf.grad


@wrong("derivative", "requires grad", "graph of its own")
def derivative_keeping_a_graph(f, x):
    leaf = x.detach().clone().requires_grad_(True)
    y = f(leaf)
    grad, = torch.autograd.grad(y, leaf, torch.ones_like(y), create_graph=True)   # not retain_graph
    return grad


@right("derivative")
def derivative_by_torch_func(f, x):
    flat = x.detach().reshape(-1)
    return torch.func.vmap(torch.func.grad(f))(flat).reshape(x.shape)


@wrong("backprop_upstream", "already requires grad", "clone()", "x.grad")
def upstream_on_a_clone_still_in_the_graph(f, x, upstream):
    leaf = x.clone().requires_grad_(True)
    f(leaf).backward(gradient=upstream)
    return leaf.grad


@right("backprop_upstream")
def upstream_by_functional_vjp(f, x, upstream):
    _, grad = torch.autograd.functional.vjp(f, x, upstream)   # differentiates a detached copy of x
    return grad
