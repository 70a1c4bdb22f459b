"""Classic wrong answers and other correct idioms for k39_batch_norm."""

import torch
import torch.nn.functional as F

from selftests.variants import right, wrong

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
    mode = model.training
    model.eval()
    with torch.no_grad():
        output = model(sample.unsqueeze(0))
    model.train(mode)
    return output


@wrong("predict_one", "graph", "prediction")
def keeps_the_graph(model, sample):
    mode = model.training
    model.eval()
    output = model(sample[None])[0]
    model.train(mode)
    return output


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
    came_in_training = model.training
    model.eval()
    error = F.mse_loss(model(x), y).item()   # the float hides the graph the forward pass recorded
    model.train(came_in_training)
    return error


@wrong("validation_mse", "autograd off", "left it off")
def switches_autograd_off_for_good(model, x, y):
    came_in_training = model.training
    model.eval()
    torch.set_grad_enabled(False)   # a global switch, never switched back on
    error = F.mse_loss(model(x), y).item()
    model.train(came_in_training)
    return error


@wrong("predict_one", "autograd off", "left it off")
def predicts_with_autograd_off_for_good(model, sample):
    came_in_training = model.training
    model.eval()
    torch.set_grad_enabled(False)
    prediction = model(sample.unsqueeze(0))[0]
    model.train(came_in_training)
    return prediction


@wrong("predict_one", "default device", "same device")
def builds_the_batch_on_the_cpu(model, sample):
    came_in_training = model.training
    model.eval()
    batch = torch.zeros(1, sample.shape[0])   # on the CPU, wherever the model is
    batch[0] = sample
    with torch.no_grad():
        prediction = model(batch)[0]
    model.train(came_in_training)
    return prediction
