"""Checks for k05_devices: which cases, on which devices, and which aspects matter.

The test device is "cpu", "meta" (CPU-only stand-in for a second device) or "cuda"; inputs
pinned with ``device="cpu"`` stay on the CPU whatever the test device is. The meta device catches
many mixes of devices (elementwise arithmetic, a layer with a bias) but not all: a bias-free
nn.Linear on meta runs on a CPU input and returns a CPU tensor (PyTorch 2.13). The device of every
result is compared, so such a mix fails there too (run_model's first case).
"""

from collections import namedtuple

import torch
from torch import nn

from kata_harness.spec import DEVICE, Case, Function, Kata, module, randint, randn, tensor

Sample = namedtuple("Sample", "image label info")
Pair = namedtuple("Pair", "left right")

CPU = "cpu"

KATA = Kata("k05_devices", [
    Function("add_bias", [
        Case(randn(2, 3), randn(3, device=CPU)),
        Case(randn(4, 2, 3), randn(3, device=CPU)),
        Case(randn(3, dtype=torch.float64), randn(3, dtype=torch.float64, device=CPU)),
        Case(randint(0, 10, 2, 2), tensor([1, -1], device=CPU)),
        Case(randn(2, 3), tensor(0.5, device=CPU)),                 # 0-dim: may mix devices anyway
        Case(randn(2, 4), randn(4)),                                # already on x's device
    ], devices=("cpu", "meta", "cuda")),
    Function("to_device", [
        Case(randn(2, 3, device=CPU), DEVICE),                      # a bare tensor
        Case({"x": randn(2, 3, device=CPU), "y": randint(0, 3, 2, device=CPU), "id": 7,
              "name": "batch-0", "weight": 0.5, "mask": None, "ready": randn(2)}, DEVICE),
        Case((randn(4, 2, device=CPU), randint(0, 2, 4, device=CPU)), DEVICE),
        Case(Sample(image=randn(3, 2, 2, device=CPU), label=tensor(1, device=CPU),
                    info={"path": "img_001.png", "flipped": False}), DEVICE, label="namedtuple"),
        Case({"inputs": [{"ids": randint(0, 9, 5, device=CPU),
                          "pair": (randn(2, device=CPU),
                                   [randn(1, device=CPU),
                                    {"deep": (Sample(randn(2, device=CPU), tensor(0, device=CPU), {"tag": "x"}),)}])}],
              "epoch": 3, "empty": ([], {}, ())}, DEVICE),
        Case([Pair(randn(2, device=CPU), randn(2, device=CPU)), Pair("left", None), "text", 3, 1.5],
             device=DEVICE),
    ], devices=("cpu", "meta", "cuda")),
    Function("run_model", [
        Case(module(lambda: nn.Linear(4, 3, bias=False)), randn(5, 4, device=CPU)),  # meta: runs, on the CPU
        Case(module(lambda: nn.Linear(4, 3)), randn(5, 4, device=CPU)),
        Case(module(lambda: nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 2))), randn(2, 3, device=CPU)),
        Case(module(nn.ReLU), randn(2, 3, device=CPU), label="no_parameters"),     # stays on the CPU
        Case(module(nn.Flatten), randn(2, 3, 2), label="no_parameters"),           # stays on the test device
        Case(module(lambda: nn.Linear(2, 2)), randn(3, 2)),                       # x already there
    ], devices=("cpu", "meta", "cuda")),
])
