"""Classic wrong answers and other correct idioms for k41_training_loop."""

import contextlib

import torch
import torch.nn.functional as F
from torch import nn

from selftests.variants import right, wrong

# --- train_classifier -------------------------------------------------------------------------


def _train(model, loader, lr, epochs, loss_of=F.cross_entropy, clear=True, train_mode=True, per_sample=True):
    """The training loop as the contract asks for it (SGD, training mode, the gradients cleared each
    batch, per-sample epoch means); each option is one wrong line."""
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    if train_mode:
        model.train()
    losses = []
    for _ in range(epochs):
        total, count, means = 0.0, 0, []
        for x, labels in loader:
            if clear:
                optimizer.zero_grad()
            loss = loss_of(model(x), labels)
            loss.backward()
            optimizer.step()
            total += loss.item() * len(labels)
            count += len(labels)
            means.append(loss.item())
        losses.append(total / count if per_sample else sum(means) / len(means))
    return losses


@wrong("train_classifier", "softmax twice", "log-softmax")
def softmax_before_the_loss(model, loader, lr, epochs):
    return _train(model, loader, lr, epochs, loss_of=lambda logits, labels: F.cross_entropy(logits.softmax(dim=1), labels))


@wrong("train_classifier", "short", "mean of the batch means")
def mean_of_batch_means(model, loader, lr, epochs):
    return _train(model, loader, lr, epochs, per_sample=False)


@wrong("train_classifier", "stale .grad", "clear the gradients")
def no_zero_grad(model, loader, lr, epochs):
    return _train(model, loader, lr, epochs, clear=False)


@wrong("train_classifier", "evaluation mode", "dropout")
def training_mode_forgotten(model, loader, lr, epochs):
    return _train(model, loader, lr, epochs, train_mode=False)


def _train_summing_tensors(model, loader, lr, epochs, recorded):
    """The loop with its running total made of loss tensors (every batch's graph kept alive with
    it); ``recorded`` makes an epoch's loss of its total / count."""
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    model.train()
    losses = []
    for _ in range(epochs):
        total, count = 0.0, 0
        for x, labels in loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), labels)
            loss.backward()
            optimizer.step()
            total = total + loss * len(labels)
            count += len(labels)
        losses.append(recorded(total / count))
    return losses


@wrong("train_classifier", "graph", "python float")
def sums_loss_tensors(model, loader, lr, epochs):
    return _train_summing_tensors(model, loader, lr, epochs, recorded=lambda mean: mean)


@wrong("train_classifier", "graph", "python float")
def sums_loss_tensors_then_item(model, loader, lr, epochs):
    return _train_summing_tensors(model, loader, lr, epochs, recorded=lambda mean: mean.item())


@right("train_classifier")
def summed_loss_by_hand(model, loader, lr, epochs):
    model.train(True)
    trainable = [p for p in model.parameters() if p.requires_grad]
    losses = []
    for _ in range(epochs):
        total, count = 0.0, 0
        for x, labels in loader:
            for p in trainable:
                p.grad = None
            loss = nn.CrossEntropyLoss()(model(x), labels)
            loss.backward()
            with torch.no_grad():
                for p in trainable:
                    p -= lr * p.grad
            total += float(loss) * labels.numel()
            count += labels.numel()
        losses.append(total / count)
    return losses


@right("train_classifier")
def log_softmax_and_nll_counting_the_dataset(model, loader, lr, epochs):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    model.train()
    losses = []
    for _ in range(epochs):
        total = torch.zeros((), dtype=torch.float64)
        for x, labels in loader:
            optimizer.zero_grad(set_to_none=False)
            loss = F.nll_loss(F.log_softmax(model(x), dim=1), labels)
            loss.backward()
            optimizer.step()
            total += loss.detach().double().cpu() * len(labels)
        losses.append(total.item() / len(loader.dataset))
    return losses


# --- evaluate ---------------------------------------------------------------------------------


