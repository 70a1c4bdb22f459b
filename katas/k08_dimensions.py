"""k08_dimensions: an int index drops a dimension, a slice keeps it / 整数索引去掉一个维度，切片保留它

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k08` (score) or `pytest tests/test_k08_dimensions.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k08`
（查看得分）或 `pytest tests/test_k08_dimensions.py`（查看详情）检查。
Lesson notes: §5.1, §5.3 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §5.1、§5.3。
"""

import torch


def sample_as_batch(batch: torch.Tensor, i: int) -> torch.Tensor:
    """Sample `i` of `batch` (shape (N, ...)) as a batch of ONE: shape (1, ...), holding
    `batch[i]`. `i` may be negative, as in Python (-1 is the last sample).

    Pitfall: an int index drops the dimension it indexes: `batch[i]` has shape (...), not (1, ...),
    and a model or loss that expects a batch then sees a wrong shape. A slice keeps the dimension,
    but `batch[i:i + 1]` is EMPTY for i = -1 (it is `batch[-1:0]`).
    Example: sample_as_batch(torch.zeros(8, 3), 2).shape -> (1, 3);
             sample_as_batch(x, -1) -> the last sample, shape (1, 3)
    Lesson (docs/lesson.md): §5.1

    把 `batch`（形状 (N, ...)）中的第 `i` 个样本作为“只有一个样本的批次”返回：形状 (1, ...)，内容是
    `batch[i]`。`i` 可以是负数，含义与 Python 相同（-1 是最后一个样本）。
    陷阱：整数索引会去掉被索引的那个维度：`batch[i]` 的形状是 (...)，而不是 (1, ...)，
    需要批次输入的模型或损失函数就会遇到错误的形状。切片会保留这个维度，
    但当 i = -1 时 `batch[i:i + 1]` 是“空的”（它就是 `batch[-1:0]`）。
    示例：sample_as_batch(torch.zeros(8, 3), 2).shape -> (1, 3)；
          sample_as_batch(x, -1) -> 最后一个样本，形状 (1, 3)
    讲义（docs/lesson.zh.md）：§5.1
    """
    raise NotImplementedError("sample_as_batch: not implemented yet / 尚未实现")


def relative_to_first_column(x: torch.Tensor) -> torch.Tensor:
    """The (N, D) float tensor `x` with its first column subtracted from every column of the same
    row: `out[n, d] == x[n, d] - x[n, 0]` (so the first column of the result is 0).

    Pitfall: `x[:, 0]` has shape (N,): the int index dropped the column dimension, and broadcasting
    lines an (N,) tensor up with the LAST dimension (D). So `x - x[:, 0]` raises when N != D, and
    when N == D it silently subtracts x[d, 0] from column d. Keep the dimension: an (N, 1) column.
    Example: relative_to_first_column(torch.tensor([[1.0, 2.0, 4.0], [10.0, 20.0, 40.0]]))
             -> tensor([[0., 1., 3.], [0., 10., 30.]])
    Lesson (docs/lesson.md): §5.1, §5.3

    返回 (N, D) 浮点张量 `x` 的每一列减去同一行第一列之后的结果：`out[n, d] == x[n, d] - x[n, 0]`
    （所以结果的第一列全是 0）。
    陷阱：`x[:, 0]` 的形状是 (N,)：整数索引把列这个维度去掉了，而广播会把形状为 (N,) 的张量和
    “最后一个”维度（D）对齐。于是 N != D 时 `x - x[:, 0]` 会报错，N == D 时则悄悄地从第 d 列减去
    x[d, 0]。请保留这个维度：用 (N, 1) 的一列。
    示例：relative_to_first_column(torch.tensor([[1.0, 2.0, 4.0], [10.0, 20.0, 40.0]]))
          -> tensor([[0., 1., 3.], [0., 10., 30.]])
    讲义（docs/lesson.zh.md）：§5.1、§5.3
    """
    raise NotImplementedError("relative_to_first_column: not implemented yet / 尚未实现")
