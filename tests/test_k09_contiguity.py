"""Checks for k09_contiguity: which cases, on which devices, and which aspects matter.

"meta" matters here too: shapes, strides and contiguity exist on the data-less device, so a
`view` that is not compatible with the strides raises there as well, and a missing
`.contiguous()` shows there (values are only compared on the CPU and GPU).
"""

import torch

from kata_harness.spec import BASIC, Case, Function, Kata, custom, randint, randn, transposed


def heads_from_split(batch, steps, heads, dim):
    """(B, H, T, D) as attention code makes it: a (B, T, H, D) tensor transposed (non-contiguous)."""
    return custom(lambda gen, device: torch.randn(batch, steps, heads, dim, generator=gen).to(device).transpose(1, 2))


def channels_last_view(height, width, channels):
    """An (H, W, C) image that is a permuted view of a (C, H, W) tensor (non-contiguous)."""
    return custom(lambda gen, device: torch.randn(channels, height, width, generator=gen).to(device).permute(1, 2, 0))


DEVICES = ("cpu", "meta", "cuda")

KATA = Kata("k09_contiguity", [
    Function("flatten_transposed", [
        Case(randn(3, 4)),
        Case(randint(0, 10, 2, 5)),
        Case(randn(4, 4)),                       # square: flattening x instead of x.T runs silently
        Case(transposed(randn(5, 3))),           # x itself is a non-contiguous view
        Case(randn(1, 6)),                       # x.T is (6, 1): view happens to work here
    ], devices=DEVICES),
    Function("merge_heads", [
        Case(randn(2, 3, 4, 5)),
        Case(randn(1, 2, 3, 2)),
        Case(randn(2, 4, 4, 4)),
        Case(randn(2, 1, 3, 4)),                 # one head: nothing to move
        Case(randn(1, 3, 1, 4)),                 # one time step
        Case(heads_from_split(2, 4, 3, 2)),      # input already a transposed view
    ], devices=DEVICES),
    Function("to_channels_first", [
        Case(randn(4, 5, 3)),
        Case(randint(0, 256, 3, 3, 3, dtype=torch.uint8)),   # H == W == C: wrong axis orders run silently
        Case(randn(5, 5, 2)),                                # H == W: transpose(0, 2) keeps the shape
        Case(randn(2, 6, 1)),                                # one channel
        Case(channels_last_view(4, 5, 3)),                   # input is itself a permuted view
    ], aspects=BASIC + ("contiguous",), devices=DEVICES),
])
