"""Classic wrong answers and other correct idioms for k42_devices_training."""

import contextlib
import copy

import torch
import torch.nn.functional as F
from torch import nn

from selftests.variants import right, wrong

# --- predict_classes --------------------------------------------------------------------------


def _modes(model):
    return {module: module.training for module in model.modules()}


def _restore(modes):
    for module, mode in modes.items():
        module.training = mode


def _predict(model, loader, move, no_grad=True):
    """Predictions as the contract makes them, each batch moved by ``move``: in evaluation mode
    under no_grad, each submodule's mode put back; ``no_grad=False`` lets autograd record."""
    modes = _modes(model)
    model.eval()
    with torch.no_grad() if no_grad else contextlib.nullcontext():
        predictions = [model(move(x)).argmax(dim=1) for x, _ in loader]
    _restore(modes)
    return torch.cat(predictions)


@wrong("predict_classes", "another device", ".to()")
def moves_with_a_bare_statement(model, loader):
    device = next(model.parameters()).device

    def move(x):
        x.to(device)   # the moved copy is thrown away
        return x
    return _predict(model, loader, move)


DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")   # chosen once, for the program


@wrong("predict_classes", "not on the expected device", "chosen once")
def uses_the_device_chosen_once(model, loader):
    return _predict(model, loader, lambda x: x.to(DEVICE))


@wrong("predict_classes", "dropout", "training mode")
def predicts_in_training_mode(model, loader):
    device = next(model.parameters()).device
    with torch.no_grad():
        return torch.cat([model(x.to(device)).argmax(dim=1) for x, _ in loader])


@wrong("predict_classes", "mode")
def leaves_evaluation_mode_on(model, loader):
    device = next(model.parameters()).device
    model.eval()
    with torch.no_grad():
        return torch.cat([model(x.to(device)).argmax(dim=1) for x, _ in loader])


@wrong("predict_classes", "graph")
def predicts_under_autograd(model, loader):
    device = next(model.parameters()).device
    return _predict(model, loader, lambda x: x.to(device), no_grad=False)


@wrong("predict_classes", "MIXED", "top module's mode")
def restores_one_mode_for_the_whole_model(model, loader):
    device = next(model.parameters()).device
    came_in_training = model.training
    model.eval()
    with torch.no_grad():
        predictions = torch.cat([model(x.to(device)).argmax(dim=1) for x, _ in loader])
    model.train(came_in_training)   # the frozen batch norm trains again
    return predictions


@right("predict_classes")
def fills_a_tensor_made_on_the_model_s_device(model, loader):
    weight = next(model.parameters())
    predictions = torch.empty(len(loader.dataset), dtype=torch.int64, device=weight.device)
    flags = [(m, m.training) for m in model.modules()]
    model.train(False)
    start = 0
    with torch.inference_mode():
        for x, _labels in loader:
            scores = model(x.to(weight, non_blocking=True))
            predictions[start:start + len(x)] = scores.max(dim=1).indices
            start += len(x)
    for m, flag in flags:   # parents first: each child's own flag is set after its parent's
        m.train(flag)
    return predictions


@right("predict_classes")
def moves_each_batch_to_where_the_parameters_are(model, loader):
    was = _modes(model)
    try:
        model.eval()
        with torch.no_grad():
            batches = [model(x.to(device=next(model.parameters()).device)) for x, _labels in loader]
        return torch.concat(batches).argmax(1)
    finally:
        _restore(was)


# --- train_on_device --------------------------------------------------------------------------


def _train(model, loader, lr, epochs, move_batch, keep=lambda loss: loss.item()):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    model.train()
    losses = []
    for _ in range(epochs):
        total, count = 0.0, 0
        for x, labels in loader:
            x, labels = move_batch(x, labels)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), labels)
            loss.backward()
            optimizer.step()
            total += keep(loss) * len(labels)
            count += len(labels)
        losses.append(total / count if isinstance(total, float) else (total / count).item())
    return losses


@wrong("train_on_device", "labels", "CPU")
def moves_only_the_features(model, loader, lr, epochs, device):
    model.to(device)
    return _train(model, loader, lr, epochs, lambda x, labels: (x.to(device), labels))


@wrong("train_on_device", "bare .to() statement", "moves nothing")
def moves_with_bare_statements(model, loader, lr, epochs, device):
    model.to(device)

    def move(x, labels):
        x.to(device)
        labels.to(device)
        return x, labels
    return _train(model, loader, lr, epochs, move)


