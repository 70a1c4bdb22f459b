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
