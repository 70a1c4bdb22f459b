"""Checks for k03_dtypes: which cases, on which devices, and which aspects matter.

class_loss runs on meta and a GPU as well: converting the labels with labels.type(torch.LongTensor)
(a CPU tensor type) moves them to the CPU, which a GPU's logits refuse, and meta cannot copy out.
"""

import numpy as np
import torch
from torch import nn

from kata_harness.spec import Case, Function, Kata, array, module, randint, randn, tensor

KATA = Kata("k03_dtypes", [
    Function("mean_value", [
        Case(tensor([1, 2, 4])),                                           # int64: mean() refuses it
        Case(tensor([True, False, True, True])),                           # bool -> float32
        Case(randn(2, 3)),
        Case(randn(4, dtype=torch.float64), label="keeps_dtype"),          # .float() would downcast
        Case(tensor([0.5, 1.25, 2.0, -3.0], dtype=torch.float16), label="keeps_dtype"),
        Case(tensor([1 + 2j, 3 - 1j, -0.5j]), label="keeps_dtype"),        # complex64
        Case(tensor(7, dtype=torch.int32)),                                # 0-dim integer
    ]),
    Function("class_loss", [
        Case(randn(4, 3), tensor([0.0, 2.0, 1.0, 1.0], dtype=torch.float64)),   # CSV via NumPy: float64
        Case(randn(5, 4), randint(0, 4, 5, dtype=torch.float32)),
        Case(randn(1, 5), tensor([4.0])),
        Case(randn(4, 300), tensor([299.0, 256.0, 3.0, 280.0]), label="many_classes"),
    ], devices=("cpu", "meta", "cuda")),
    Function("apply_linear", [
        Case(module(lambda: nn.Linear(4, 3)), array(randn(5, 4, dtype=torch.float64))),
        Case(module(lambda: nn.Linear(4, 3)), array(randint(-5, 5, 2, 4))),                 # int64 data
        Case(module(lambda: nn.Linear(3, 2), dtype=torch.float64),
             array(randn(4, 3, dtype=torch.float64))),                                       # float64 layer
        Case(module(lambda: nn.Linear(3, 2), dtype=torch.float64), array(randint(0, 9, 2, 3), dtype=np.int32)),
        Case(module(lambda: nn.Linear(4, 2, bias=False)), array(randn(2, 3, 4, dtype=torch.float64))),
        Case(module(lambda: nn.Linear(2, 2)), array([1.5, -2.0])),                           # one sample, 1-D
    ], devices=("cpu", "meta", "cuda")),
    Function("brighten", [
        Case(tensor([[200, 10], [255, 0]], dtype=torch.uint8), 100),      # 200 + 100 would wrap to 44
        Case(randint(0, 256, 4, 5, dtype=torch.uint8), 60),
        Case(randint(0, 256, 3, 4, 3, dtype=torch.uint8), 255),
        Case(randint(0, 256, 2, 6, dtype=torch.uint8), 0),
        Case(tensor([255, 254, 1, 0], dtype=torch.uint8), 1),
    ]),
    Function("gather_rows", [
        Case(randn(5, 3), tensor([0.0, 2.0, 4.0], dtype=torch.float64)),
        Case(randint(0, 100, 6, 2), tensor([5.0, 5.0, 0.0, 3.0])),
        Case(randn(4, 3), randint(0, 4, 6, dtype=torch.float32)),
        Case(randn(3, 2, 2), tensor([2.0, 0.0])),                          # rows of a 3-D tensor
        Case(randn(4, 3), tensor([3, 1])),                                 # already int64
        Case(randn(5, 3), tensor([], dtype=torch.float32), label="empty_index"),   # no rows at all
    ], devices=("cpu", "meta", "cuda")),
])