@wrong("train_on_device", "copy of the model")
def trains_a_copy(model, loader, lr, epochs, device):
    moved = copy.deepcopy(model).to(device)
    return _train(moved, loader, lr, epochs, lambda x, labels: (x.to(device), labels.to(device)))


@wrong("train_on_device", "graph")
def sums_loss_tensors(model, loader, lr, epochs, device):
    model.to(device)
    return _train(model, loader, lr, epochs, lambda x, labels: (x.to(device), labels.to(device)),
                  keep=lambda loss: loss)


@right("train_on_device")
def builds_the_optimizer_first_and_sums_on_the_device(model, loader, lr, epochs, device):
    # model.to changes the parameters in place: an optimizer built before the move still holds them.
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    model.to(device).train()
    losses = []
    for _ in range(epochs):
        total = torch.zeros((), device=device)
        count = 0
        for x, labels in loader:
            x = x.to(device, non_blocking=True)
            labels = labels.to(device, non_blocking=True)
            loss = F.cross_entropy(model(x), labels)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            total += loss.detach() * labels.numel()   # one copy to the CPU per epoch, not per batch
            count += labels.numel()
        losses.append(float(total.cpu()) / count)
    return losses


@right("train_on_device")
def follows_the_model_s_device_and_sums_per_sample(model, loader, lr, epochs, device):
    model = model.to(device)
    where = next(model.parameters()).device
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    model.train(True)
    history = []
    for _ in range(epochs):
        total, count = 0.0, 0
        for x, labels in loader:
            logits = model(x.to(where))
            loss = F.cross_entropy(logits, labels.to(where), reduction="sum")
            optimizer.zero_grad()
            (loss / len(labels)).backward()
            optimizer.step()
            total += loss.item()
            count += len(labels)
        history.append(total / count)
    return history


# --- move_training ----------------------------------------------------------------------------


@wrong("move_training", "optimizer's state", "model.to()")
def moves_the_model_only(model, optimizer, device, dtype):
    model.to(device=device, dtype=dtype)


@wrong("move_training", "made anew", "old ones")
def makes_new_parameters(model, optimizer, device, dtype):
    for module in model.modules():
        for name, p in list(module.named_parameters(recurse=False)):
            setattr(module, name, nn.Parameter(p.detach().to(device=device, dtype=dtype)))
        for name, b in list(module.named_buffers(recurse=False)):
            setattr(module, name, b.to(device=device, dtype=dtype) if b.is_floating_point() else b.to(device))


@wrong("move_training", "state", "lost")
def drops_the_optimizer_s_state(model, optimizer, device, dtype):
    model.to(device=device, dtype=dtype)
    optimizer.state.clear()


@wrong("move_training", "integer buffers")
def casts_every_buffer(model, optimizer, device, dtype):
    for tensor in list(model.parameters()) + list(model.buffers()):
        tensor.data = tensor.data.to(device=device, dtype=dtype)
    optimizer.load_state_dict(optimizer.state_dict())


@right("move_training")
def moves_each_state_tensor_itself(model, optimizer, device, dtype):
    model.to(device)
    model.to(dtype)
    for state in optimizer.state.values():
        for name, value in state.items():
            if torch.is_tensor(value) and value.is_floating_point() and name != "step":
                state[name] = value.to(device=device, dtype=dtype)


@right("move_training")
def loads_a_deep_copy_of_the_state(model, optimizer, device, dtype):
    saved = copy.deepcopy(optimizer.state_dict())
    model.to(device=device, dtype=dtype)
    optimizer.load_state_dict(saved)


# --- confusion_matrix -------------------------------------------------------------------------


def _count(model, loader, classes, counts, move_labels, move_predicted=lambda p: p):
    device = next(model.parameters()).device
    modes = _modes(model)
    model.eval()
    with torch.no_grad():
        for x, labels in loader:
            predicted = move_predicted(model(x.to(device)).argmax(dim=1))
            counts += torch.bincount(move_labels(labels, device) * classes + predicted, minlength=classes * classes)
    _restore(modes)
    return counts.reshape(classes, classes).cpu()


@wrong("confusion_matrix", "torch.zeros", "CPU")
def counts_into_a_tensor_on_the_cpu(model, loader, classes):
    counts = torch.zeros(classes * classes, dtype=torch.int64)
    return _count(model, loader, classes, counts, lambda labels, device: labels.to(device))


