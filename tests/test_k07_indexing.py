"""Checks for k07_indexing: which cases, on which devices, and which aspects matter.

row_window is judged by `independent`: after the call the input is changed in place and the
window must show it (a view), as the reference's does. The two in-place functions return None
and are judged by `inputs`: the caller's tensor must have changed exactly as the reference's.
"""

import torch

from kata_harness.spec import BASIC, Case, Function, Kata, custom, randint, randn, tensor, transposed

INF, NAN = float("inf"), float("nan")


def mask_like(*shape, p=0.5):
    """A bool mask of ``shape`` with about ``p`` of it True, on the test device."""
    return custom(lambda gen, device: (torch.rand(shape, generator=gen) < p).to(device))


KATA = Kata("k07_indexing", [
    Function("row_window", [
        Case(randn(5, 3), 1, 4),
        Case(randint(0, 9, 6, 2), 0, 6),
        Case(randn(6), 2, 5),
        Case(randn(4, 2, 3), 3, 4),
        Case(transposed(randn(3, 5)), 1, 3),          # a non-contiguous x: slicing still gives a view
        Case(randn(4, 3), 2, 2),                       # an empty window
    ], aspects=BASIC + ("independent",), devices=("cpu", "meta", "cuda")),
    Function("zero_rows_", [
        Case(randn(5, 3), [0, 3]),
        Case(randint(1, 9, 4, 4), [2]),
        Case(randn(6, 2), [5, 1, 1]),                  # any order, repeats allowed
        Case(randn(3, 4, dtype=torch.float64), []),    # nothing to zero
        Case(randn(4, 2, 3), [1, 3]),
        Case(transposed(randn(4, 5)), [0, 4]),
        Case(tensor([[INF, 1.0], [2.0, 3.0], [NAN, -INF]]), [0, 2], label="non_finite"),   # 0 * inf is nan
    ]),
    Function("scale_selected_", [
        Case(tensor([20.2, 26.1, 31.0, 22.8]), tensor([False, True, True, False]), 0.9),   # BMIs above 25
        Case(randn(4, 5), mask_like(4, 5), 2.0),
        Case(randn(6, dtype=torch.float64), mask_like(6, p=0.0), 3.0),                     # nothing selected
        Case(randn(3, 3), mask_like(3, 3, p=1.0), -1.0),                                   # everything
        Case(transposed(randn(4, 3)), mask_like(3, 4), 0.5),
        Case(tensor([INF, 2.0, NAN, -INF, 1.0]), tensor([False, True, False, True, False]), 3.0,
             label="non_finite"),                                                            # unselected inf and nan
    ]),
])
