"""Classic wrong answers and other correct idioms for k34_module_calls."""

import contextlib
import copy
import io

import torch
from torch import nn

from selftests.variants import right, wrong

# --- layer_outputs ----------------------------------------------------------------------------


def _capture(model, x, call, detached=True, remove=True):
    """Each child's output, caught by a forward hook while ``call(x)`` runs: as the contract asks,
    detached and under no_grad, the hooks removed afterwards. Each option is one wrong line:
    ``detached=False`` keeps the outputs as they come (no no_grad either), ``remove=False`` leaves
    the hooks on the caller's model."""
    outputs = {}
    handles = [child.register_forward_hook(
        lambda _m, _a, out, name=name: outputs.__setitem__(name, out.detach() if detached else out))
        for name, child in model.named_children()]
    with torch.no_grad() if detached else contextlib.nullcontext():
        call(x)
    if remove:
        for handle in handles:
            handle.remove()
    return outputs


@wrong("layer_outputs", "hook", "model(x)")
def calls_forward_directly(model, x):
    return _capture(model, x, model.forward)   # the caller's pre-hook never runs


@wrong("layer_outputs", "hook", "model(x)")
def calls_each_child_by_hand(model, x):
    outputs = {}
    with torch.no_grad():
        for name, child in model.named_children():
            x = child.forward(x)
            outputs[name] = x
    return outputs


@wrong("layer_outputs", "hooks", "removes it")
def never_removes_its_hooks(model, x):
    return _capture(model, x, model, remove=False)


@wrong("layer_outputs", "require grad", "graph")
def keeps_the_graph(model, x):
    return _capture(model, x, model, detached=False)


@right("layer_outputs")
def hooks_in_a_context_manager(model, x):
    outputs = {}

    def keep(name):
        def hook(_module, _args, output):
            outputs[name] = output.detach().clone()
        return hook

    handles = []
    try:
        for name, child in model.named_children():
            handles.append(child.register_forward_hook(keep(name)))
        with torch.inference_mode():
            model(x)
    finally:
        for handle in handles:
            handle.remove()
    return dict(outputs)


@right("layer_outputs")
def detaches_after_the_call(model, x):
    kept = []
    handles = [child.register_forward_hook(lambda _m, _a, out, name=name: kept.append((name, out)))
               for name, child in model.named_children()]
    model(x)
    for handle in handles:
        handle.remove()
    return {name: out.detach() for name, out in kept}


# --- scaler_module ----------------------------------------------------------------------------


class _ParameterScaler(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.mean = nn.Parameter(mean.clone())   # an optimizer would train these
        self.std = nn.Parameter(std.clone())

    def forward(self, x):
        return (x - self.mean) / self.std


class _AttributeScaler(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.mean = mean.clone()   # neither saved nor moved
        self.std = std.clone()

    def forward(self, x):
        return (x - self.mean) / self.std


class _TransientScaler(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.register_buffer("mean", mean.clone(), persistent=False)
        self.register_buffer("std", std.clone(), persistent=False)

    def forward(self, x):
        return (x - self.mean) / self.std


@wrong("scaler_module", "nn.Parameter", "optimizer")
def statistics_as_parameters(mean, std):
    return _ParameterScaler(mean, std)


@wrong("scaler_module", "plain tensor attributes", "state_dict()")
def statistics_as_attributes(mean, std):
    return _AttributeScaler(mean, std)


@wrong("scaler_module", "not persistent", "never saved")
def statistics_never_saved(mean, std):
    return _TransientScaler(mean, std)


class _Named(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.register_buffer("centre", torch.as_tensor(mean).clone())
        self.register_buffer("spread", torch.as_tensor(std).clone())

    def forward(self, x):
        return x.sub(self.centre).div(self.spread)


@right("scaler_module")
def statistics_with_other_names(mean, std):
    return _Named(mean, std)


class _Reciprocal(nn.Module):
    mean: torch.Tensor
    std: torch.Tensor

    def __init__(self, mean, std):
        super().__init__()
        self.register_buffer("mean", mean.clone(), persistent=True)
        self.register_buffer("std", std.clone(), persistent=True)

    def forward(self, x):
        return (x - self.mean) * self.std.reciprocal()


@right("scaler_module")
def statistics_times_the_reciprocal(mean, std):
    return _Reciprocal(mean, std)


# --- deployed_copy ----------------------------------------------------------------------------


@wrong("deployed_copy", "caller's model", "model.to(device)")
def moves_the_callers_model(model, device):
    return model.to(device).eval()


@wrong("deployed_copy", "evaluation mode", "dropout")
def copy_left_in_training_mode(model, device):
    return copy.deepcopy(model).to(device)


@wrong("deployed_copy", "caller's model", "eval()")
def shallow_copy(model, device):
    return copy.copy(model).eval().to(device)   # shares its submodules with the caller's model


@right("deployed_copy")
def copy_by_state_dict(model, device):
    served = copy.deepcopy(model)
    served.load_state_dict(model.state_dict())
    served.train(False)
    return served.to(device=device)


@right("deployed_copy")
def copy_through_a_buffer(model, device):
    stream = io.BytesIO()
    torch.save(model, stream)
    stream.seek(0)
    served = torch.load(stream, map_location=device, weights_only=False)
    served.eval()
    return served


@wrong("layer_outputs", "autograd off", "left it off")
def switches_autograd_off_for_good(model, x):
    torch.set_grad_enabled(False)   # a global switch, never switched back on
    return _capture(model, x, model, detached=False)


@wrong("layer_outputs", "caller's model", "require grad")
def freezes_the_callers_model(model, x):
    for p in model.parameters():
        p.requires_grad_(False)   # "no graph", bought by freezing the caller's model
    return _capture(model, x, model, detached=False)


@wrong("deployed_copy", "caller's model", "require grad")
def freezes_the_callers_model_too(model, device):
    for p in model.parameters():
        p.requires_grad_(False)
    return copy.deepcopy(model).to(device).eval()


@right("deployed_copy")
def frozen_copy(model, device):
    served = copy.deepcopy(model).to(device).eval()
    served.requires_grad_(False)   # the copy only serves: its parameters need no gradient
    return served