@wrong("confusion_matrix", "labels", "predictions")
def leaves_the_labels_on_the_cpu(model, loader, classes):
    counts = torch.zeros(classes * classes, dtype=torch.int64, device=next(model.parameters()).device)
    return _count(model, loader, classes, counts, lambda labels, device: labels)


@wrong("confusion_matrix", "class that no sample has")
def counts_without_minlength(model, loader, classes):
    device = next(model.parameters()).device
    modes = _modes(model)
    model.eval()
    pairs = []
    with torch.no_grad():
        for x, labels in loader:
            pairs.append(labels.to(device) * classes + model(x.to(device)).argmax(dim=1))
    _restore(modes)
    return torch.bincount(torch.cat(pairs)).reshape(classes, classes).cpu()   # as long as the largest pair


@wrong("confusion_matrix", "dropout", "training mode")
def counts_in_training_mode(model, loader, classes):
    device = next(model.parameters()).device
    counts = torch.zeros(classes, classes, dtype=torch.int64, device=device)
    with torch.no_grad():
        for x, labels in loader:
            predicted = model(x.to(device)).argmax(dim=1)
            counts.index_put_((labels.to(device), predicted), torch.ones_like(predicted), accumulate=True)
    return counts.cpu()


@right("confusion_matrix")
def brings_each_batch_s_predictions_to_the_cpu(model, loader, classes):
    counts = torch.zeros(classes, classes, dtype=torch.long)
    was = _modes(model)
    model.eval()
    with torch.inference_mode():
        for x, labels in loader:
            predicted = model(x.to(next(model.parameters()).device)).argmax(1).cpu()
            counts.index_put_((labels, predicted), torch.ones_like(labels), accumulate=True)
    _restore(was)
    return counts


@right("confusion_matrix")
def counts_in_python(model, loader, classes):
    table = [[0] * classes for _ in range(classes)]
    modes = _modes(model)
    model.train(False)
    with torch.no_grad():
        for x, labels in loader:
            scores = model(x.to(next(model.parameters())))
            for label, guess in zip(labels.tolist(), scores.argmax(dim=1).tolist()):
                table[label][guess] += 1
    _restore(modes)
    return torch.tensor(table, dtype=torch.int64)


# --- found by the audit of lesson 3's k42 ------------------------------------------------------


def _evaluate(model, body):
    """``body(device)`` in evaluation mode, every submodule's mode put back afterwards."""
    modes = _modes(model)
    model.eval()
    try:
        return body(next(model.parameters()).device)
    finally:
        _restore(modes)


@wrong("predict_classes", "torch.set_grad_enabled(False)", "whole program")
def switches_autograd_off_for_good(model, loader):
    torch.set_grad_enabled(False)   # no graph here, and none in the caller's next training step either
    return _evaluate(model, lambda device: torch.cat([model(x.to(device)).argmax(1) for x, _ in loader]))


@wrong("predict_classes", "Cannot copy out of meta tensor", "stay on the model's device")
def brings_the_predictions_to_the_cpu(model, loader):
    with torch.no_grad():
        return _evaluate(model, lambda device: torch.cat([model(x.to(device)).argmax(1).cpu() for x, _ in loader]))


@wrong("predict_classes", "model go to the batch")
def moves_the_model_to_the_batch(model, loader):
    def body(device):
        model.cpu()   # the batch's device: the caller's model leaves its own
        with torch.no_grad():
            return torch.cat([model(x).argmax(1) for x, _ in loader])
    return _evaluate(model, body)


@right("predict_classes")
def switches_autograd_off_and_back(model, loader):
    was = torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    try:
        return _evaluate(model, lambda device: torch.cat([torch.max(model(x.to(device)), 1)[1] for x, _ in loader]))
    finally:
        torch.set_grad_enabled(was)


@right("predict_classes")
def evaluates_a_deep_copy(model, loader):
    twin = copy.deepcopy(model).eval()   # the caller's model is left as it came, every submodule's mode too
    device = next(twin.parameters()).device
    with torch.inference_mode():
        return torch.cat([twin(x.to(device)).argmax(dim=-1) for x, _ in loader])