def _evaluate(model, loader, eval_mode=True, restore=True, no_grad=True, per_sample=True):
    """(loss, accuracy) as the contract makes them: in evaluation mode under no_grad, per sample, each
    submodule's mode put back; each option is one wrong line (``no_grad=False`` adds no no_grad, so
    that a global switch made before the call stays as it was)."""
    modes = {m: m.training for m in model.modules()}
    if eval_mode:
        model.eval()
    total, correct, count, means, accuracies = 0.0, 0, 0, [], []
    with torch.no_grad() if no_grad else contextlib.nullcontext():
        for x, labels in loader:
            logits = model(x)
            loss = F.cross_entropy(logits, labels)
            hits = int((logits.argmax(dim=1) == labels).sum())
            total += loss.item() * len(labels)
            correct += hits
            count += len(labels)
            means.append(loss.item())
            accuracies.append(hits / len(labels))
    if restore:
        for m, mode in modes.items():
            m.training = mode
    if per_sample:
        return total / count, correct / count
    return sum(means) / len(means), sum(accuracies) / len(accuracies)


@wrong("evaluate", "dropout", "evaluation mode")
def evaluation_mode_forgotten(model, loader):
    return _evaluate(model, loader, eval_mode=False)


@wrong("evaluate", "mode", "restore")
def mode_not_restored(model, loader):
    return _evaluate(model, loader, restore=False)


@wrong("evaluate", "MIXED", "top module's mode", "§7.2")
def restores_one_mode_for_the_whole_model(model, loader):
    was_training = model.training
    model.eval()
    total, correct, count = 0.0, 0, 0
    with torch.no_grad():
        for x, labels in loader:
            logits = model(x)
            total += F.cross_entropy(logits, labels, reduction="sum").item()
            correct += int((logits.argmax(dim=1) == labels).sum())
            count += len(labels)
    model.train(was_training)   # every submodule gets the top module's mode: the frozen batch norm trains again
    return total / count, correct / count


@wrong("evaluate", "short", "mean of the batch means")
def mean_of_batch_means_in_evaluation(model, loader):
    return _evaluate(model, loader, per_sample=False)


@wrong("evaluate", "graph", "autograd records")
def evaluates_with_a_graph(model, loader):
    return _evaluate(model, loader, no_grad=False)


@right("evaluate")
def per_sample_losses_in_inference_mode(model, loader):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    losses, hits = [], []
    with torch.inference_mode():
        for x, labels in loader:
            logits = model(x)
            losses.append(F.cross_entropy(logits, labels, reduction="none"))
            hits.append(logits.max(dim=-1).indices == labels)
    for m, mode in modes:
        m.training = mode
    return float(torch.cat(losses).mean()), float(torch.cat(hits).double().mean())


@right("evaluate")
def restores_in_finally(model, loader):
    flags = {m: m.training for m in model.modules()}
    model.train(False)
    try:
        with torch.no_grad():
            batches = [(model(x), labels) for x, labels in loader]
    finally:
        for m, flag in flags.items():   # parents first: each child's own flag is set after its parent's
            m.train(flag)
    logits = torch.cat([b[0] for b in batches])
    labels = torch.cat([b[1] for b in batches])
    return nn.CrossEntropyLoss()(logits, labels).item(), (logits.argmax(1) == labels).float().mean().item()


@wrong("evaluate", "autograd off", "left it off")
def switches_autograd_off_for_good(model, loader):
    torch.set_grad_enabled(False)   # a global switch, never switched back on
    return _evaluate(model, loader, no_grad=False)


@right("evaluate")
def on_a_copy_in_evaluation_mode(model, loader):
    import copy

    served = copy.deepcopy(model).eval()   # the caller's model is never switched at all
    total, correct, count = 0.0, 0, 0
    with torch.no_grad():
        for x, labels in loader:
            logits = served(x)
            total += F.cross_entropy(logits, labels, reduction="sum").item()
            correct += int((logits.argmax(dim=1) == labels).sum())
            count += len(labels)
    return total / count, correct / count
