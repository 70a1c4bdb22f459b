"""Classic wrong answers and other correct idioms for k33_modules."""

import numpy as np
import torch
from torch import nn

from selftests.variants import right, wrong

# --- stacked_layers ---------------------------------------------------------------------------


class _ListHolder(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = layers   # a plain list: nn.Module never sees these layers


@wrong("stacked_layers", "Python list", "nn.Module")
def layers_in_a_python_list(sizes, device):
    return _ListHolder([nn.Linear(a, b, device=device) for a, b in zip(sizes, sizes[1:])])


@wrong("stacked_layers", "device")
def layers_on_the_default_device(sizes, device):
    return nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))


@right("stacked_layers")
def layers_in_a_sequential(sizes, device):
    return nn.Sequential(*(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))).to(device)


class _Attributes(nn.Module):
    def __init__(self, sizes, device):
        super().__init__()
        for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
            setattr(self, f"fc{i}", nn.Linear(a, b, device=device))


@right("stacked_layers")
def layers_as_attributes(sizes, device):
    return _Attributes(sizes, device)


# --- count_parameters -------------------------------------------------------------------------


@wrong("count_parameters", "counts tensors", "elements")
def count_the_tensors(model, trainable_only=False):
    return len([p for p in model.parameters() if p.requires_grad or not trainable_only])


@wrong("count_parameters", "frozen", "requires_grad")
def count_frozen_ones_too(model, trainable_only=False):
    return sum(p.numel() for p in model.parameters())


@right("count_parameters")
def count_from_the_state_dict(model, trainable_only=False):
    params = dict(model.named_parameters())
    return sum(int(t.numel()) for name, t in params.items() if not trainable_only or t.requires_grad)


@right("count_parameters")
def count_by_shape_products(model, trainable_only=False):
    total = 0
    for p in model.parameters():
        if trainable_only and not p.requires_grad:
            continue
        size = 1
        for dim in p.shape:
            size *= dim
        total += size
    return total


# --- found by the audit of lesson 3's k33 ------------------------------------------------------


class _Holder(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = layers   # a dict or a tuple: no more a container nn.Module looks into than a list


@wrong("stacked_layers", "Python list", "nn.Module")
def layers_in_a_python_dict(sizes, device):
    return _Holder({f"fc{i}": nn.Linear(a, b, device=device) for i, (a, b) in enumerate(zip(sizes, sizes[1:]))})


@wrong("stacked_layers", "default device", "set_default_device")
def sets_the_default_device(sizes, device):
    torch.set_default_device(device)   # and never back: the caller's next tensors land there too
    return nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))


@right("stacked_layers")
def under_a_device_context(sizes, device):
    with torch.device(device):   # the default device for this block only
        return nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))


@right("stacked_layers")
def a_network_with_activations(sizes, device):
    layers = []
    for a, b in zip(sizes, sizes[1:]):
        layers += [nn.Linear(a, b, device=device), nn.ReLU()]
    return nn.Sequential(*layers[:-1])   # the ReLUs own no parameter


@right("stacked_layers")
def layers_in_a_module_dict(sizes, device):
    return nn.ModuleDict({f"layer{i}": nn.Linear(a, b, device=device) for i, (a, b) in enumerate(zip(sizes, sizes[1:]))})


@wrong("count_parameters", "buffers", "state_dict")
def counts_the_state_dict(model, trainable_only=False):
    if trainable_only:
        return sum(p.numel() for p in model.parameters() if p.requires_grad)
    return sum(t.numel() for t in model.state_dict().values())


@wrong("count_parameters", "tied weights", "twice")
def counts_shared_parameters_twice(model, trainable_only=False):
    return sum(p.numel() for _, p in model.named_parameters(remove_duplicate=False)
               if p.requires_grad or not trainable_only)


@wrong("count_parameters", "frozen ones too")
def always_leaves_frozen_ones_out(model, trainable_only=False):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


@wrong("count_parameters", "requires_grad alone", "a gradient appears only")
def counts_those_with_a_grad(model, trainable_only=False):
    return sum(p.numel() for p in model.parameters() if not trainable_only or p.grad is not None)


@wrong("count_parameters", "Python int")
def sums_numpy_products(model, trainable_only=False):
    return sum(np.prod(p.size()) for p in model.parameters() if p.requires_grad or not trainable_only)


@right("count_parameters")
def sums_numpy_products_as_an_int(model, trainable_only=False):
    return int(sum(np.prod(p.size()) for p in model.parameters() if p.requires_grad or not trainable_only))


@right("count_parameters")
def counts_per_submodule(model, trainable_only=False):
    # model.modules() yields a shared layer once, so its parameters are counted once
    return sum(p.numel() for m in model.modules() for p in m.parameters(recurse=False)
               if p.requires_grad or not trainable_only)


@right("count_parameters")
def flattens_them_into_one_vector(model, trainable_only=False):
    params = [p for p in model.parameters() if p.requires_grad or not trainable_only]
    return nn.utils.parameters_to_vector(params).numel() if params else 0
