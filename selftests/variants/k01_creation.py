"""Classic wrong answers and other correct idioms for k01_creation."""

import torch

from selftests.variants import right, wrong


@wrong("arange_inclusive", "stops BEFORE its stop", "past end")
def arange_exclusive(start, end, step=1):
    return torch.arange(start, end, step)


@wrong("arange_inclusive", "overshoots", "less than one step")
def arange_one_step_past(start, end, step=1):
    return torch.arange(start, end + step, step)   # overshoots when end is not reachable


@right("arange_inclusive")
def arange_plus_one(start, end, step=1):
    return torch.arange(start, end + 1, step)


@right("arange_inclusive")
def arange_from_range(start, end, step=1):
    return torch.tensor(list(range(start, end + 1, step)), dtype=torch.int64)


@wrong("evenly_spaced", "arange", "told the number of points")
def evenly_spaced_by_step(start, end, count):
    return torch.arange(start, end, (end - start) / (count - 1))


@wrong("evenly_spaced", "end + step", "ceiling", "told the count")
def evenly_spaced_one_step_past(start, end, count):
    step = (end - start) / (count - 1)
    return torch.arange(start, end + step, step)   # one point too many where rounding pushes the count up


@right("evenly_spaced")
def evenly_spaced_linspace(start, end, count):
    return torch.linspace(start, end, count)


@right("evenly_spaced")
def evenly_spaced_by_hand(start, end, count):
    steps = torch.arange(count, dtype=torch.float64) / (count - 1)
    return (start + (end - start) * steps).float()


@wrong("filled", "int64", "say the dtype yourself")
def filled_inferred(shape, value):
    return torch.full(shape, value)


@wrong("filled", "stride 0", "setting one element changed them all", "creation function")
def filled_expanded(shape, value):
    return torch.tensor(value, dtype=torch.float32).expand(shape)   # one number seen at every position


@right("filled")
def filled_full(shape, value):
    return torch.full(shape, value, dtype=torch.float32)


@right("filled")
def filled_ones_times(shape, value):
    return torch.ones(shape) * value


@right("filled")
def filled_empty_fill(shape, value):
    return torch.empty(shape).fill_(value)


@wrong("mask_like", "default device", "x's device")
def mask_default_device(x):
    return torch.zeros(x.shape, dtype=torch.bool)


@wrong("mask_like", "bool", "float32")
def mask_float(x):
    return torch.zeros_like(x)


@wrong("mask_like", "NaN is not equal to itself", "shape and device")
def mask_from_values(x):
    return x != x   # True wherever x is NaN


@right("mask_like")
def mask_zeros_like(x):
    return torch.zeros_like(x, dtype=torch.bool)


@right("mask_like")
def mask_full_with_device(x):
    return torch.full(x.shape, False, device=x.device)


@right("filled")
def filled_expanded_then_copied(shape, value):
    return torch.tensor(float(value)).expand(shape).clone()   # the copy has memory of its own
