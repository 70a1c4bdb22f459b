"""k07_indexing: views and copies when indexing / 索引时的视图与副本

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k07` (score) or `pytest tests/test_k07_indexing.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k07`
（查看得分）或 `pytest tests/test_k07_indexing.py`（查看详情）检查。
Lesson notes: §5.1, §6.2 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §5.1、§6.2。
"""

import torch


def row_window(x: torch.Tensor, start: int, stop: int) -> torch.Tensor:
    """Rows `start` to `stop - 1` of `x` (0 <= start <= stop <= len(x)) as a VIEW: the window
    shares memory with `x`, so writing into the window changes `x` and the other way round
    (handy for filling part of a buffer in place).

    Pitfall: only basic slicing (ints and `start:stop` slices) gives a view. Indexing with a list or a tensor
    of row numbers (`x[list(range(start, stop))]`, `x[torch.arange(start, stop)]`), with a
    boolean mask, or through `index_select` COPIES the rows: writes to the copy never reach `x`.
    Example: w = row_window(x, 1, 3); w.zero_()  ->  rows 1 and 2 of x are now 0
    Lesson (docs/lesson.md): §5.1

    以“视图”的形式返回 `x` 的第 `start` 行到第 `stop - 1` 行（0 <= start <= stop <= len(x)）：这个窗口
    与 `x` 共享内存，往窗口里写会改变 `x`，反过来也一样（适合原地填充缓冲区的一部分）。
    陷阱：只有基本索引（整数和 `start:stop` 这样的切片）才得到视图。用行号列表或行号张量做索引
    （`x[list(range(start, stop))]`、`x[torch.arange(start, stop)]`）、用布尔掩码做索引，
    或者用 `index_select`，都会“复制”这些行：往副本里写永远传不到 `x`。
    示例：w = row_window(x, 1, 3); w.zero_()  ->  x 的第 1、2 行变成 0
    讲义（docs/lesson.zh.md）：§5.1
    """
    raise NotImplementedError("row_window: not implemented yet / 尚未实现")


def zero_rows_(x: torch.Tensor, rows: list) -> None:
    """Set the rows of `x` listed in `rows` (row numbers >= 0, in any order, repeats allowed,
    possibly none) to 0 IN PLACE: the caller's `x` changes. Returns None.

    Pitfall: `x[rows]` with a list of row numbers is advanced indexing and returns a COPY, so
    `x[rows].zero_()` zeroes the copy and `x` stays as it was. An assignment through the index
    (`x[...] = value`) writes into `x` itself.
    Example: x = torch.ones(3, 2); zero_rows_(x, [0, 2])  ->  x is tensor([[0., 0.], [1., 1.], [0., 0.]])
    Lesson (docs/lesson.md): §5.1

    把 `x` 中 `rows` 列出的那些行（行号 >= 0，顺序任意，可以重复，也可以一个都没有）“原地”置 0：
    调用者的 `x` 要被改变。返回 None。
    陷阱：用行号列表写 `x[rows]` 属于高级索引，返回的是“副本”，所以 `x[rows].zero_()` 清零的是副本，
    `x` 保持原样。通过索引赋值（`x[...] = 值`）才会写进 `x` 本身。
    示例：x = torch.ones(3, 2); zero_rows_(x, [0, 2])  ->  x 变成 tensor([[0., 0.], [1., 1.], [0., 0.]])
    讲义（docs/lesson.zh.md）：§5.1
    """
    raise NotImplementedError("zero_rows_: not implemented yet / 尚未实现")


def scale_selected_(x: torch.Tensor, mask: torch.Tensor, factor: float) -> None:
    """Multiply, IN PLACE, the elements of the float tensor `x` where the bool tensor `mask`
    (same shape) is True by `factor`; the other elements stay. Returns None.

    Pitfall: boolean indexing copies too. `x[mask]` (like `bmi[mask]` in §6.2) is a NEW tensor
    holding the selected values, so `x[mask].mul_(factor)`, or `sel = x[mask]; sel *= factor`,
    changes that copy only. An in-place operator applied to the indexed expression itself works,
    because Python runs it as an assignment through the index (§5.1).
    Example: bmi = torch.tensor([20.0, 30.0]); scale_selected_(bmi, bmi > 25, 0.5)
             ->  bmi is tensor([20., 15.])
    Lesson (docs/lesson.md): §5.1, §6.2

    把浮点张量 `x` 中、布尔张量 `mask`（形状相同）为 True 的那些元素“原地”乘以 `factor`；
    其余元素不变。返回 None。
    陷阱：布尔索引同样会复制。`x[mask]`（就像 §6.2 里的 `bmi[mask]`）是一个装着被选中数值的“新”张量，
    所以 `x[mask].mul_(factor)`，或者 `sel = x[mask]; sel *= factor`，改的都只是这份副本。
    直接对索引表达式本身使用原地运算符却可以，因为 Python 会把它执行成一次通过索引的赋值（§5.1）。
    示例：bmi = torch.tensor([20.0, 30.0]); scale_selected_(bmi, bmi > 25, 0.5)
          ->  bmi 变成 tensor([20., 15.])
    讲义（docs/lesson.zh.md）：§5.1、§6.2
    """
    raise NotImplementedError("scale_selected_: not implemented yet / 尚未实现")
