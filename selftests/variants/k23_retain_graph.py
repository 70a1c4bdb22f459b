"""Classic wrong answers and other correct idioms for k23_retain_graph."""

import torch
import torch.nn.functional as F

from selftests.variants import right, wrong

# --- two_loss_grads ---------------------------------------------------------------------------


def _two_backwards(model, x, clear_first=True, copy_second=True):
    """Two backward() through one forward pass, the first retaining the graph, each into a cleared
    .grad. Each option is one wrong line: ``clear_first=False`` adds to the caller's stale .grad,
    ``copy_second=False`` returns the .grad tensor itself."""
    out = model(x)
    if clear_first:
        model.weight.grad = None
    out.mean().backward(retain_graph=True)
    first = model.weight.grad.clone()
    model.weight.grad = None
    (out ** 2).mean().backward()
    return first, (model.weight.grad.clone() if copy_second else model.weight.grad)


@wrong("two_loss_grads", "second time", "frees the graph")
def two_backwards_without_retaining(model, x):
    out = model(x)
    out.mean().backward()
    first = model.weight.grad.clone()
    model.weight.grad = None
    (out ** 2).mean().backward()   # the graph was freed by the first backward()
    return first, model.weight.grad


@wrong("two_loss_grads", "adds", "sum of both")
def two_backwards_adding_up(model, x):
    out = model(x)
    out.mean().backward(retain_graph=True)
    first = model.weight.grad.clone()
    (out ** 2).mean().backward()   # added to the first gradient
    return first, model.weight.grad


@wrong("two_loss_grads", "once", "one forward pass")
def two_forward_passes(model, x):
    first, = torch.autograd.grad(model(x).mean(), model.weight)
    second, = torch.autograd.grad((model(x) ** 2).mean(), model.weight)
    return first, second


@right("two_loss_grads")
def two_backwards_retaining(model, x):
    return _two_backwards(model, x)


@right("two_loss_grads")
def two_backwards_into_zeroed_grads(model, x):
    out = model(x)
    model.zero_grad(set_to_none=False)   # zeros in place: a stale gradient is gone, the tensor stays
    out.mean().backward(retain_graph=True)
    first = model.weight.grad.detach().clone()
    model.weight.grad.zero_()
    (out ** 2).mean().backward()
    return first, model.weight.grad.detach().clone()


@wrong("two_loss_grads", "stale", "adds")
def two_backwards_without_clearing_first(model, x):
    return _two_backwards(model, x, clear_first=False)   # adds to whatever .grad held before the call


@wrong("two_loss_grads", "the very tensor", "next backward()")
def two_backwards_returning_the_grad_itself(model, x):
    return _two_backwards(model, x, copy_second=False)   # the caller's next backward() adds into it


@wrong("two_loss_grads", "requires grad", "graph of its own")
def two_losses_keeping_a_graph(model, x):
    out = model(x)
    losses = [out.mean(), (out ** 2).mean()]
    # create_graph=True also keeps the graph for the second pass, but builds one of each gradient too
    return tuple(torch.autograd.grad(loss, model.weight, create_graph=True)[0] for loss in losses)


@right("two_loss_grads")
def two_losses_by_autograd_grad_in_one_graph(model, x):
    out = model(x)
    losses = [out.mean(), (out ** 2).mean()]
    return tuple(torch.autograd.grad(loss, model.weight, retain_graph=True)[0] for loss in losses)


# --- fit_head ---------------------------------------------------------------------------------


def _fit_on(features, head, y, lr, steps, retain_graph=False):
    """The loop the contract asks for, on ``features`` however they were made: plain SGD steps on
    the head alone, the gradients cleared first, the losses as floats. A variant whose mistake is
    how it makes the features (or what it does to the encoder) calls it; ``retain_graph=True`` is
    the one wrong line inside it."""
    optimizer = torch.optim.SGD(head.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = F.mse_loss(head(features), y)
        loss.backward(retain_graph=retain_graph)
        optimizer.step()
        losses.append(loss.item())
    return losses


@wrong("fit_head", "second time", "with their graph")
def fit_head_on_attached_features(encoder, head, x, y, lr, steps):
    features = encoder(x)          # its graph is freed by the first backward()
    return _fit_on(features, head, y, lr, steps)


@wrong("fit_head", "encoder", "Keeping the graph")
def fit_head_retaining_the_encoder_graph(encoder, head, x, y, lr, steps):
    features = encoder(x)
    # runs, but every step back-propagates into the encoder
    return _fit_on(features, head, y, lr, steps, retain_graph=True)


@wrong("fit_head", "once", "again and again")
def fit_head_running_the_encoder_every_step(encoder, head, x, y, lr, steps):
    optimizer = torch.optim.SGD(head.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        with torch.no_grad():
            features = encoder(x)
        loss = F.mse_loss(head(features), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


@right("fit_head")
def fit_head_on_detached_features(encoder, head, x, y, lr, steps):
    features = encoder(x).detach()
    optimizer = torch.optim.SGD(head.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        loss = F.mse_loss(head(features), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(float(loss))
    return losses


@right("fit_head")
def fit_head_by_hand(encoder, head, x, y, lr, steps):
    with torch.no_grad():
        features = encoder(x)
    losses = []
    for _ in range(steps):
        loss = ((head(features) - y) ** 2).mean()
        grads = torch.autograd.grad(loss, list(head.parameters()))
        with torch.no_grad():
            for p, g in zip(head.parameters(), grads):
                p -= lr * g
        losses.append(loss.item())
    return losses


@wrong("fit_head", "stale", "adds")
def fit_head_zeroing_after_the_step(encoder, head, x, y, lr, steps):
    with torch.no_grad():
        features = encoder(x)
    optimizer = torch.optim.SGD(head.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        loss = F.mse_loss(head(features), y)
        loss.backward()                # the first step adds to the head's stale .grad
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    return losses


@wrong("fit_head", "requires_grad", "the caller's")
def fit_head_freezing_the_callers_encoder(encoder, head, x, y, lr, steps):
    encoder.requires_grad_(False)      # no graph into the encoder, but the caller's encoder stays frozen
    return _fit_on(encoder(x), head, y, lr, steps)


@wrong("fit_head", "frozen", "require grad again")
def fit_head_unfreezing_afterwards(encoder, head, x, y, lr, steps):
    encoder.requires_grad_(False)
    features = encoder(x)
    encoder.requires_grad_(True)       # "restores" a flag the caller had switched off
    return _fit_on(features, head, y, lr, steps)


@wrong("fit_head", "mode", "the caller's")
def fit_head_switching_the_encoder_to_eval(encoder, head, x, y, lr, steps):
    encoder.eval()                     # the caller's mode, changed for good
    with torch.no_grad():
        features = encoder(x)
    return _fit_on(features, head, y, lr, steps)


@right("fit_head")
def fit_head_freezing_for_a_moment(encoder, head, x, y, lr, steps):
    flags = [p.requires_grad for p in encoder.parameters()]
    encoder.requires_grad_(False)
    features = encoder(x)
    for p, flag in zip(encoder.parameters(), flags):
        p.requires_grad_(flag)         # the caller's flags, as they were
    optimizer = torch.optim.SGD(head.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad(set_to_none=False)
        loss = F.mse_loss(head(features), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses
