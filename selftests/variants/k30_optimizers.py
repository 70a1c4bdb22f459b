"""Classic wrong answers and other correct idioms for k30_optimizers."""

import torch
import torch.nn.functional as F
from torch import nn

from selftests.variants import right, wrong

# --- train_steps ------------------------------------------------------------------------------


def _steps(model, optimizer, x, y, steps, clear=True):
    """The loop the contract asks for: each step clears the gradients, back-propagates the loss and
    steps, and its loss is recorded as a float. A variant whose mistake is what it hands this loop
    (another optimizer, another number of steps) calls it; one whose mistake is inside the loop
    writes its loop out."""
    losses = []
    for _ in range(steps):
        if clear:
            optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


@wrong("train_steps", "between backward() and step()", "wipes the gradients")
def steps_clearing_before_the_step(model, optimizer, x, y, steps):
    losses = []
    for _ in range(steps):
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.zero_grad()      # wipes the gradients the step was about to use
        optimizer.step()
        losses.append(loss.item())
    return losses


@wrong("train_steps", "once", "add up across steps")
def steps_clearing_once(model, optimizer, x, y, steps):
    optimizer.zero_grad()
    return _steps(model, optimizer, x, y, steps, clear=False)


@wrong("train_steps", "the optimizer you are given")
def steps_with_an_optimizer_of_its_own(model, optimizer, x, y, steps):
    mine = torch.optim.SGD(model.parameters(), lr=0.1)
    return _steps(model, mine, x, y, steps)


@wrong("train_steps", "stale .grad", "adds")
def steps_clearing_after_the_step(model, optimizer, x, y, steps):
    losses = []
    for _ in range(steps):
        loss = F.mse_loss(model(x), y)
        losses.append(loss.item())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=False)
    return losses


@right("train_steps")
def steps_clearing_the_model(model, optimizer, x, y, steps):
    losses = []
    for _ in range(steps):
        model.zero_grad()
        loss = nn.MSELoss()(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(float(loss))
    return losses


# --- adam_fit ---------------------------------------------------------------------------------


@wrong("adam_fit", "state", "once")
def adam_made_every_step(model, x, y, lr, steps):
    losses = []
    for _ in range(steps):
        optimizer = torch.optim.Adam(model.parameters(), lr=lr)   # forgets its moment estimates each step
        losses += _steps(model, optimizer, x, y, 1)
    return losses


@wrong("adam_fit", "Adam", "SGD")
def adam_replaced_by_sgd(model, x, y, lr, steps):
    return _steps(model, torch.optim.SGD(model.parameters(), lr=lr), x, y, steps)


@right("adam_fit")
def adam_with_a_closure(model, x, y, lr, steps):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    losses = []

    def closure():
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        losses.append(loss.item())
        return loss

    for _ in range(steps):
        optimizer.step(closure)
    return losses


@right("adam_fit")
def adam_on_a_parameter_list(model, x, y, lr, steps):
    params = list(model.parameters())
    optimizer = torch.optim.Adam(params, lr=lr, betas=(0.9, 0.999))
    losses = []
    for _ in range(steps):
        loss = ((model(x) - y) ** 2).mean()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


# --- clipped_step -----------------------------------------------------------------------------


def _clipped_step(model, x, y, lr, max_norm, clip=nn.utils.clip_grad_norm_, clear=True):
    """The step the contract asks for: the gradients cleared, back-propagated, clipped by ``clip``
    (to a total norm), then one SGD step; the loss as a float. Each option is one wrong line:
    another ``clip``, ``clear=False`` adds to the caller's stale .grad."""
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    if clear:
        optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    clip(model.parameters(), max_norm)
    optimizer.step()
    return loss.item()


@wrong("clipped_step", "before backward()", "after step()")
def clip_before_backward(model, x, y, lr, max_norm):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    optimizer.zero_grad()
    nn.utils.clip_grad_norm_(model.parameters(), max_norm)   # nothing to clip yet
    loss = F.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


@wrong("clipped_step", "before backward()", "after step()")
def clip_after_step(model, x, y, lr, max_norm):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    nn.utils.clip_grad_norm_(model.parameters(), max_norm)   # the step has already been taken
    return loss.item()


@wrong("clipped_step", "total norm", "not each value")
def clip_each_value(model, x, y, lr, max_norm):
    return _clipped_step(model, x, y, lr, max_norm, clip=nn.utils.clip_grad_value_)


@right("clipped_step")
def clip_by_hand(model, x, y, lr, max_norm):
    loss = F.mse_loss(model(x), y)
    grads = torch.autograd.grad(loss, list(model.parameters()))
    norm = torch.sqrt(sum((g ** 2).sum() for g in grads))
    scale = min(1.0, max_norm / (float(norm) + 1e-6))
    with torch.no_grad():
        for p, g in zip(model.parameters(), grads):
            p -= lr * scale * g
    return loss.item()


@right("clipped_step")
def clip_with_zero_grad_on_the_model(model, x, y, lr, max_norm):
    model.zero_grad()
    loss = nn.MSELoss()(model(x), y)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=max_norm, norm_type=2.0)
    torch.optim.SGD(model.parameters(), lr=lr).step()
    return loss.item()


