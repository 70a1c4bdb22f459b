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


@right("hidden_grad")
def hidden_grad_by_autograd_grad(model, x):
    hidden = model[0](x)
    out = torch.nn.Sequential(*list(model)[1:])(hidden)
    grad, = torch.autograd.grad(out.sum(), hidden)
    return grad


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


@right("input_saliency")
def saliency_by_backward_then_clearing(model, x):
    leaf = x.clone().requires_grad_(True)
    model(leaf).sum().backward()
    model.zero_grad(set_to_none=True)
    return leaf.grad


@right("input_saliency")
def saliency_with_inputs_argument(model, x):
    leaf = x.detach().requires_grad_(True)
    model(leaf).sum().backward(inputs=[leaf])
    return leaf.grad
