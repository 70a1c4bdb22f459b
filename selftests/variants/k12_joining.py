"""Classic wrong answers and other correct idioms for k12_joining."""

import torch

from selftests.variants import right, wrong


@wrong("stack_samples", "cat never adds a dimension", "new FIRST dimension")
def stack_with_cat(samples):
    return torch.cat(samples)


@wrong("stack_samples", "new dimension 1 would give the transposed")
def stack_into_columns(samples):
    return torch.stack(samples, dim=1)


@wrong("stack_samples", "torch.tensor", "tensors themselves")
def stack_with_tensor(samples):
    return torch.tensor(samples)


@wrong("stack_samples", "device meta", "tensors themselves")
def stack_via_lists(samples):
    return torch.tensor([s.tolist() for s in samples], dtype=samples[0].dtype)


@right("stack_samples")
def stack_cat_then_view(samples):
    return torch.cat(samples).view(len(samples), -1)


@right("stack_samples")
def stack_vstack(samples):
    return torch.vstack(samples)


@right("stack_samples")
def stack_unsqueeze_cat(samples):
    return torch.cat([s.unsqueeze(0) for s in samples], dim=0)


@wrong("concat_features", "dim 0 by default", "feature dimension")
def concat_default_dim(a, b):
    return torch.cat([a, b])


@wrong("concat_features", "mixes rows", "feature dimension")
def concat_rows_then_reshape(a, b):
    return torch.cat([a, b], dim=0).reshape(a.shape[0], -1)


@wrong("concat_features", "feature dimension")
def concat_transposed(a, b):
    return torch.cat([a.T, b.T], dim=0)


@right("concat_features")
def concat_last_dim(a, b):
    return torch.cat((a, b), dim=-1)


@right("concat_features")
def concat_hstack(a, b):
    return torch.hstack([a, b])


@right("concat_features")
def concat_by_transposes(a, b):
    return torch.cat([a.T, b.T], dim=0).T.contiguous()


@wrong("split_into_batches", "chunk", "n chunks", "torch.split")
def split_with_chunk(x, batch_size):
    return list(torch.chunk(x, batch_size))


@wrong("split_into_batches", "shorter batch")
def split_drops_last(x, batch_size):
    return [x[i:i + batch_size] for i in range(0, len(x) - batch_size + 1, batch_size)]


@wrong("split_into_batches", "dim 0")
def split_last_axis(x, batch_size):
    return list(torch.split(x, batch_size, dim=-1))


@right("split_into_batches")
def split_tuple(x, batch_size):
    return torch.split(x, batch_size)   # the contract accepts a tuple as well as a list


@right("split_into_batches")
def split_by_slicing(x, batch_size):
    return [x[start:start + batch_size] for start in range(0, x.shape[0], batch_size)]


@right("split_into_batches")
def split_by_sizes(x, batch_size):
    full, rest = divmod(x.shape[0], batch_size)
    sizes = [batch_size] * full + ([rest] if rest else [])
    return list(x.split(sizes))


@right("split_into_batches")
def split_tensor_split(x, batch_size):
    return list(torch.tensor_split(x, list(range(batch_size, x.shape[0], batch_size))))
