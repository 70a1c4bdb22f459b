"""Classic wrong answers and other correct idioms for k39_batch_norm."""

import contextlib

import torch
import torch.nn.functional as F

from selftests.variants import right, wrong


def _mode_kept(model):
    """The model in evaluation mode for a with block, then ``model.train(mode)``: the top module's
    mode for every submodule, as the wrong answers that use it have it (a right answer puts back
    each submodule's own, ``_modes``/``_restore``); not after an exception, never guarded there."""
    mode = model.training
    model.eval()
    yield
    model.train(mode)


# Not a decorator: selftests/classes.py copies these modules into submissions without those lines.
_evaluation_mode = contextlib.contextmanager(_mode_kept)

# --- validation_mse ---------------------------------------------------------------------------


@wrong("validation_mse", "running statistics", "training mode")
def validates_in_training_mode(model, x, y):
    with torch.no_grad():
        return F.mse_loss(model(x), y).item()


@wrong("validation_mse", "mode", "back")
def leaves_eval_mode_on(model, x, y):
    model.eval()
    with torch.no_grad():
        return F.mse_loss(model(x), y).item()


def _modes(model):
    return {m: m.training for m in model.modules()}


def _restore(modes):
    for m, mode in modes.items():
        m.training = mode


@right("validation_mse")
def restores_in_finally(model, x, y):
    flags = [(m, m.training) for m in model.modules()]
    model.train(False)
    try:
        with torch.inference_mode():
            return float(((model(x) - y) ** 2).mean())
    finally:
        for m, flag in flags:   # parents first: each child's own flag is set after its parent's
            m.train(flag)


@wrong("validation_mse", "MIXED", "top module's mode", "§5.1")
def restores_one_mode_for_the_whole_model(model, x, y):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        error = F.mse_loss(model(x), y).item()
    model.train(was_training)   # every submodule gets the top module's mode: the frozen batch norm trains again
    return error


@right("validation_mse")
def on_a_copy(model, x, y):
    import copy

    frozen = copy.deepcopy(model).eval()
    with torch.no_grad():
        return F.mse_loss(frozen(x), y).item()


# --- predict_one ------------------------------------------------------------------------------


@wrong("predict_one", "batch of one", "variance")
def predicts_in_training_mode(model, sample):
    with torch.no_grad():
        return model(sample.unsqueeze(0)).squeeze(0)


@wrong("predict_one", "(1, K)", "(K,)")
def keeps_the_batch_dimension(model, sample):
    with _evaluation_mode(model), torch.no_grad():
        return model(sample.unsqueeze(0))


@wrong("predict_one", "graph", "prediction")
def keeps_the_graph(model, sample):
    with _evaluation_mode(model):
        return model(sample[None])[0]


@right("predict_one")
def reshaped_batch(model, sample):
    modes = _modes(model)
    model.eval()
    with torch.no_grad():
        output = model(sample.reshape(1, -1)).reshape(-1)
    _restore(modes)
    return output


@right("predict_one")
def stacked_and_detached(model, sample):
    modes = _modes(model)
    try:
        model.eval()
        return model(torch.stack([sample]))[0].detach()
    finally:
        _restore(modes)


@wrong("predict_one", "MIXED", "top module's mode", "§5.2")
def restores_one_mode_for_the_whole_prediction(model, sample):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        output = model(sample.unsqueeze(0)).squeeze(0)
    model.train(was_training)   # every submodule gets the top module's mode: the frozen batch norm trains again
    return output


@wrong("validation_mse", "built a graph", "autograd records")
def validates_with_a_graph(model, x, y):
    with _evaluation_mode(model):
        return F.mse_loss(model(x), y).item()   # the float hides the graph the forward pass recorded


@wrong("validation_mse", "autograd off", "left it off")
def switches_autograd_off_for_good(model, x, y):
    with _evaluation_mode(model):
        torch.set_grad_enabled(False)   # a global switch, never switched back on
        return F.mse_loss(model(x), y).item()


@wrong("predict_one", "autograd off", "left it off")
def predicts_with_autograd_off_for_good(model, sample):
    with _evaluation_mode(model):
        torch.set_grad_enabled(False)
        return model(sample.unsqueeze(0))[0]


@wrong("predict_one", "default device", "same device")
def builds_the_batch_on_the_cpu(model, sample):
    with _evaluation_mode(model):
        batch = torch.zeros(1, sample.shape[0])   # on the CPU, wherever the model is
        batch[0] = sample
        with torch.no_grad():
            return model(batch)[0]
