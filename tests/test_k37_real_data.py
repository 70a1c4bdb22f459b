"""Checks for k37_real_data: which cases, on which devices, and which aspects matter.

loss_targets gets labels as files give them: int32, int64 and float64 arrays of whole numbers, as
(N,) rows and (N, 1) columns, for each loss, and a column of one label (where squeeze() gives a 0-dim
tensor); its targets are compared with the reference's (shape,
dtype, values).

train_val_split is judged by behaviour, not by one particular permutation: the sizes and dtype of
the two index tensors (compared with the reference's) and the probes `partition` (together they are
0 to n - 1, each once), `shuffled` (the validation indices are not the last val_size rows),
`reproducible` (the same seed gives the same split again), `seeded` (another seed gives another
split), and the `rng` aspect (the global generator untouched).

standardized_splits gets float64 training and test splits whose columns have other means and
scales (the test split shifted away from the training split, so its own statistics would differ),
a small training split (where dividing by N - 1 differs clearly from N) and a column that is
constant in the training split. The result's structure, shapes and dtypes are compared first, then
probes `finite` (no nan or inf), `training_split` and `test_split` (each split's values).
"""

import numpy as np
import torch

from kata_harness.spec import Case, Function, Kata, Probe, array, custom, randint

# --- loss_targets -------------------------------------------------------------------------------


def labels(n, classes=3, dtype=np.int64, column=False):
    shape = (n, 1) if column else (n,)
    return array(randint(0, classes, *shape), dtype=dtype)


# --- train_val_split ----------------------------------------------------------------------------


def _split(result):
    return [[int(i) for i in torch.as_tensor(part).reshape(-1)] for part in result]


def partition(call):
    """Whether the two parts together hold every index 0 to n - 1 exactly once."""
    train, val = _split(call.result)
    return sorted(train + val) == list(range(call.args[0]))


def shuffled(call):
    """Whether the validation indices are other than the last val_size rows."""
    n, val_size, _ = call.args
    return sorted(_split(call.result)[1]) != list(range(n - val_size, n))


def reproducible(call):
    """Whether the same seed gives the same split again."""
    return _split(call.fn(*call.args)) == _split(call.result)


def seeded(call):
    """Whether another seed gives another split."""
    n, val_size, seed = call.args
    return _split(call.fn(n, val_size, seed + 1)) != _split(call.result)


# --- standardized_splits ------------------------------------------------------------------------

_TRAIN = [None]   # the training split the case built last, for the test split after it


def train_split(rows, columns, constant_column=None):
    """Columns of other means and scales; one of them constant where ``constant_column`` is given."""
    def build(gen, device):
        scale = torch.rand(columns, generator=gen, dtype=torch.float64) * 4 + 0.5
        centre = torch.randn(columns, generator=gen, dtype=torch.float64) * 3
        x = torch.randn(rows, columns, generator=gen, dtype=torch.float64) * scale + centre
        if constant_column is not None:
            x[:, constant_column] = 2.5
        _TRAIN[0] = x
        return x.numpy()
    return custom(build)


def held_out_split(rows):
    """Drawn like the training split before it, shifted by a column's spread or two."""
    def build(gen, device):
        x = _TRAIN[0]
        spread = x.std(dim=0) + 1
        return (torch.randn(rows, x.shape[1], generator=gen, dtype=torch.float64) * spread + x.mean(dim=0)
                + 1.5 * spread).numpy()
    return custom(build)


def finite(call):
    """Whether both standardised splits hold only finite values."""
    return all(bool(torch.isfinite(torch.as_tensor(part)).all()) for part in call.result)


def training_split(call):
    return call.result[0]


def held_out_values(call):
    return call.result[1]


KATA = Kata("k37_real_data", [
    Function("loss_targets", [
        Case(labels(5, dtype=np.float64), "cross_entropy"),
        Case(labels(4, dtype=np.int32, column=True), "cross_entropy"),
        Case(labels(6, classes=2), "bce"),
        Case(labels(3, classes=2, dtype=np.float64, column=True), "bce"),
        Case(labels(5, classes=10, dtype=np.int32), "mse"),
        Case(labels(4, classes=10, dtype=np.float64, column=True), "mse"),
        # A batch of one: squeeze() makes its (1, 1) column a 0-dim target instead of (1,).
        Case(labels(1, dtype=np.int64, column=True), "cross_entropy"),
    ], aspects=("shape", "dtype", "device", "values", "inputs")),
    Function("train_val_split", [
        Case(10, 3, 0),
        Case(25, 5, 11),
        Case(8, 4, 2026),
        Case(40, 10, 5, hidden=True),
    ], aspects=("dtype", "rng"), probes=tuple(Probe(f.__name__, f) for f in (partition, shuffled, reproducible,
                                                                              seeded))),
    Function("standardized_splits", [
        Case(train_split(6, 3), held_out_split(4)),
        Case(train_split(3, 2), held_out_split(2)),
        Case(train_split(5, 4, constant_column=1), held_out_split(3)),
        Case(train_split(8, 1), held_out_split(5)),
    ], aspects=("shape", "dtype", "device", "inputs"),
        probes=(Probe("finite", finite), Probe("training_split", training_split),
                Probe("test_split", held_out_values))),
])
