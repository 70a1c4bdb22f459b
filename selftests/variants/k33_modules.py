"""Classic wrong answers and other correct idioms for k33_modules."""

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
