"""Classic wrong answers and other correct idioms for k10_reshape."""

import torch

from selftests.variants import right, wrong


@wrong("flat_copy", "shares memory", "view whenever", "Copy explicitly")
def flat_reshape(x):
    return x.reshape(-1)


@wrong("flat_copy", "flatten() returns x itself", "Copy explicitly")
def flat_flatten(x):
    return x.flatten()


@wrong("flat_copy", "contiguous()", "Copy explicitly")
def flat_contiguous_view(x):
    return x.contiguous().view(-1)


@wrong("flat_copy", "viewing the copy raises too")
def flat_clone_then_view(x):
    return x.clone().view(-1)


@right("flat_copy")
def flat_flatten_clone(x):
    return torch.flatten(x).clone()


@right("flat_copy")
def flat_clone_then_reshape(x):
    return x.clone().reshape(-1)


@right("flat_copy")
def flat_contiguous_copy(x):
    return x.contiguous().view(-1).clone()


@right("flat_copy")
def flat_new_memory(x):
    out = torch.empty(x.numel(), dtype=x.dtype, device=x.device)
    out.copy_(x.reshape(-1))
    return out


@wrong("zero_flat_", "transposed", "COPY", "two index tensors")
def zero_flat_through_reshape(x, positions):
    x.reshape(-1)[positions] = 0


@wrong("zero_flat_", "0 * inf", "NaN", "assign 0")
def zero_flat_times_mask(x, positions):
    keep = torch.ones(x.numel(), dtype=x.dtype)
    keep[positions] = 0
    x.mul_(keep.view(x.shape))     # 0 * inf is nan


@wrong("zero_flat_", "view size is not compatible")
def zero_flat_through_view(x, positions):
    x.view(-1)[positions] = 0


@wrong("zero_flat_", "COPY")
def zero_flat_through_flatten(x, positions):
    x.flatten()[positions] = 0


@right("zero_flat_")
def zero_flat_unravel(x, positions):
    if positions:
        x[torch.unravel_index(torch.tensor(positions), x.shape)] = 0


@right("zero_flat_")
def zero_flat_one_by_one(x, positions):
    for p in positions:
        row, col = divmod(p, x.shape[1])
        x[row, col] = 0


@right("zero_flat_")
def zero_flat_copy_back(x, positions):
    flat = x.reshape(-1).clone()
    flat[positions] = 0
    x.copy_(flat.reshape(x.shape))
