"""Classic wrong answers and other correct idioms for k28_running_loss."""

import torch
import torch.nn.functional as F

from selftests.variants import right, wrong


def _steps(model, batches, lr):
    """The loop the contract asks for, one SGD step a batch, the gradients cleared first; it yields
    each batch's loss (and its number of rows) after its step, and leaves the running total, where
    these variants differ, to its caller."""
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for x, y in batches:
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        yield loss, len(x)


@wrong("train_epoch", "graph", "Python float")
def epoch_summing_loss_tensors(model, batches, lr):
    total = 0.0
    for loss, _ in _steps(model, batches, lr):
        total += loss                  # keeps every batch's graph alive until the epoch ends
    return total.item() / len(batches)


@wrong("train_epoch", "graph", "Python float")
def epoch_keeping_loss_tensors(model, batches, lr):
    losses = []
    for loss, _ in _steps(model, batches, lr):
        losses.append(loss)
    return float(sum(loss.item() for loss in losses) / len(losses))


@wrong("train_epoch", "Python float", "copied out")
def epoch_returning_a_tensor(model, batches, lr):
    total = 0.0
    for loss, _ in _steps(model, batches, lr):
        total = total + loss.detach()
    return total / len(batches)


@right("train_epoch")
def epoch_summing_detached_losses(model, batches, lr):
    total = torch.zeros(())
    for loss, _ in _steps(model, batches, lr):
        total += loss.detach()
    return total.item() / len(batches)


@right("train_epoch")
def epoch_by_hand(model, batches, lr):
    losses = []
    for x, y in batches:
        model.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p.add_(p.grad, alpha=-lr)
        losses.append(float(loss))
    return sum(losses) / len(losses)


@wrong("train_epoch", "short", "mean over samples")
def train_epoch_mean_over_samples(model, batches, lr):
    total, rows = 0.0, 0
    for loss, n in _steps(model, batches, lr):
        total += loss.item() * n   # weighs rows, not batches
        rows += n
    return total / rows


@wrong("train_epoch", "stale gradient")
def train_epoch_zeroing_after_the_step(model, batches, lr):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    total = 0.0
    for x, y in batches:
        loss = F.mse_loss(model(x), y)
        loss.backward()                 # the first step adds to the caller's stale gradient
        optimizer.step()
        optimizer.zero_grad()
        total += loss.item()
    return total / len(batches)
