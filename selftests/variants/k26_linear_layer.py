"""Classic wrong answers and other correct idioms for k26_linear_layer."""

import torch
import torch.nn.functional as F
from torch import nn

from selftests.variants import right, wrong

# --- linear_forward ---------------------------------------------------------------------------


@wrong("linear_forward", "(out_features, in_features)", "wrong dimension")
def linear_without_transpose(x, weight, bias):
    return x @ weight + bias


@wrong("linear_forward", "bias")
def linear_without_bias(x, weight, bias):
    return x @ weight.T


@right("linear_forward")
def linear_by_functional(x, weight, bias):
    return F.linear(x, weight, bias)


@right("linear_forward")
def linear_by_addmm(x, weight, bias):
    return torch.addmm(bias, x, weight.t())


# --- linear_from ------------------------------------------------------------------------------


@wrong("linear_from", "(out_features, in_features)", "(1, D)")
def linear_from_column_weight(w, b):
    layer = nn.Linear(w.shape[0], 1, device=w.device, dtype=w.dtype)
    layer.weight = nn.Parameter(w.detach().clone().reshape(-1, 1))   # (D, 1): the shape of x @ w's w
    with torch.no_grad():
        layer.bias.copy_(b.reshape(1))
    return layer


@wrong("linear_from", "device", "default device")
def linear_from_on_the_default_device(w, b):
    layer = nn.Linear(w.shape[0], 1, dtype=w.dtype)
    with torch.no_grad():
        layer.weight.copy_(w.reshape(1, -1))
        layer.bias.copy_(b.reshape(1))
    return layer


@wrong("linear_from", "in_features", "out_features")
def linear_from_swapped_sizes(w, b):
    layer = nn.Linear(1, w.shape[0], device=w.device, dtype=w.dtype)
    with torch.no_grad():
        layer.weight.copy_(w.reshape(-1, 1))
        layer.bias.copy_(b)
    return layer


@right("linear_from")
def linear_from_new_parameters(w, b):
    layer = nn.Linear(len(w), 1).to(device=w.device, dtype=w.dtype)
    layer.weight = nn.Parameter(w.detach().clone().unsqueeze(0))
    layer.bias = nn.Parameter(b.detach().clone().reshape(1))
    return layer


@right("linear_from")
def linear_from_by_data(w, b):
    layer = nn.Linear(w.numel(), 1, bias=True, device=w.device, dtype=w.dtype)
    layer.weight.data = w.detach().clone().view(1, -1)
    layer.bias.data = b.detach().clone().view(1)
    return layer


@wrong("linear_from", "memory", "detach()")
def linear_from_sharing_ws_memory(w, b):
    layer = nn.Linear(w.shape[0], 1, device=w.device, dtype=w.dtype)
    layer.weight = nn.Parameter(w.detach().reshape(1, -1))   # detach() and reshape() copy nothing
    layer.bias = nn.Parameter(b.detach().reshape(1))
    return layer


@wrong("linear_from", "do not require grad", "history")
def linear_from_switching_the_flags_off(w, b):
    layer = nn.Linear(w.shape[0], 1, device=w.device, dtype=w.dtype)
    layer.requires_grad_(False)          # lets copy_ run, and leaves the layer untrainable
    layer.weight.copy_(w.reshape(1, -1))
    layer.bias.copy_(b.reshape(1))
    return layer


@right("linear_from")
def linear_from_state_dict(w, b):
    layer = nn.Linear(w.shape[0], 1, device=w.device, dtype=w.dtype)
    layer.load_state_dict({"weight": w.reshape(1, -1), "bias": b.reshape(1)})   # copies, without a graph
    return layer
