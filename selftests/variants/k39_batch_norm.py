"""Classic wrong answers and other correct idioms for k39_batch_norm."""

import contextlib

import torch
import torch.nn.functional as F

from selftests.variants import right, wrong


def _mode_kept(model):
    """The model in evaluation mode for a with block, its mode put back after it (not after an
    exception: the variants never guard it)."""
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


@right("validation_mse")
def restores_in_finally(model, x, y):
    mode = model.training
    model.train(False)
    try:
        with torch.inference_mode():
            return float(((model(x) - y) ** 2).mean())
    finally:
        model.train(mode)


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
    with _evaluation_mode(model), torch.no_grad():
        return model(sample.reshape(1, -1)).reshape(-1)


@right("predict_one")
def stacked_and_detached(model, sample):
    mode = model.training
    try:
        model.eval()
        return model(torch.stack([sample]))[0].detach()
    finally:
        model.train(mode)


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
