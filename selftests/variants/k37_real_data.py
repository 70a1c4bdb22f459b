"""Classic wrong answers and other correct idioms for k37_real_data."""

import numpy as np
import torch

from selftests.variants import right, wrong

# --- loss_targets -----------------------------------------------------------------------------


@wrong("loss_targets", "int64", "cross-entropy")
def keeps_the_file_dtype(labels, loss):
    flat = torch.as_tensor(labels).reshape(-1)
    return flat if loss == "cross_entropy" else flat.float().unsqueeze(1)


@wrong("loss_targets", "(N, 1)", "broadcast")
def flat_regression_targets(labels, loss):
    flat = torch.as_tensor(labels).reshape(-1)
    return flat.long() if loss == "cross_entropy" else flat.float()


@wrong("loss_targets", "(N,)", "column")
def keeps_the_column(labels, loss):
    t = torch.as_tensor(labels)
    return t.long() if loss == "cross_entropy" else t.reshape(-1, 1).float()


@wrong("loss_targets", "refuses int64", "floats")
def integer_targets_everywhere(labels, loss):
    flat = torch.as_tensor(labels).reshape(-1).long()
    return flat if loss == "cross_entropy" else flat.unsqueeze(1)


@right("loss_targets")
def converts_in_numpy(labels, loss):
    if loss == "cross_entropy":
        return torch.from_numpy(np.ravel(labels).astype(np.int64))
    return torch.from_numpy(np.asarray(labels, dtype=np.float32).reshape(-1, 1))


@right("loss_targets")
def view_and_type(labels, loss):
    t = torch.tensor(labels)
    return t.view(-1).long() if loss == "cross_entropy" else t.view(-1, 1).to(dtype=torch.float)


# --- train_val_split --------------------------------------------------------------------------


@wrong("train_val_split", "last val_size rows", "sorted")
def last_rows_for_validation(n, val_size, seed):
    order = torch.arange(n)
    return order[:n - val_size], order[n - val_size:]


@wrong("train_val_split", "global", "random")
def seeds_the_global_generator(n, val_size, seed):
    torch.manual_seed(seed)
    order = torch.randperm(n)
    return order[:n - val_size], order[n - val_size:]


@wrong("train_val_split", "exactly once", "both")
def draws_with_replacement(n, val_size, seed):
    gen = torch.Generator().manual_seed(seed)
    return torch.randint(0, n, (n - val_size,), generator=gen), torch.randint(0, n, (val_size,), generator=gen)


@right("train_val_split")
def with_random_split(n, val_size, seed):
    from torch.utils.data import random_split

    train, val = random_split(range(n), [n - val_size, val_size], generator=torch.Generator().manual_seed(seed))
    return torch.tensor(list(train), dtype=torch.int64), torch.tensor(list(val), dtype=torch.int64)


@right("train_val_split")
def with_numpy(n, val_size, seed):
    order = np.random.default_rng(seed).permutation(n)
    return torch.from_numpy(order[val_size:]).long(), torch.from_numpy(order[:val_size]).long()


# --- standardized_splits ----------------------------------------------------------------------


def _scaled(x, mean, std):
    return torch.tensor((x - mean) / std, dtype=torch.float32)


@wrong("standardized_splits", "own", "training split's statistics")
def each_split_its_own_statistics(train, test):
    def scale(x):
        std = x.std(axis=0)
        return _scaled(x, x.mean(axis=0), np.where(std == 0, 1, std))
    return scale(train), scale(test)


@wrong("standardized_splits", "training split only", "both splits")
def statistics_of_both_splits(train, test):
    both = np.concatenate([train, test])
    std = both.std(axis=0)
    std = np.where(std == 0, 1, std)
    return _scaled(train, both.mean(axis=0), std), _scaled(test, both.mean(axis=0), std)


@wrong("standardized_splits", "N - 1", "population")
def sample_standard_deviation(train, test):
    x = torch.tensor(train)
    mean, std = x.mean(dim=0), x.std(dim=0)
    std = torch.where(std == 0, torch.ones_like(std), std)
    return ((x - mean) / std).float(), ((torch.tensor(test) - mean) / std).float()


@wrong("standardized_splits", "nan", "constant")
def divides_by_zero(train, test):
    mean, std = train.mean(axis=0), train.std(axis=0)
    return _scaled(train, mean, std), _scaled(test, mean, std)


@wrong("standardized_splits", "float32", "float64")
def stays_float64(train, test):
    mean, std = train.mean(axis=0), train.std(axis=0)
    std = np.where(std == 0, 1, std)
    return torch.from_numpy((train - mean) / std), torch.from_numpy((test - mean) / std)


@right("standardized_splits")
def like_a_standard_scaler(train, test):
    mean = train.mean(axis=0, keepdims=True)
    scale = train.std(axis=0, ddof=0, keepdims=True)
    scale[scale == 0] = 1.0
    return tuple(torch.from_numpy(((x - mean) / scale).astype(np.float32)) for x in (train, test))


@right("standardized_splits")
def with_var_mean(train, test):
    x = torch.from_numpy(train)
    var, mean = torch.var_mean(x, dim=0, correction=0)
    std = var.sqrt().masked_fill(var == 0, 1.0)
    return ((x - mean) / std).to(torch.float32), ((torch.from_numpy(test) - mean) / std).to(torch.float32)