@wrong("adam_fit", "stale gradient", "adds")
def adam_fit_zeroing_after_each_step(model, x, y, lr, steps):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        loss = F.mse_loss(model(x), y)
        loss.backward()              # the first step adds to the caller's stale gradient
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    return losses


@wrong("clipped_step", "stale gradient", "twice")
def clipped_step_without_zero_grad(model, x, y, lr, max_norm):
    # backward() adds to the .grad left by an earlier backward
    return _clipped_step(model, x, y, lr, max_norm, clear=False)


@right("clipped_step")
def clipped_step_setting_grads_to_none_by_hand(model, x, y, lr, max_norm):
    for p in model.parameters():
        p.grad = None
    loss = F.mse_loss(model(x), y)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    with torch.no_grad():
        for p in model.parameters():
            p -= lr * p.grad
    return loss.item()


# --- judged as procedures, and with the caller's state ---------------------------------------


@wrong("train_steps", "after", "before")
def steps_recording_the_loss_after_its_step(model, optimizer, x, y, steps):
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        F.mse_loss(model(x), y).backward()
        optimizer.step()
        with torch.no_grad():
            losses.append(F.mse_loss(model(x), y).item())
    return losses


@wrong("train_steps", "number of steps")
def steps_one_too_few(model, optimizer, x, y, steps):
    return _steps(model, optimizer, x, y, steps - 1)


@wrong("train_steps", "two calls", "state")
def steps_rebuilding_the_optimizer(model, optimizer, x, y, steps):
    fresh = type(optimizer)(model.parameters(), **optimizer.defaults)   # the same settings, none of its state
    return _steps(model, fresh, x, y, steps)


@right("train_steps")
def steps_setting_grads_to_none_by_hand(model, optimizer, x, y, steps):
    losses = []
    for _ in range(steps):
        for group in optimizer.param_groups:
            for p in group["params"]:
                p.grad = None
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


@right("train_steps")
def steps_through_a_closure(model, optimizer, x, y, steps):
    def closure():
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        return loss
    return [optimizer.step(closure).item() for _ in range(steps)]


@wrong("adam_fit", "frozen", "require grad")
def adam_fit_unfreezing_the_model(model, x, y, lr, steps):
    model.requires_grad_(True)    # "make sure everything trains": the caller froze part of it
    return _steps(model, torch.optim.Adam(model.parameters(), lr=lr), x, y, steps)


@wrong("adam_fit", "number of steps")
def adam_fit_one_step_too_many(model, x, y, lr, steps):
    return _steps(model, torch.optim.Adam(model.parameters(), lr=lr), x, y, steps + 1)
