"""Classic wrong answers and other correct idioms for k24_nonleaf_grads."""

import torch

from selftests.variants import right, wrong

# --- hidden_grad ------------------------------------------------------------------------------


@wrong("hidden_grad", "not a leaf", "leaves only")
def hidden_grad_of_a_non_leaf(model, x):
    hidden = model[0](x)
    out = hidden
    for layer in list(model)[1:]:
        out = layer(out)
    out.sum().backward()
    return hidden.grad             # None: autograd keeps .grad for leaves only


@wrong("hidden_grad", "first layer")
def hidden_grad_of_the_input(model, x):
    leaf = x.detach().requires_grad_(True)
    model(leaf).sum().backward()
    return leaf.grad


@wrong("hidden_grad", "froze", "does not require grad")
def hidden_grad_retaining_an_untracked_h(model, x):
    hidden = model[0](x)
    hidden.retain_grad()           # refused where the caller froze model[0]: h is then not tracked at all
    out = hidden
    for layer in list(model)[1:]:
        out = layer(out)
    out.sum().backward()
    return hidden.grad


@wrong("hidden_grad", "froze", "does not require grad")
def hidden_grad_by_autograd_grad_of_an_untracked_h(model, x):
    hidden = model[0](x)
    out = torch.nn.Sequential(*list(model)[1:])(hidden)
    grad, = torch.autograd.grad(out.sum(), hidden)
    return grad


@right("hidden_grad")
def hidden_grad_by_autograd_grad(model, x):
    hidden = model[0](x)
    if not hidden.requires_grad:   # a frozen model[0]: switch tracking on for h itself
        hidden.requires_grad_()
    out = torch.nn.Sequential(*list(model)[1:])(hidden)
    grad, = torch.autograd.grad(out.sum(), hidden)
    return grad


@right("hidden_grad")
def hidden_grad_by_a_hook(model, x):
    hidden = model[0](x).detach().requires_grad_()
    seen = []
    hidden.register_hook(seen.append)   # called with the gradient at h during backward()
    torch.nn.Sequential(*list(model)[1:])(hidden).sum().backward()
    return seen[0]


@right("hidden_grad")
def hidden_grad_on_a_new_leaf(model, x):
    hidden = model[0](x).detach().requires_grad_(True)
    out = hidden
    for layer in list(model)[1:]:
        out = layer(out)
    out.sum().backward()
    return hidden.grad


# --- input_saliency ---------------------------------------------------------------------------


@wrong("input_saliency", "does not require grad", "never tracked")
def saliency_of_plain_data(model, x):
    model(x).sum().backward()
    return x.grad                  # None: x is data, autograd never tracked it


@wrong("input_saliency", "caller's x", "stay as it was")
def saliency_on_the_callers_x(model, x):
    x.requires_grad_(True)
    grad, = torch.autograd.grad(model(x).sum(), x)
    return grad


@wrong("input_saliency", "parameter", "Only the input's gradient")
def saliency_by_backward(model, x):
    leaf = x.detach().clone().requires_grad_(True)
    model(leaf).sum().backward()   # also fills every parameter's .grad
    return leaf.grad


@wrong("input_saliency", "stale", "clearing")
def saliency_by_backward_then_clearing(model, x):
    leaf = x.detach().clone().requires_grad_(True)
    model(leaf).sum().backward()
    model.zero_grad(set_to_none=True)   # also throws away the gradients the caller's model came with
    return leaf.grad


@wrong("input_saliency", "already requires grad", "switching")
def saliency_switching_x_on_and_off(model, x):
    x.requires_grad_(True)
    grad, = torch.autograd.grad(model(x).sum(), x)
    x.requires_grad_(False)                  # "restores" a flag the caller may have had on
    return grad


@wrong("input_saliency", "requires_grad", "freezes")
def saliency_freezing_the_model(model, x):
    model.requires_grad_(False)              # no parameter .grad filled, but the caller's model stays frozen
    leaf = x.detach().clone().requires_grad_(True)
    model(leaf).sum().backward()
    return leaf.grad


@right("input_saliency")
def saliency_freezing_for_a_moment(model, x):
    flags = [p.requires_grad for p in model.parameters()]
    model.requires_grad_(False)
    leaf = x.detach().clone().requires_grad_(True)
    model(leaf).sum().backward()
    for p, flag in zip(model.parameters(), flags):
        p.requires_grad_(flag)
    return leaf.grad


@right("input_saliency")
def saliency_by_functional_vjp(model, x):
    out = model(x.detach())
    _, grad = torch.autograd.functional.vjp(model, x, torch.ones_like(out))   # on a copy of x of its own
    return grad


@right("input_saliency")
def saliency_with_inputs_argument(model, x):
    leaf = x.detach().requires_grad_(True)
    model(leaf).sum().backward(inputs=[leaf])
    return leaf.grad
