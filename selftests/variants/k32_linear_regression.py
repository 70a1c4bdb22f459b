"""Classic wrong answers and other correct idioms for k32_linear_regression."""

import torch
import torch.nn.functional as F
from torch import nn

from selftests.variants import right, wrong

# --- least_squares ----------------------------------------------------------------------------


@wrong("least_squares", "through the origin", "bias")
def least_squares_through_the_origin(x, y):
    w = torch.linalg.lstsq(x, y.unsqueeze(1)).solution.squeeze(1)
    return w, torch.zeros((), dtype=x.dtype, device=x.device)


@right("least_squares")
def least_squares_by_normal_equations(x, y):
    design = torch.cat([x, torch.ones_like(x[:, :1])], dim=1)
    solution = torch.linalg.solve(design.T @ design, design.T @ y)
    return solution[:-1], solution[-1]


@right("least_squares")
def least_squares_centred(x, y):
    x_mean, y_mean = x.mean(dim=0), y.mean()
    w = torch.linalg.lstsq(x - x_mean, (y - y_mean).unsqueeze(1)).solution.squeeze(1)
    return w, y_mean - x_mean @ w


# --- fit_by_hand ------------------------------------------------------------------------------


def _zeros(x):
    w = torch.zeros(x.shape[1], dtype=x.dtype, device=x.device, requires_grad=True)
    b = torch.zeros((), dtype=x.dtype, device=x.device, requires_grad=True)
    return w, b


def _descend(x, y, lr, steps, w=None, b=None, clear=True, floats=True):
    """Gradient descent as the contract asks for it, from zeros (or from ``w`` and ``b``): each step
    back-propagates the mean squared error, updates w and b under no_grad and clears their .grad;
    the losses recorded as floats. Returns w, b and the losses for the variant to hand back as it
    does. Each option is one wrong line: ``clear=False`` never clears, ``floats=False`` records the
    loss tensors."""
    if w is None:
        w, b = _zeros(x)
    losses = []
    for _ in range(steps):
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
        if clear:
            w.grad = b.grad = None
        losses.append(loss.item() if floats else loss)
    return w, b, losses


@wrong("fit_by_hand", "uphill", "minus")
def fit_uphill(x, y, lr, steps):
    w, b, losses = _descend(x, y, -lr, steps)    # w += lr * w.grad: every step a step of -lr
    return w.detach(), b.detach(), torch.tensor(losses)


@wrong("fit_by_hand", "add up", "still there")
def fit_never_clearing(x, y, lr, steps):
    w, b, losses = _descend(x, y, lr, steps, clear=False)
    return w.detach(), b.detach(), torch.tensor(losses)


@wrong("fit_by_hand", "sum", "learning rate")
def fit_on_the_summed_loss(x, y, lr, steps):
    w, b = _zeros(x)
    losses = []
    for _ in range(steps):
        loss = ((x @ w + b - y) ** 2).sum()    # N times the mean: the step is N times too big
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
        w.grad = b.grad = None
        losses.append(loss.item() / len(y))
    return w.detach(), b.detach(), torch.tensor(losses)


@wrong("fit_by_hand", "graph", "stacked from loss tensors")
def fit_keeping_loss_tensors(x, y, lr, steps):
    w, b, losses = _descend(x, y, lr, steps, floats=False)
    return w.detach(), b.detach(), torch.stack(losses)


@wrong("fit_by_hand", "requires_grad", "leaves that require grad")
def fit_returning_the_leaves(x, y, lr, steps):
    w, b, losses = _descend(x, y, lr, steps)
    return w, b, torch.tensor(losses)


@wrong("fit_by_hand", "recorded after", "update")
def fit_recording_after_the_update(x, y, lr, steps):
    w, b = _zeros(x)
    losses = []
    for _ in range(steps):
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
            losses.append(((x @ w + b - y) ** 2).mean().item())
        w.grad = b.grad = None
    return w.detach(), b.detach(), torch.tensor(losses)


@right("fit_by_hand")
def fit_with_autograd_grad(x, y, lr, steps):
    w, b = _zeros(x)
    losses = torch.zeros(steps)
    for step in range(steps):
        loss = F.mse_loss(x @ w + b, y)
        grad_w, grad_b = torch.autograd.grad(loss, (w, b))
        with torch.no_grad():
            w.sub_(lr * grad_w)
            b.sub_(lr * grad_b)
        losses[step] = loss.item()
    return w.detach().clone(), b.detach().clone(), losses


