"""Classic wrong answers and other correct idioms for k31_train_eval."""

import contextlib

import torch
import torch.nn.functional as F

from selftests.variants import right, wrong


def _epoch(model, optimizer, batches):
    for x, y in batches:
        optimizer.zero_grad()
        F.mse_loss(model(x), y).backward()
        optimizer.step()


def _fit(model, batches, val_x, val_y, lr, epochs, train_mode=True, no_grad=True):
    """Each epoch trains in training mode, then validates in evaluation mode under no_grad, and the
    model goes back in training mode, as the contract asks; ``train_mode=False`` never switches
    back to training mode, ``no_grad=False`` validates with autograd recording."""
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(epochs):
        if train_mode:
            model.train()
        _epoch(model, optimizer, batches)
        model.eval()
        with torch.no_grad() if no_grad else contextlib.nullcontext():
            losses.append(F.mse_loss(model(val_x), val_y).item())
    if train_mode:
        model.train()
    return losses


@wrong("fit_with_validation", "dropout", "eval()")
def validate_in_training_mode(model, batches, val_x, val_y, lr, epochs):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    model.train()
    for _ in range(epochs):
        _epoch(model, optimizer, batches)
        with torch.no_grad():
            losses.append(F.mse_loss(model(val_x), val_y).item())   # dropout still on
    return losses


@wrong("fit_with_validation", "Never switching back", "next epoch trains without dropout")
def never_back_to_training_mode(model, batches, val_x, val_y, lr, epochs):
    # from the second epoch on, dropout stays off
    return _fit(model, batches, val_x, val_y, lr, epochs, train_mode=False)


@wrong("fit_with_validation", "not whether autograd records", "graph")
def validate_with_a_graph(model, batches, val_x, val_y, lr, epochs):
    return _fit(model, batches, val_x, val_y, lr, epochs, no_grad=False)   # builds a graph nobody uses


@right("fit_with_validation")
def validate_restoring_the_mode(model, batches, val_x, val_y, lr, epochs):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(epochs):
        model.train(True)
        for x, y in batches:
            loss = ((model(x) - y) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.train(False)
        with torch.inference_mode():
            losses.append(float(((model(val_x) - val_y) ** 2).mean()))
        model.train(True)
    return losses


@right("fit_with_validation")
def validate_in_a_helper(model, batches, val_x, val_y, lr, epochs):
    def validation_loss():
        model.eval()
        try:
            with torch.no_grad():
                return F.mse_loss(model(val_x), val_y).item()
        finally:
            model.train()

    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    model.train()
    losses = []
    for _ in range(epochs):
        _epoch(model, optimizer, batches)
        losses.append(validation_loss())
    return losses


# --- what the contract promises, not how many random numbers are drawn ------------------------


@right("fit_with_validation")
def validate_logging_a_training_loss(model, batches, val_x, val_y, lr, epochs):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses, logged = [], []
    for _ in range(epochs):
        model.train()
        _epoch(model, optimizer, batches)
        with torch.no_grad():   # one more training-mode forward pass, for a log: it changes nothing
            logged.append(F.mse_loss(model(batches[0][0]), batches[0][1]).item())
        model.eval()
        with torch.no_grad():
            losses.append(F.mse_loss(model(val_x), val_y).item())
    model.train()
    return losses


@right("fit_with_validation")
def validate_drawing_random_numbers_of_its_own(model, batches, val_x, val_y, lr, epochs):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for epoch in range(epochs):
        order = torch.randperm(len(batches))          # drawn, then not used: the batches go in order
        model.train()
        _epoch(model, optimizer, batches)
        model.eval()
        with torch.no_grad():
            losses.append(F.mse_loss(model(val_x), val_y).item())
        del order
    model.train()
    return losses


# --- the caller's states ---------------------------------------------------------------------


@wrong("fit_with_validation", "stale gradient", "adds")
def validate_clearing_after_the_step(model, batches, val_x, val_y, lr, epochs):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(epochs):
        model.train()
        for x, y in batches:
            F.mse_loss(model(x), y).backward()
            optimizer.step()
            optimizer.zero_grad()
        model.eval()
        with torch.no_grad():
            losses.append(F.mse_loss(model(val_x), val_y).item())
    model.train()
    return losses


@wrong("fit_with_validation", "frozen", "require grad")
def validate_unfreezing_the_model(model, batches, val_x, val_y, lr, epochs):
    model.requires_grad_(True)
    return _fit(model, batches, val_x, val_y, lr, epochs)
