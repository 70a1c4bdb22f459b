"""Classic wrong answers and other correct idioms for k29_gradient_step."""

import torch

from selftests.variants import right, wrong

# --- descend_ ---------------------------------------------------------------------------------


@wrong("descend_", "in-place", "recording switched off")
def descend_while_recording(w, b, x, y, lr):
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    w -= lr * w.grad               # "a leaf Variable that requires grad is being used in an in-place operation"
    b -= lr * b.grad
    w.grad = b.grad = None
    return loss.item()


@wrong("descend_", "rebinds", "in place")
def descend_by_rebinding(w, b, x, y, lr):
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w = w - lr * w.grad        # a new tensor under the old name: the caller's w never changes
        b = b - lr * b.grad
    return loss.item()


@wrong("descend_", "uphill", "minus")
def descend_uphill(w, b, x, y, lr):
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w += lr * w.grad
        b += lr * b.grad
    w.grad = b.grad = None
    return loss.item()


@wrong("descend_", ".grad", "None")
def descend_leaving_the_gradient(w, b, x, y, lr):
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
    return loss.item()


@right("descend_")
def descend_by_sub(w, b, x, y, lr):
    loss = torch.nn.functional.mse_loss(x @ w + b, y)
    grad_w, grad_b = torch.autograd.grad(loss, [w, b])
    with torch.no_grad():
        w.sub_(lr * grad_w)
        b.sub_(lr * grad_b)
    return float(loss)


@right("descend_")
def descend_through_detach(w, b, x, y, lr):
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    for p in (w, b):
        p.detach().sub_(lr * p.grad)   # the same memory, out of autograd's sight
        p.grad = None
    return loss.item()


# --- stepped ----------------------------------------------------------------------------------


@wrong("stepped", "leaf", "from the graph")
def stepped_with_history(params, lr):
    return [p - lr * p.grad for p in params]      # results of a subtraction: .grad will stay None


@wrong("stepped", "uphill", "minus")
def stepped_uphill(params, lr):
    return [(p + lr * p.grad).detach().requires_grad_() for p in params]


@wrong("stepped", "requires_grad", "flag off")
def stepped_without_grad(params, lr):
    with torch.no_grad():
        return [p - lr * p.grad for p in params]


@wrong("stepped", "caller", "new")
def stepped_in_place(params, lr):
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
    return params


@right("stepped")
def stepped_by_data(params, lr):
    return [(p.data - lr * p.grad).requires_grad_(True) for p in params]


@right("stepped")
def stepped_by_new_leaves(params, lr):
    fresh = []
    for p in params:
        with torch.no_grad():
            new = p.sub(p.grad, alpha=lr)
        fresh.append(new.requires_grad_())
    return fresh


@wrong("stepped", "no longer records", "never switched back on")
def stepped_switching_recording_off(params, lr):
    torch.set_grad_enabled(False)      # "no graph for the update": and none for the caller's next forward
    return [(p - lr * p.grad).requires_grad_() for p in params]


@wrong("stepped", "caller's tensors", ".grad")
def stepped_clearing_the_gradients(params, lr):
    fresh = [(p - lr * p.grad).detach().requires_grad_() for p in params]
    for p in params:
        p.grad = None                  # "tidy": but the caller's .grad is not this step's to clear
    return fresh
