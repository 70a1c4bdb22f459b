"""Classic wrong answers and other correct idioms for k17_inplace_autograd."""

import torch

from selftests.variants import right, wrong

# --- sgd_update_ ------------------------------------------------------------------------------


@wrong("sgd_update_", "leaf Variable that requires grad", "torch.no_grad()")
def sgd_update_outside_no_grad(params, lr):
    for p in params:
        p -= lr * p.grad


@wrong("sgd_update_", "rebinds a name", "in place")
def sgd_update_rebinding(params, lr):
    for p in params:
        p = p - lr * p.grad   # noqa: F841 (the classic mistake: only the local name changes)


@wrong("sgd_update_", "rebinds a name", "NEW tensor")
def sgd_update_replacing_list_items(params, lr):
    with torch.no_grad():
        for i, p in enumerate(params):
            params[i] = (p - lr * p.grad).requires_grad_()


@wrong("sgd_update_", "same tensor object, but its data now lives in new memory", "p.data = ...", "version counter")
def sgd_update_replacing_data(params, lr):
    for p in params:
        p.data = p.data - lr * p.grad   # the same object, its memory swapped behind autograd's back


@wrong("sgd_update_", "leave p.grad as it was")
def sgd_update_zeroing_grads(params, lr):
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
            p.grad = None


@wrong("sgd_update_", "keep requires_grad=True")
def sgd_update_dropping_flag(params, lr):
    for p in params:
        p.requires_grad_(False)
        p -= lr * p.grad


@wrong("sgd_update_", "left it off", "back on")
def sgd_update_grad_switched_off(params, lr):
    torch.set_grad_enabled(False)   # never switched back on
    for p in params:
        p -= lr * p.grad


@wrong("sgd_update_", "returns None")
def sgd_update_returning_params(params, lr):
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
    return params


@right("sgd_update_")
def sgd_update_sub_(params, lr):
    with torch.no_grad():
        for p in params:
            p.sub_(p.grad, alpha=lr)


@right("sgd_update_")
def sgd_update_detached_view(params, lr):
    for p in params:
        p.detach().add_(p.grad * -lr)


@right("sgd_update_")
def sgd_update_optimizer(params, lr):
    torch.optim.SGD(params, lr=lr).step()


@right("sgd_update_")
def sgd_update_copy_(params, lr):
    with torch.no_grad():
        for p in params:
            p.copy_(p - lr * p.grad)


# --- doubled_sigmoid --------------------------------------------------------------------------


@wrong("doubled_sigmoid", "modified by an inplace operation", "out-of-place")
def doubled_sigmoid_mul_(x):
    return torch.sigmoid(x).mul_(2)


@wrong("doubled_sigmoid", "modified by an inplace operation", "saved its OUTPUT")
def doubled_sigmoid_times_equals(x):
    s = x.sigmoid()
    s *= 2
    return s


@wrong("doubled_sigmoid", "leaf Variable that requires grad", "change the caller's x")
def doubled_sigmoid_on_input(x):
    return x.sigmoid_().mul_(2)


@wrong("doubled_sigmoid", "torch.no_grad()", "graph")
def doubled_sigmoid_no_grad(x):
    with torch.no_grad():
        return 2 * torch.sigmoid(x)


@right("doubled_sigmoid")
def doubled_sigmoid_by_formula(x):
    return 2 / (1 + torch.exp(-x))


@right("doubled_sigmoid")
def doubled_sigmoid_sum(x):
    s = torch.sigmoid(x)
    return s + s


@right("doubled_sigmoid")
def doubled_sigmoid_clone_then_inplace(x):
    return torch.sigmoid(x).clone().mul_(2)


@right("doubled_sigmoid")
def doubled_sigmoid_tanh(x):
    return 1 + torch.tanh(x / 2)