@wrong("train_on_device", "never cleared", "adds to whatever .grad holds")
def never_clears_the_gradients(model, loader, lr, epochs, device):
    model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    model.train()
    losses = []
    for _ in range(epochs):
        total, count = 0.0, 0
        for x, labels in loader:
            loss = F.cross_entropy(model(x.to(device)), labels.to(device))
            loss.backward()
            optimizer.step()
            total += loss.item() * len(labels)
            count += len(labels)
        losses.append(total / count)
    return losses


@right("train_on_device")
def updates_by_hand(model, loader, lr, epochs, device):
    model.to(device).train()
    losses = []
    for _ in range(epochs):
        total, count = 0.0, 0
        for x, labels in loader:
            x, labels = x.to(device), labels.to(device)
            for p in model.parameters():
                p.grad = None
            loss = F.nll_loss(F.log_softmax(model(x), dim=1), labels)
            loss.backward()
            with torch.no_grad():
                for p in model.parameters():
                    if p.grad is not None:   # a frozen parameter gets none
                        p -= lr * p.grad
            total += loss.item() * labels.shape[0]
            count += labels.shape[0]
        losses.append(total / count)
    return losses


@wrong("move_training", "buffers left behind", "batch norm")
def moves_the_parameters_data_only(model, optimizer, device, dtype):
    for p in model.parameters():
        p.data = p.data.to(device=device, dtype=dtype)   # the same objects, but the buffers stay
    optimizer.load_state_dict(optimizer.state_dict())


@wrong("move_training", "its mode stays")
def leaves_it_in_evaluation_mode(model, optimizer, device, dtype):
    model.to(device=device, dtype=dtype)
    optimizer.load_state_dict(optimizer.state_dict())
    model.eval()


@wrong("move_training", "optimizer's state")
def reloads_the_state_before_the_move(model, optimizer, device, dtype):
    optimizer.load_state_dict(optimizer.state_dict())   # cast to the parameters as they still are
    model.to(device=device, dtype=dtype)


@right("move_training")
def casts_every_floating_state_tensor(model, optimizer, device, dtype):
    model.to(device=device, dtype=dtype)
    for state in optimizer.state.values():
        for name, value in state.items():
            if torch.is_tensor(value) and value.is_floating_point():   # Adam's step count too
                state[name] = value.to(device=device, dtype=dtype)


@wrong("confusion_matrix", "counts[labels, predicted] += 1", "repeats of a pair")
def counts_by_an_indexed_increment(model, loader, classes):
    def body(device):
        counts = torch.zeros(classes, classes, dtype=torch.int64, device=device)
        with torch.no_grad():
            for x, labels in loader:
                counts[labels.to(device), model(x.to(device)).argmax(1)] += 1
        return counts.cpu()
    return _evaluate(model, body)


@wrong("confusion_matrix", "torch.set_grad_enabled(False)", "whole program")
def counts_with_autograd_off_for_good(model, loader, classes):
    torch.set_grad_enabled(False)

    def body(device):
        counts = torch.zeros(classes * classes, dtype=torch.int64, device=device)
        for x, labels in loader:
            counts += torch.bincount(labels.to(device) * classes + model(x.to(device)).argmax(1),
                                     minlength=classes * classes)
        return counts.reshape(classes, classes).cpu()
    return _evaluate(model, body)


@right("confusion_matrix")
def multiplies_one_hot_matrices(model, loader, classes):
    def body(device):
        counts = torch.zeros(classes, classes, dtype=torch.int64, device=device)
        with torch.no_grad():
            for x, labels in loader:
                predicted = model(x.to(device)).argmax(1)
                counts += F.one_hot(labels.to(device), classes).T @ F.one_hot(predicted, classes)
        return counts.to("cpu")
    return _evaluate(model, body)


@wrong("train_on_device", "frozen", "requires_grad flags")
def unfreezes_the_model(model, loader, lr, epochs, device):
    model.to(device).requires_grad_(True)   # "to be sure it trains": the caller's frozen layer trains too
    return _train(model, loader, lr, epochs, lambda x, labels: (x.to(device), labels.to(device)))


@right("train_on_device")
def optimizes_the_trainable_parameters_only(model, loader, lr, epochs, device):
    model.to(device)
    optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=lr)
    model.train()
    losses = []
    for _ in range(epochs):
        total, count = 0.0, 0
        for x, labels in loader:
            x, labels = x.to(device), labels.to(device)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), labels)
            loss.backward()
            optimizer.step()
            total += loss.item() * len(labels)
            count += len(labels)
        losses.append(total / count)
    return losses