@right("fit_by_hand")
def fit_by_hand_written_gradient(x, y, lr, steps):
    w = torch.zeros(x.shape[1], dtype=x.dtype, device=x.device)
    b = torch.zeros((), dtype=x.dtype, device=x.device)
    losses = []
    for _ in range(steps):
        error = x @ w + b - y
        losses.append(float((error ** 2).mean()))
        w = w - lr * 2 * x.T @ error / len(y)
        b = b - lr * 2 * error.mean()
    return w.detach(), b.detach(), torch.tensor(losses, dtype=torch.float32)   # x may require grad


# --- fit_with_sgd -----------------------------------------------------------------------------


def _column_mse(out, y):
    return F.mse_loss(out.squeeze(1), y)


def _sgd(model, x, y, lr, steps, loss_of=_column_mse, clear=True, floats=True):
    """The loop the contract asks for: SGD steps on the model, the gradients cleared first, the
    losses recorded as floats (in a list, for the variant to hand back as it does). Each option is
    one wrong line: ``loss_of`` another loss, ``clear=False`` never clears, ``floats=False`` records
    the loss tensors."""
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        if clear:
            optimizer.zero_grad()
        loss = loss_of(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item() if floats else loss)
    return losses


@wrong("fit_with_sgd", "(N, N)", "every prediction against every target")
def sgd_on_broadcast_shapes(model, x, y, lr, steps):
    return torch.tensor(_sgd(model, x, y, lr, steps, loss_of=F.mse_loss))      # (N, 1) against (N,)


@wrong("fit_with_sgd", "graph", "list of loss tensors")
def sgd_keeping_loss_tensors(model, x, y, lr, steps):
    return torch.stack(_sgd(model, x, y, lr, steps, floats=False)).detach()


@wrong("fit_with_sgd", "not cleared", "every step")
def sgd_never_clearing(model, x, y, lr, steps):
    return torch.tensor(_sgd(model, x, y, lr, steps, clear=False))


