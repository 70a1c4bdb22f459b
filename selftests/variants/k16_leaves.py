"""Classic wrong answers and other correct idioms for k16_leaves."""

import torch

from selftests.variants import right, wrong


@wrong("trainable", "Only floating point tensors can require gradients")
def trainable_keeps_ints(values):
    return torch.tensor(values, requires_grad=True) if not isinstance(values, torch.Tensor) \
        else values.clone().requires_grad_()


@wrong("trainable", "caller's own tensor object", "t.float()")
def trainable_float_in_place(values):
    if isinstance(values, torch.Tensor):
        return values.float().requires_grad_()
    return torch.tensor(values, dtype=torch.float32, requires_grad=True)


@wrong("trainable", "caller's own tensor object", "torch.as_tensor")
def trainable_as_tensor_in_place(values):
    return torch.as_tensor(values, dtype=torch.float32).requires_grad_()


@wrong("trainable", "shares memory", "real copy")
def trainable_detached_view(values):
    if isinstance(values, torch.Tensor):
        return values.detach().float().requires_grad_()
    return torch.tensor(values, dtype=torch.float32, requires_grad=True)


@wrong("trainable", "device")
def trainable_via_list(values):
    data = values.tolist() if isinstance(values, torch.Tensor) else values
    return torch.tensor(data, dtype=torch.float32, requires_grad=True)


@right("trainable")
def trainable_reference_style(values):
    if isinstance(values, torch.Tensor):
        return values.detach().to(torch.float32, copy=True).requires_grad_(True)
    return torch.tensor(values, dtype=torch.float32, requires_grad=True)


@right("trainable")
def trainable_as_tensor_clone(values):
    t = torch.as_tensor(values).detach().clone().float()
    t.requires_grad = True
    return t


@right("trainable")
def trainable_parameter(values):
    t = values.detach().clone() if isinstance(values, torch.Tensor) else torch.tensor(values)
    return torch.nn.Parameter(t.to(torch.float32))


@wrong("init_weight", "not a leaf", "switch gradients on, on the result")
def init_weight_not_leaf(shape, std, seed):
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(shape, generator=generator, requires_grad=True) * std


@wrong("init_weight", "generator")
def init_weight_global_rng(shape, std, seed):
    return (torch.randn(shape) * std).requires_grad_()


@wrong("init_weight", "global generator", "torch.Generator", "generator=")
def init_weight_global_seed(shape, std, seed):
    torch.manual_seed(seed)         # the right values, and everybody's generator reseeded
    return (torch.randn(shape) * std).requires_grad_()


@right("init_weight")
def init_weight_scale_then_flag(shape, std, seed):
    w = torch.randn(shape, generator=torch.Generator().manual_seed(seed))
    w.mul_(std)
    w.requires_grad = True
    return w


@right("init_weight")
def init_weight_parameter(shape, std, seed):
    return torch.nn.Parameter(torch.randn(shape, generator=torch.Generator().manual_seed(seed)) * std)
