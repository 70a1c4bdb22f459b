"""k10_reshape: reshape gives a view or a copy / reshape 可能返回视图，也可能返回副本

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k10` (score) or `pytest tests/test_k10_reshape.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k10`
（查看得分）或 `pytest tests/test_k10_reshape.py`（查看详情）检查。
Lesson notes: §5.2 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §5.2。
"""

import torch


def flat_copy(x: torch.Tensor) -> torch.Tensor:
    """The elements of `x` (any shape, contiguous or not) as a 1-D tensor in row-major order,
    sharing NO memory with `x`: writing to either never changes the other.

    Pitfall: `reshape(-1)`, `flatten()` and `contiguous()` return a VIEW whenever `x`'s strides
    allow it (all three for a contiguous `x`; reshape and flatten also for some non-contiguous
    ones, such as `x[:, ::2]`) and copy only when they must (a transposed `x`), so code that
    relies on getting a copy works on some inputs and silently shares memory on others
    (`view(-1)` always shares, and raises when it cannot).
    Example: f = flat_copy(x); f[0] = 100  ->  x is unchanged
    Lesson (docs/lesson.md): §5.2

    把 `x`（任意形状，连续或不连续）的元素按行优先顺序排成一维张量，并且与 `x` 不共享任何内存：
    修改其中一个，另一个都不会变。
    陷阱：只要 `x` 的步长允许（`x` 连续时三者都是如此；对某些不连续的 `x`，例如 `x[:, ::2]`，reshape 和
    flatten 也是如此），`reshape(-1)`、`flatten()` 和 `contiguous()` 返回的就是
    “视图”，只有不得不复制时（`x` 是转置过的）才复制。所以指望拿到副本的代码，在一些输入上没问题，
    在另一些输入上却悄悄地共享了内存（`view(-1)` 总是共享内存，做不到时就报错）。
    示例：f = flat_copy(x); f[0] = 100  ->  x 保持不变
    讲义（docs/lesson.zh.md）：§5.2
    """
    raise NotImplementedError("flat_copy: not implemented yet / 尚未实现")


def zero_flat_(x: torch.Tensor, positions: list) -> None:
    """Set the elements of the 2-D tensor `x` at the given row-major positions to 0, IN PLACE
    (position p is row p // x.shape[1], column p % x.shape[1]). `x` may be non-contiguous,
    such as a transposed view. Returns None.

    Pitfall: `x.reshape(-1)[positions] = 0` works when `x`'s strides allow a flat view (a
    contiguous `x`, for one), because reshape then returns a view; for a transposed `x` it
    returns a COPY, and the zeros go into the copy
    without a word (`x.view(-1)` raises there instead).
    Example: x = torch.ones(2, 3).t()  (shape (3, 2)); zero_flat_(x, [1, 4])
             ->  x[0, 1] and x[2, 0] are now 0
    Lesson (docs/lesson.md): §5.2

    把二维张量 `x` 中按行优先顺序编号的那些位置“原地”置 0（位置 p 对应第 p // x.shape[1] 行、
    第 p % x.shape[1] 列）。`x` 可能不连续，例如是一个转置视图。返回 None。
    陷阱：`x` 的步长允许展平成视图时（例如 `x` 是连续的），`x.reshape(-1)[positions] = 0` 没问题，
    因为这时 reshape 返回的是视图；
    但 `x` 是转置过的时候，它返回的是“副本”，这些 0 悄无声息地写进了副本（这时 `x.view(-1)`
    则会直接报错）。
    示例：x = torch.ones(2, 3).t()（形状 (3, 2)）；zero_flat_(x, [1, 4])
          ->  x[0, 1] 和 x[2, 0] 变成 0
    讲义（docs/lesson.zh.md）：§5.2
    """
    raise NotImplementedError("zero_flat_: not implemented yet / 尚未实现")
