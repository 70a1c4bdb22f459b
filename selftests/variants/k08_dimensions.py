"""Classic wrong answers and other correct idioms for k08_dimensions."""

import torch

from selftests.variants import right, wrong


@wrong("sample_as_batch", "int index drops the dimension", "unsqueeze")
def sample_int_index(batch, i):
    return batch[i]


@wrong("sample_as_batch", "batch[-1:0]", "empty")
def sample_plus_one_slice(batch, i):
    return batch[i:i + 1]


@right("sample_as_batch")
def sample_list_index(batch, i):
    return batch[[i]]


@right("sample_as_batch")
def sample_none_index(batch, i):
    return batch[i][None]


@right("sample_as_batch")
def sample_narrow(batch, i):
    return batch.narrow(0, i % batch.shape[0], 1)


@right("sample_as_batch")
def sample_slice_to_none(batch, i):
    return batch[i:(i + 1) or None]


@wrong("relative_to_first_column", "x[:, 0] has shape (N,)", "(N, 1) column")
def relative_dropped_axis(x):
    return x - x[:, 0]


@wrong("relative_to_first_column", "first ROW", "(N, 1) column")
def relative_to_first_row(x):
    return x - x[0]


@right("relative_to_first_column")
def relative_unsqueeze(x):
    return x - x[:, 0].unsqueeze(1)


@right("relative_to_first_column")
def relative_list_index(x):
    return x - x[:, [0]]


@right("relative_to_first_column")
def relative_by_transpose(x):
    return (x.T - x[:, 0]).T


@right("relative_to_first_column")
def relative_none_index(x):
    return x - x[:, 0, None]
