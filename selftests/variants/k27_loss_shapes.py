"""Classic wrong answers and other correct idioms for k27_loss_shapes."""

import torch
import torch.nn.functional as F

from selftests.variants import right, wrong

# --- regression_loss --------------------------------------------------------------------------


@wrong("regression_loss", "(N, N)", "every prediction compared with every target")
def loss_broadcast_to_a_matrix(model, x, y):
    return F.mse_loss(model(x), y)          # (N, 1) against (N,): every prediction against every target


@wrong("regression_loss", "(N, N)")
def loss_by_hand_broadcast(model, x, y):
    return ((model(x) - y) ** 2).mean()


@wrong("regression_loss", "graph", "number taken out of the loss")
def loss_as_a_number(model, x, y):
    return torch.tensor(F.mse_loss(model(x).squeeze(1), y).item())


@right("regression_loss")
def loss_with_a_column_target(model, x, y):
    return F.mse_loss(model(x), y.unsqueeze(1))


@right("regression_loss")
def loss_with_flattened_output(model, x, y):
    return ((model(x).view(-1) - y) ** 2).mean()


# --- as_regression_data -----------------------------------------------------------------------


@wrong("as_regression_data", "(N, 1)", "nn.Linear")
def data_with_flat_targets(features, targets):
    return torch.tensor(features, dtype=torch.float32), torch.tensor(targets, dtype=torch.float32)


@wrong("as_regression_data", "data", "requires_grad")
def data_requiring_grad(features, targets):
    x = torch.tensor(features, dtype=torch.float32, requires_grad=True)
    y = torch.tensor(targets, dtype=torch.float32, requires_grad=True).reshape(-1, 1)
    return x, y


@wrong("as_regression_data", "float32")
def data_of_whatever_dtype(features, targets):
    return torch.tensor(features), torch.tensor(targets).unsqueeze(1)


@right("as_regression_data")
def data_by_as_tensor(features, targets):
    return torch.as_tensor(features).float(), torch.as_tensor(targets).float().view(-1, 1)


@right("as_regression_data")
def data_by_rows(features, targets):
    x = torch.stack([torch.tensor(row, dtype=torch.float32) for row in features])
    return x, torch.tensor([[float(t)] for t in targets])


@wrong("regression_loss", "caller's model", "mode")
def loss_in_training_mode(model, x, y):
    model.train()                      # "the training loss": but the caller's model was in eval mode
    return F.mse_loss(model(x).squeeze(1), y)


@wrong("regression_loss", "caller's model", ".grad")
def loss_clearing_the_gradients(model, x, y):
    model.zero_grad()                  # "a clean start": the caller may be accumulating gradients
    return F.mse_loss(model(x).squeeze(1), y)
