"""Classic wrong answers and other correct idioms for k05_devices."""

from collections.abc import Mapping, Sequence

import torch
from torch.utils._pytree import tree_map

from selftests.variants import right, wrong

# --- add_bias --------------------------------------------------------------------------------

@wrong("add_bias", "same device", "x's device")
def add_bias_plain(x, bias):
    return x + bias


@wrong("add_bias", "not in place")
def add_bias_to_not_assigned(x, bias):
    bias.to(x.device)          # returns the moved tensor, which is thrown away
    return x + bias


@wrong("add_bias", "do not move x to the CPU")
def add_bias_moves_x(x, bias):
    return x.to(bias.device) + bias


@wrong("add_bias", "changed an input", "x.add_")
def add_bias_in_place(x, bias):
    return x.add_(bias.to(x.device))


@right("add_bias")
def add_bias_to_other(x, bias):
    return x + bias.to(x)


@right("add_bias")
def add_bias_torch_add(x, bias):
    return torch.add(x, bias.to(device=x.device))


@right("add_bias")
def add_bias_reassigned(x, bias):
    if bias.device != x.device:
        bias = bias.to(x.device)
    return bias + x


# --- to_device -------------------------------------------------------------------------------

@wrong("to_device", "only handles a bare tensor", "recurse")
def to_device_tutorial(batch, device):
    if isinstance(batch, torch.Tensor):
        return batch.to(device)
    return batch


@wrong("to_device", "not moved", "tuple")
def to_device_dicts_and_lists_only(batch, device):
    if isinstance(batch, torch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return {k: to_device_dicts_and_lists_only(v, device) for k, v in batch.items()}
    if isinstance(batch, list):
        return [to_device_dicts_and_lists_only(v, device) for v in batch]
    return batch


@wrong("to_device", "namedtuple", "separate arguments")
def to_device_namedtuple_from_generator(batch, device):
    if isinstance(batch, torch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return {k: to_device_namedtuple_from_generator(v, device) for k, v in batch.items()}
    if isinstance(batch, (list, tuple)):
        return type(batch)(to_device_namedtuple_from_generator(v, device) for v in batch)
    return batch


@wrong("to_device", "container types", "tuple must stay a tuple")
def to_device_tuples_become_lists(batch, device):
    if isinstance(batch, torch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return {k: to_device_tuples_become_lists(v, device) for k, v in batch.items()}
    if isinstance(batch, (list, tuple)):
        return [to_device_tuples_become_lists(v, device) for v in batch]
    return batch


@wrong("to_device", "namedtuple class")
def to_device_namedtuples_become_tuples(batch, device):
    if isinstance(batch, torch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return {k: to_device_namedtuples_become_tuples(v, device) for k, v in batch.items()}
    if isinstance(batch, list):
        return [to_device_namedtuples_become_tuples(v, device) for v in batch]
    if isinstance(batch, tuple):
        return tuple(to_device_namedtuples_become_tuples(v, device) for v in batch)
    return batch


@wrong("to_device", "a str is a sequence too", "recurses forever")
def to_device_generic_sequence(batch, device):
    if isinstance(batch, torch.Tensor):
        return batch.to(device)
    if isinstance(batch, Mapping):
        return {k: to_device_generic_sequence(v, device) for k, v in batch.items()}
    if isinstance(batch, Sequence):
        items = [to_device_generic_sequence(v, device) for v in batch]
        return type(batch)(*items) if hasattr(batch, "_fields") else type(batch)(items)
    return batch


@wrong("to_device", "caller's batch", "new containers")
def to_device_in_place(batch, device):
    if isinstance(batch, torch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        for key in batch:
            batch[key] = to_device_in_place(batch[key], device)
        return batch
    if isinstance(batch, list):
        for i, value in enumerate(batch):
            batch[i] = to_device_in_place(value, device)
        return batch
    if isinstance(batch, tuple):
        items = [to_device_in_place(v, device) for v in batch]
        return type(batch)(*items) if hasattr(batch, "_fields") else tuple(items)
    return batch


@right("to_device")
def to_device_pytree(batch, device):
    return tree_map(lambda leaf: leaf.to(device) if isinstance(leaf, torch.Tensor) else leaf, batch)


@right("to_device")
def to_device_make(batch, device):
    def move(obj):
        if torch.is_tensor(obj):
            return obj.to(device=device)
        if type(obj) is dict:
            return {key: move(value) for key, value in obj.items()}
        if type(obj) is list:
            return list(map(move, obj))
        if hasattr(obj, "_make"):
            return obj._make(map(move, obj))
        if type(obj) is tuple:
            return tuple(map(move, obj))
        return obj
    return move(batch)


@right("to_device")
def to_device_match(batch, device):
    match batch:
        case torch.Tensor():
            return batch.to(device)
        case dict():
            return {k: to_device_match(v, device) for k, v in batch.items()}
        case list():
            return [to_device_match(v, device) for v in batch]
        case tuple() if hasattr(batch, "_fields"):
            return type(batch)(**{f: to_device_match(getattr(batch, f), device) for f in batch._fields})
        case tuple():
            return tuple(to_device_match(v, device) for v in batch)
        case _:
            return batch


# --- run_model -------------------------------------------------------------------------------

@wrong("run_model", "meta", "device of the model's parameters")   # silent on meta in 2.13: device; where it raises: raises
def run_model_plain(model, x):
    return model(x)


@wrong("run_model", "no parameters", "default")
def run_model_first_parameter(model, x):
    return model(x.to(next(model.parameters()).device))


@wrong("run_model", "back to the CPU")
def run_model_result_to_cpu(model, x):
    return model(x.to(next(model.parameters()).device)).cpu() if list(model.parameters()) else model(x)


@wrong("run_model", "x's own device")
def run_model_guessed_device(model, x):
    params = list(model.parameters())
    device = params[0].device if params else torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return model(x.to(device))


@right("run_model")
def run_model_list_of_params(model, x):
    params = list(model.parameters())
    return model(x.to(params[0].device)) if params else model(x)


@right("run_model")
def run_model_loop(model, x):
    for p in model.parameters():
        return model(x.to(p.device))
    return model(x)


@right("run_model")
def run_model_try_next(model, x):
    try:
        device = next(iter(model.parameters())).device
    except StopIteration:
        device = x.device
    return model.forward(x.to(device))