@right("fit_with_sgd")
def sgd_with_column_targets(model, x, y, lr, steps):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    target = y.reshape(-1, 1)
    losses = torch.empty(steps)
    for step in range(steps):
        loss = nn.MSELoss()(model(x), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses[step] = loss.detach().cpu()
    return losses


@right("fit_with_sgd")
def sgd_through_a_closure(model, x, y, lr, steps):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []

    def closure():
        optimizer.zero_grad()
        loss = ((model(x).view(-1) - y) ** 2).mean()
        loss.backward()
        return loss

    for _ in range(steps):
        losses.append(optimizer.step(closure).item())
    return torch.tensor(losses)


# --- procedures judged as procedures: the reference's own run is the measure -----------------


def _closed_form(x, y):
    design = torch.cat([x, torch.ones_like(x[:, :1])], dim=1)
    solution = torch.linalg.lstsq(design, y.unsqueeze(1)).solution.squeeze(1)
    return solution[:-1], solution[-1]


def _invented_losses(y, steps):
    """Falling numbers that start where the run starts (the mean of y ** 2): no step behind them."""
    return (y ** 2).mean().cpu().float() * 0.5 ** torch.arange(steps, dtype=torch.float32)


@wrong("fit_by_hand", "closed-form", "gradient descent")
def fit_in_closed_form_with_invented_losses(x, y, lr, steps):
    w, b = _closed_form(x, y)
    return w, b, _invented_losses(y, steps)


@wrong("fit_by_hand", "number of steps", "24 losses")
def fit_one_step_short(x, y, lr, steps):
    w, b, losses = _descend(x, y, lr, steps - 1)     # range(1, steps)
    return w.detach(), b.detach(), torch.tensor(losses)


@wrong("fit_by_hand", "update too many")
def fit_one_update_too_many(x, y, lr, steps):
    w, b = _zeros(x)
    losses = []
    for step in range(steps + 1):
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
        w.grad = b.grad = None
        if step < steps:
            losses.append(loss.item())
    return w.detach(), b.detach(), torch.tensor(losses)


@right("fit_by_hand")
def fit_by_hand_with_an_optimizer(x, y, lr, steps):
    w, b = _zeros(x)
    optimizer = torch.optim.SGD([w, b], lr=lr)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = F.mse_loss(x @ w + b, y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return w.detach(), b.detach(), torch.tensor(losses)


@wrong("fit_with_sgd", "closed-form", "made-up")
def sgd_in_closed_form_with_invented_losses(model, x, y, lr, steps):
    w, b = _closed_form(x, y)
    with torch.no_grad():
        losses = _invented_losses(y, steps)
        losses[0] = F.mse_loss(model(x).squeeze(1), y).item()
        model.weight.copy_(w.unsqueeze(0))
        model.bias.copy_(b.reshape(1))
    return losses


@wrong("fit_with_sgd", "after", "before")
def sgd_recording_the_loss_after_its_step(model, x, y, lr, steps):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        F.mse_loss(model(x).squeeze(1), y).backward()
        optimizer.step()
        with torch.no_grad():
            losses.append(F.mse_loss(model(x).squeeze(1), y).item())
    return torch.tensor(losses)


@wrong("fit_with_sgd", "number of steps")
def sgd_one_step_too_many(model, x, y, lr, steps):
    return torch.tensor(_sgd(model, x, y, lr, steps + 1))


@right("fit_with_sgd")
def sgd_written_by_hand(model, x, y, lr, steps):
    losses = []
    for _ in range(steps):
        loss = F.mse_loss(model(x).squeeze(1), y)
        trained = [p for p in model.parameters() if p.requires_grad]   # the caller may have frozen some
        grads = torch.autograd.grad(loss, trained)
        with torch.no_grad():
            for p, g in zip(trained, grads):
                p -= lr * g
        losses.append(loss.item())
    return torch.tensor(losses)


# --- the caller's states ---------------------------------------------------------------------


@wrong("fit_by_hand", "requires grad", "graph")
def fit_by_hand_keeping_the_data_graph(x, y, lr, steps):
    w = torch.zeros(x.shape[1], dtype=x.dtype, device=x.device)
    b = torch.zeros((), dtype=x.dtype, device=x.device)
    losses = []
    for _ in range(steps):
        error = x @ w + b - y
        losses.append(float((error ** 2).mean()))
        w = w - lr * 2 * x.T @ error / len(y)     # x requires grad: w now carries its graph
        b = b - lr * 2 * error.mean()
    return w, b, torch.tensor(losses)


@wrong("fit_with_sgd", "stale gradient", "adds")
def sgd_clearing_after_the_step(model, x, y, lr, steps):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        loss = F.mse_loss(model(x).squeeze(1), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    return torch.tensor(losses)


@wrong("fit_with_sgd", "frozen", "require grad")
def sgd_unfreezing_the_model(model, x, y, lr, steps):
    model.requires_grad_(True)
    return torch.tensor(_sgd(model, x, y, lr, steps))


@wrong("fit_with_sgd", "frozen", "no gradient")
def sgd_by_hand_over_every_parameter(model, x, y, lr, steps):
    losses = []
    for _ in range(steps):
        model.zero_grad()
        loss = F.mse_loss(model(x).squeeze(1), y)
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p -= lr * p.grad          # a frozen parameter has none: TypeError
        losses.append(loss.item())
    return torch.tensor(losses)


# --- the device pitfall, seen without a GPU ----------------------------------------------------


@wrong("least_squares", "default device", "Expected all tensors to be on the same device")
def least_squares_with_ones_on_the_cpu(x, y):
    design = torch.cat([x, torch.ones(x.shape[0], 1, dtype=x.dtype)], dim=1)     # no device=: the CPU
    solution = torch.linalg.lstsq(design, y.unsqueeze(1)).solution.squeeze(1)
    return solution[:-1], solution[-1]


@right("least_squares")
def least_squares_with_new_ones(x, y):
    design = torch.cat([x, x.new_ones(x.shape[0], 1)], dim=1)
    solution = torch.linalg.lstsq(design, y.unsqueeze(1)).solution.squeeze(1)
    return solution[:-1], solution[-1]


@right("least_squares")
def least_squares_with_ones_moved_to_x(x, y):
    design = torch.cat([x, torch.ones(len(x), 1).to(x)], dim=1)    # made on the CPU, then moved where x is
    solution = torch.linalg.lstsq(design, y.unsqueeze(1)).solution.squeeze(1)
    return solution[:-1], solution[-1]


@wrong("fit_by_hand", "default device", "Expected all tensors to be on the same device")
def fit_with_zeros_on_the_cpu(x, y, lr, steps):
    w = torch.zeros(x.shape[1], dtype=x.dtype, requires_grad=True)     # no device=: the CPU
    b = torch.zeros((), dtype=x.dtype, requires_grad=True)
    w, b, losses = _descend(x, y, lr, steps, w, b)
    return w.detach(), b.detach(), torch.tensor(losses)
