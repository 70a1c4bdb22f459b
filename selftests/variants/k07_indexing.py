"""Classic wrong answers and other correct idioms for k07_indexing."""

import torch

from selftests.variants import right, wrong

# --- row_window -------------------------------------------------------------------------------


@wrong("row_window", "copy", "start:stop slice")
def window_by_row_list(x, start, stop):
    return x[list(range(start, stop))]


@wrong("row_window", "copy", "start:stop slice")
def window_by_arange(x, start, stop):
    return x[torch.arange(start, stop, device=x.device)]


@wrong("row_window", "index_select", "view")
def window_index_select(x, start, stop):
    return x.index_select(0, torch.arange(start, stop, device=x.device))


@wrong("row_window", ".clone()", "view")
def window_cloned(x, start, stop):
    return x[start:stop].clone()


@right("row_window")
def window_slice(x, start, stop):
    return x[start:stop, ...]


@right("row_window")
def window_narrow(x, start, stop):
    return x.narrow(0, start, stop - start)


@right("row_window")
def window_split(x, start, stop):
    return torch.split(x, [start, stop - start, x.shape[0] - stop])[1]


# --- zero_rows_ -------------------------------------------------------------------------------


@wrong("zero_rows_", "COPY", "assign through the index")
def zero_rows_on_copy(x, rows):
    x[rows].zero_()


@wrong("zero_rows_", "advanced indexing", "assign through the index")
def zero_rows_through_name(x, rows):
    picked = x[rows]
    picked[:] = 0


@wrong("zero_rows_", "0 * inf", "NaN", "assign")
def zero_rows_times_mask(x, rows):
    keep = torch.ones(x.shape[0], dtype=x.dtype)
    keep[rows] = 0
    x.mul_(keep.reshape(-1, *[1] * (x.dim() - 1)))   # 0 * inf is nan


@wrong("zero_rows_", "returns None")
def zero_rows_returned(x, rows):
    y = x.clone()
    y[rows] = 0
    return y


@right("zero_rows_")
def zero_rows_index_fill(x, rows):
    x.index_fill_(0, torch.tensor(rows, dtype=torch.long, device=x.device), 0)


@right("zero_rows_")
def zero_rows_one_by_one(x, rows):
    for r in rows:
        x[r].zero_()          # x[r] with an int is basic indexing: a view


@wrong("zero_rows_", "0 * inf", "NaN")
def zero_rows_times_zero(x, rows):
    x[rows] *= 0              # writes into x, but 0 * inf is nan


# --- scale_selected_ ----------------------------------------------------------------------------


@wrong("scale_selected_", "bmi[mask]", "assignment through the index")
def scale_copy_in_place(x, mask, factor):
    x[mask].mul_(factor)


@wrong("scale_selected_", "NEW tensor", "assignment through the index")
def scale_named_copy(x, mask, factor):
    selected = x[mask]
    selected *= factor


@wrong("scale_selected_", "inf", "NaN", "only the selected elements")
def scale_by_masked_difference(x, mask, factor):
    x += x * mask * (factor - 1)   # touches every element: inf * 0 is nan


@wrong("scale_selected_", "returns None", "leaves x as it was")
def scale_returns_new(x, mask, factor):
    return torch.where(mask, x * factor, x)


@right("scale_selected_")
def scale_augmented(x, mask, factor):
    x[mask] *= factor


@right("scale_selected_")
def scale_by_where(x, mask, factor):
    x.mul_(torch.where(mask, factor, 1.0).to(x.dtype))


@right("scale_selected_")
def scale_copy_back(x, mask, factor):
    x.copy_(torch.where(mask, x * factor, x))


@right("scale_selected_")
def scale_masked_scatter(x, mask, factor):
    x.masked_scatter_(mask, x[mask] * factor)
