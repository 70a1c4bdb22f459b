"""Classic wrong answers and other correct idioms for k18_grad_accumulation."""

import torch
import torch.nn.functional as F

from selftests.variants import right, wrong

# --- train ------------------------------------------------------------------------------------


def _train(optimizer, model, batches, clear=True, floats=True):
    """The loop the contract asks for, with ``optimizer``: one step a batch, the gradients cleared
    first; each loss recorded as a float. Each option is one wrong line: ``clear=False`` never
    clears, ``floats=False`` records the loss tensors."""
    losses = []
    for x, y in batches:
        if clear:
            optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item() if floats else loss)
    return losses


@wrong("train", "add up", "cleared", "every step")
def train_never_zeroes(model, batches, lr):
    return _train(torch.optim.SGD(model.parameters(), lr=lr), model, batches, clear=False)


@wrong("train", "add up", "not once before the loop")
def train_zeroes_once(model, batches, lr):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    optimizer.zero_grad()
    return _train(optimizer, model, batches, clear=False)


@wrong("train", "Python floats", "loss tensor")
def train_returns_tensors(model, batches, lr):
    return _train(torch.optim.SGD(model.parameters(), lr=lr), model, batches, floats=False)


@wrong("train", "momentum")
def train_with_momentum(model, batches, lr):
    return _train(torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9), model, batches)


@right("train")
def train_by_hand(model, batches, lr):
    losses = []
    for x, y in batches:
        for p in model.parameters():
            p.grad = None
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p -= lr * p.grad
        losses.append(float(loss.detach()))
    return losses


@right("train")
def train_zero_after_step(model, batches, lr):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for x, y in batches:
        loss = torch.nn.MSELoss()(model(x), y)
        losses.append(loss.detach().item())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=False)
    return losses


@right("train")
def train_autograd_grad(model, batches, lr):
    params = list(model.parameters())
    losses = []
    for x, y in batches:
        loss = F.mse_loss(model(x), y)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            for p, g in zip(params, grads):
                p.sub_(g, alpha=lr)
        losses.append(loss.item())
    return losses


# --- accumulated_step -------------------------------------------------------------------------


def _accumulated(model, micro_batches, lr, divide=True):
    """The step the contract asks for: the gradients cleared once, before the loop, each micro-batch
    loss divided by their number before its backward(), one SGD step after the loop; the micro-batch
    losses as floats, for the variant to make its result of. ``divide=False`` is the one wrong line:
    each loss back-propagated undivided."""
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    optimizer.zero_grad()
    losses = []
    for x, y in micro_batches:
        loss = F.mse_loss(model(x), y)
        (loss / len(micro_batches) if divide else loss).backward()
        losses.append(loss.item())
    optimizer.step()
    return losses


@wrong("accumulated_step", "divide", "n times too big")
def accumulate_without_dividing(model, micro_batches, lr):
    losses = _accumulated(model, micro_batches, lr, divide=False)
    return sum(losses) / len(losses)


@wrong("accumulated_step", "inside the loop", "BEFORE the loop")
def accumulate_clearing_inside_loop(model, micro_batches, lr):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for x, y in micro_batches:
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        (loss / len(micro_batches)).backward()
        losses.append(loss.item())
    optimizer.step()
    return sum(losses) / len(losses)


@wrong("accumulated_step", "stale gradients", "BEFORE the loop")
def accumulate_onto_stale_grads(model, micro_batches, lr):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for x, y in micro_batches:
        loss = F.mse_loss(model(x), y)
        (loss / len(micro_batches)).backward()
        losses.append(loss.item())
    optimizer.step()
    optimizer.zero_grad()          # tidy afterwards, but the stale gradients were already added to
    return sum(losses) / len(losses)


@wrong("accumulated_step", "step", "once")
def accumulate_stepping_each_micro_batch(model, micro_batches, lr):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    optimizer.zero_grad()
    losses = []
    for x, y in micro_batches:
        loss = F.mse_loss(model(x), y)
        (loss / len(micro_batches)).backward()
        optimizer.step()
        losses.append(loss.item())
    return sum(losses) / len(losses)


@wrong("accumulated_step", "MEAN of the micro-batch losses")
def accumulate_returns_total_loss(model, micro_batches, lr):
    return sum(_accumulated(model, micro_batches, lr))


@wrong("accumulated_step", "different sizes", "1/n")
def accumulate_by_concatenating(model, micro_batches, lr):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    optimizer.zero_grad()
    with torch.no_grad():
        mean_loss = sum(F.mse_loss(model(x), y).item() for x, y in micro_batches) / len(micro_batches)
    x = torch.cat([x for x, _ in micro_batches])
    y = torch.cat([y for _, y in micro_batches])
    F.mse_loss(model(x), y).backward()     # the full-batch gradient: rows weighted, not micro-batches
    optimizer.step()
    return mean_loss


@right("accumulated_step")
def accumulate_by_hand(model, micro_batches, lr):
    params = list(model.parameters())
    for p in params:
        p.grad = None
    losses = [F.mse_loss(model(x), y) for x, y in micro_batches]
    for loss in losses:
        (loss / len(losses)).backward()
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
    return sum(loss.item() for loss in losses) / len(losses)


@right("accumulated_step")
def accumulate_with_autograd_grad(model, micro_batches, lr):
    params = list(model.parameters())
    total = [torch.zeros_like(p) for p in params]
    losses = []
    for x, y in micro_batches:
        loss = F.mse_loss(model(x), y)
        for acc, g in zip(total, torch.autograd.grad(loss, params)):
            acc += g
        losses.append(loss.item())
    with torch.no_grad():
        for p, g in zip(params, total):
            p -= lr * g / len(micro_batches)
    return sum(losses) / len(losses)


@right("accumulated_step")
def accumulate_mean_of_losses(model, micro_batches, lr):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    optimizer.zero_grad(set_to_none=False)
    loss = torch.stack([F.mse_loss(model(x), y) for x, y in micro_batches]).mean()
    loss.backward()
    optimizer.step()
    return loss.item()


# --- grad_at ----------------------------------------------------------------------------------


@wrong("grad_at", "requires_grad_()", "fresh leaf")
def grad_at_on_callers_tensor(f, x):
    x.requires_grad_()
    f(x).sum().backward()
    return x.grad


@wrong("grad_at", "accumulates", "x.grad")
def grad_at_flag_restored_grad_kept(f, x):
    x.requires_grad_(True)
    f(x).sum().backward()
    g = x.grad.clone()
    x.requires_grad_(False)
    return g


_LEAVES = {}


@wrong("grad_at", "reused across calls", "new leaf")
def grad_at_cached_leaf(f, x):
    leaf = _LEAVES.get(id(x))
    if leaf is None or leaf.shape != x.shape:
        leaf = _LEAVES[id(x)] = x.detach().clone().requires_grad_()
    f(leaf).sum().backward()
    return leaf.grad.clone()


@wrong("grad_at", "does not require grad", "requires_grad_()")
def grad_at_without_leaf(f, x):
    f(x).sum().backward()
    return x.grad


@right("grad_at")
def grad_at_autograd_grad(f, x):
    leaf = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(f(leaf).sum(), leaf)
    return g


@right("grad_at")
def grad_at_func(f, x):
    return torch.func.grad(lambda t: f(t).sum())(x)


@right("grad_at")
def grad_at_enable_grad_clone(f, x):
    with torch.enable_grad():
        leaf = x.clone().requires_grad_(True)
        out = f(leaf).sum()
    out.backward()
    return leaf.grad.detach()
