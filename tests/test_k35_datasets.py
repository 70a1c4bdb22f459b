"""Checks for k35_datasets: which cases, on which devices, and which aspects matter.

The arrays are what real data gives: NumPy float64 features (and float32 ones, where
torch.from_numpy would share their memory), int64, int32 and uint8 label arrays, negative indices,
uint8 images of shape (H, W, C). The results are compared with the reference's: shapes and dtypes
(float32 features, int64 labels of shape () or (B,)), values, and, for sample_at, whether an
in-place write to the sample reaches the array (`independent`: an augmentation written in place must
not change the dataset). The arrays must be left unchanged (`inputs`). load_rows is judged by the
batches its DataLoader gives: how many, and each one's shapes, dtypes and values.
"""

import numpy as np
import torch

from kata_harness.spec import Case, Function, Kata, array, randint, randn

SAMPLE = ("shape", "dtype", "device", "values", "inputs")


def table(rows, columns, dtype=np.float64):
    return array(randn(rows, columns), dtype=dtype)


def classes(rows, count=3, dtype=np.int64):
    return array(randint(0, count, rows), dtype=dtype)


def image(height, width, channels=3):
    return array(randint(0, 256, height, width, channels), dtype=np.uint8)


KATA = Kata("k35_datasets", [
    Function("sample_at", [
        Case(table(6, 3), classes(6), 2),
        Case(table(4, 2), classes(4, dtype=np.int32), -1),
        Case(table(5, 4, dtype=np.float32), classes(5), 0),
        Case(table(3, 1), classes(3, count=10, dtype=np.uint8), 1),
    ], aspects=SAMPLE + ("independent",)),
    Function("image_sample", [
        Case(image(4, 5), 2),
        Case(image(3, 3, channels=1), 0),
        Case(image(2, 6), 7),
        Case(array(torch.full((2, 2, 3), 255, dtype=torch.uint8).tolist(), dtype=np.uint8), 1, hidden=True),
    ], aspects=SAMPLE),
    Function("load_rows", [
        Case(table(7, 3), classes(7), 3),
        Case(table(4, 2), classes(4, dtype=np.int32), 4),
        Case(table(5, 3, dtype=np.float32), classes(5), 2),
        Case(table(3, 2), classes(3), 5),
    ], aspects=SAMPLE, timeout=20),
])
