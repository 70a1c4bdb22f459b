"""Classic wrong answers and other correct idioms for k06_clone_view."""

import copy

import torch

from selftests.variants import right, wrong


@wrong("zero_first_row", "y = x only gives the same tensor a second name", "made a copy")
def zero_row_alias(x):
    y = x
    y[0] = 0
    return y


@wrong("zero_first_row", "views of the same memory", "made a copy")
def zero_row_slice(x):
    y = x[:]
    y[0] = 0
    return y


@wrong("zero_first_row", "x.detach()", "made a copy")
def zero_row_detached(x):
    y = x.detach()
    y[0].zero_()
    return y


@wrong("zero_first_row", "changed the caller's x")
def zero_row_contiguous(x):
    y = x.contiguous()      # a copy only when x is not contiguous
    y[0] = 0
    return y


@wrong("zero_first_row", "shares memory", "real copy")
def zero_row_skip_when_zero(x):
    if (x[0] == 0).all():
        return x            # "nothing to do": but the caller now holds the same tensor twice
    y = x.clone()
    y[0] = 0
    return y


@wrong("zero_first_row", "0 * inf", "NaN", "assign 0")
def zero_row_times_mask(x):
    mask = torch.ones_like(x)
    mask[0] = 0
    return x * mask                # 0 * inf is nan


@right("zero_first_row")
def zero_row_cat(x):
    return torch.cat([torch.zeros_like(x[:1]), x[1:]])


@right("zero_first_row")
def zero_row_index_fill(x):
    return x.index_fill(0, torch.tensor([0]), 0)


@right("zero_first_row")
def zero_row_where(x):
    rows = torch.arange(x.shape[0]).unsqueeze(1)
    return torch.where(rows == 0, torch.zeros_like(x), x)


@right("zero_first_row")
def zero_row_deepcopy(x):
    y = copy.deepcopy(x)
    y[0].fill_(0)
    return y


@wrong("zero_column_", "a clone of the column", "through a view")
def zero_column_of_clone(x, j):
    column = x[:, j].clone()
    column.zero_()


@wrong("zero_column_", "rebinds a local name", "through a view")
def zero_column_rebind(x, j):
    x = x.clone()
    x[:, j] = 0


@wrong("zero_column_", "rebinds a local name")
def zero_column_rebind_where(x, j):
    mask = torch.arange(x.shape[1]) == (j % x.shape[1])
    x = torch.where(mask, torch.zeros_like(x), x)


@wrong("zero_column_", "returns None", "no return x")
def zero_column_returns_x(x, j):
    x[:, j] = 0
    return x


@wrong("zero_column_", "non-contiguous", "x.contiguous()")
def zero_column_through_contiguous(x, j):
    x.contiguous()[:, j] = 0


@wrong("zero_column_", "non-contiguous", "x.view(...) raises")
def zero_column_through_flat_view(x, j):
    rows, cols = x.shape
    x.view(-1)[j % cols::cols] = 0


@wrong("zero_column_", "0 * inf", "NaN", "assign 0")
def zero_column_times_mask(x, j):
    keep = torch.arange(x.shape[1]) != j % x.shape[1]
    x.mul_(keep.to(x.dtype))       # 0 * nan is nan


@right("zero_column_")
def zero_column_zero_(x, j):
    x[:, j].zero_()


@right("zero_column_")
def zero_column_index_fill_(x, j):
    x.index_fill_(1, torch.tensor([j % x.shape[1]]), 0)


@right("zero_column_")
def zero_column_transposed_row(x, j):
    x.T[j] = 0


@right("zero_column_")
def zero_column_select_fill(x, j):
    x.select(1, j).fill_(0)


@wrong("clipped", "clamp_", "in place")
def clipped_in_place(x, limit):
    return x.clamp_(-limit, limit)


@wrong("clipped", "changed the caller's x", "x[x > limit] = limit")
def clipped_by_assignment(x, limit):
    x[x > limit] = limit
    x[x < -limit] = -limit
    return x


@wrong("clipped", "shares memory", "when nothing needed clipping")
def clipped_skip_when_inside(x, limit):
    if x.abs().max() <= limit:
        return x
    return x.clamp(-limit, limit)


@right("clipped")
def clipped_torch_clip(x, limit):
    return torch.clip(x, min=-limit, max=limit)


@right("clipped")
def clipped_clone_then_clamp_(x, limit):
    return x.clone().clamp_(-limit, limit)


@right("clipped")
def clipped_min_max(x, limit):
    return torch.minimum(torch.maximum(x, torch.full_like(x, -limit)), torch.full_like(x, limit))


@right("clipped")
def clipped_where(x, limit):
    return torch.where(x > limit, limit, torch.where(x < -limit, -limit, x))


@wrong("snapshot", "x.detach()", "shares memory", "real copy")
def snapshot_detach(x):
    return x.detach()


@wrong("snapshot", "x.data", "real copy")
def snapshot_data(x):
    return x.data


@wrong("snapshot", "requires grad", "copies the data but stays in the autograd graph")
def snapshot_clone(x):
    return x.clone()


@wrong("snapshot", "requires_grad = False", "detach()")
def snapshot_switch_grad_off(x):
    x.requires_grad_(False)
    return x.clone()


@wrong("snapshot", "another dtype", "Python numbers", "copies the tensor itself")
def snapshot_rebuilt_from_numbers(x):
    return torch.tensor(x.tolist())   # float64 comes back float32


@right("snapshot")
def snapshot_clone_then_detach(x):
    return x.clone().detach()


@right("snapshot")
def snapshot_no_grad_clone(x):
    with torch.no_grad():
        return x.clone()


@right("snapshot")
def snapshot_empty_copy(x):
    out = torch.empty_like(x, requires_grad=False)
    out.copy_(x.detach())
    return out


@right("snapshot")
def snapshot_from_list(x):
    return torch.tensor(x.tolist(), dtype=x.dtype, device=x.device)

