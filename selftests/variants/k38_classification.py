"""Classic wrong answers and other correct idioms for k38_classification."""

import torch
import torch.nn.functional as F
from torch import nn

from selftests.variants import right, wrong

# --- classifier_step --------------------------------------------------------------------------


def _step(model, lr, loss_of):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    optimizer.zero_grad()
    loss = loss_of()
    loss.backward()
    optimizer.step()
    return loss.item()


@wrong("classifier_step", "softmax twice", "logits")
def softmax_before_the_loss(model, x, labels, lr):
    return _step(model, lr, lambda: F.cross_entropy(F.softmax(model(x), dim=1), labels))


@wrong("classifier_step", "nll_loss", "log-softmax")
def nll_on_raw_logits(model, x, labels, lr):
    return _step(model, lr, lambda: F.nll_loss(model(x), labels))


@wrong("classifier_step", "stale .grad", "clear the gradients")
def keeps_the_stale_gradient(model, x, labels, lr):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    loss = F.cross_entropy(model(x), labels)
    loss.backward()
    optimizer.step()
    return loss.item()


@right("classifier_step")
def log_softmax_and_nll(model, x, labels, lr):
    return _step(model, lr, lambda: F.nll_loss(F.log_softmax(model(x), dim=1), labels))


@right("classifier_step")
def by_hand_with_the_module_loss(model, x, labels, lr):
    for p in model.parameters():
        p.grad = None
    loss = nn.CrossEntropyLoss()(model(x), labels)
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= lr * p.grad
    return float(loss)


# --- accuracy ---------------------------------------------------------------------------------


def _measured(model, x, predict):
    modes = {m: m.training for m in model.modules()}
    model.eval()
    with torch.no_grad():
        result = predict(model(x))
    for m, mode in modes.items():
        m.training = mode
    return result


@wrong("accuracy", "class dimension", "sample for each class")
def argmax_over_samples(model, x, labels):
    return _measured(model, x, lambda logits: (logits.argmax(dim=0)[:len(labels)] == labels[:logits.shape[1]])
                     .float().mean().item())


@wrong("accuracy", "(N, N)", "keepdim=True")
def compares_a_column(model, x, labels):
    return _measured(model, x, lambda logits: (logits.argmax(dim=1, keepdim=True) == labels).float().mean().item())


@wrong("accuracy", "dropout", "evaluation mode")
def measures_in_training_mode(model, x, labels):
    with torch.no_grad():
        return (model(x).argmax(dim=1) == labels).float().mean().item()


@wrong("accuracy", "graph", "autograd records")
def builds_a_graph(model, x, labels):
    mode = model.training
    model.eval()
    correct = (model(x).argmax(dim=1) == labels).sum().item()
    model.train(mode)
    return correct / len(labels)


@right("accuracy")
def counts_the_correct_ones(model, x, labels):
    flags = [(m, m.training) for m in model.modules()]
    model.train(False)
    try:
        with torch.inference_mode():
            _, predicted = model(x).max(dim=-1)
    finally:
        for m, flag in flags:   # parents first: each child's own flag is set after its parent's
            m.train(flag)
    return int((predicted == labels).sum()) / labels.numel()


@wrong("accuracy", "MIXED", "top module's mode", "§4.2")
def restores_one_mode_for_the_whole_model(model, x, labels):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        predicted = model(x).argmax(dim=1)
    model.train(was_training)   # every submodule gets the top module's mode: the frozen batch norm trains again
    return (predicted == labels).float().mean().item()


@right("accuracy")
def with_softmax_probabilities(model, x, labels):
    return _measured(model, x, lambda logits: float(torch.eq(F.softmax(logits, dim=1).argmax(1), labels)
                                                    .double().mean()))


@wrong("accuracy", "autograd off", "left it off")
def switches_autograd_off_for_good(model, x, labels):
    came_in_training = model.training
    model.eval()
    torch.set_grad_enabled(False)   # a global switch, never switched back on
    share = (model(x).argmax(dim=1) == labels).float().mean().item()
    model.train(came_in_training)
    return share


@wrong("accuracy", "default device", "same device")
def a_table_of_hits_on_the_cpu(model, x, labels):
    came_in_training = model.training
    model.eval()
    with torch.no_grad():
        predicted = model(x).argmax(dim=1)
    model.train(came_in_training)
    hits = torch.zeros(len(labels))   # on the CPU, wherever the model's outputs are
    hits += predicted == labels
    return hits.mean().item()


@wrong("accuracy", "default device", "indices should be either on cpu")
def counts_through_a_mask_on_a_cpu_table(model, x, labels):
    modes = {m: m.training for m in model.modules()}
    model.eval()
    with torch.no_grad():
        predicted = model(x).argmax(dim=1)
    for m, mode in modes.items():
        m.training = mode
    ones = torch.ones(len(labels))   # on the CPU: a GPU refuses to index it with the mask below
    return ones[predicted == labels].sum().item() / len(labels)
