"""k12_joining: cat, stack, split / 拼接与拆分

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k12` (score) or `pytest tests/test_k12_joining.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k12`
（查看得分）或 `pytest tests/test_k12_joining.py`（查看详情）检查。
Lesson notes: §5.4 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §5.4。
"""

import torch


def stack_samples(samples: list) -> torch.Tensor:
    """Join N sample tensors of shape (D,) into one (N, D) batch: row i is samples[i].

    Pitfall: `torch.cat(samples)` joins along the existing dimension and gives one long (N*D,)
    vector; `cat` never adds a dimension.
    Example: stack_samples([torch.tensor([1, 2]), torch.tensor([3, 4]), torch.tensor([5, 6])])
             -> tensor([[1, 2], [3, 4], [5, 6]])   (shape (3, 2), not (6,))
    Lesson (docs/lesson.md): §5.4

    把 N 个形状为 (D,) 的样本张量合成一个 (N, D) 的批次：第 i 行是 samples[i]。
    陷阱：`torch.cat(samples)` 沿已有的维度拼接，得到一个 (N*D,) 的长向量；`cat` 从不增加维度。
    示例：stack_samples([torch.tensor([1, 2]), torch.tensor([3, 4]), torch.tensor([5, 6])])
          -> tensor([[1, 2], [3, 4], [5, 6]])（形状是 (3, 2)，而不是 (6,)）
    讲义（docs/lesson.zh.md）：§5.4
    """
    raise NotImplementedError("stack_samples: not implemented yet / 尚未实现")


def concat_features(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Join the features of the same N samples side by side: (N, D1) and (N, D2) -> (N, D1 + D2),
    row i being a[i] followed by b[i].

    Pitfall: `torch.cat([a, b])` joins along dim 0 by default: it raises when D1 != D2 and,
    worse, silently piles the rows up into (2N, D) when D1 == D2.
    Example: concat_features(torch.ones(2, 3), torch.zeros(2, 1)) -> shape (2, 4),
             each row [1., 1., 1., 0.]
    Lesson (docs/lesson.md): §5.4

    把同一批 N 个样本的特征左右拼在一起：(N, D1) 和 (N, D2) -> (N, D1 + D2)，第 i 行是 a[i] 后接 b[i]。
    陷阱：`torch.cat([a, b])` 默认沿第 0 维拼接：D1 != D2 时会报错；更糟的是 D1 == D2 时它会悄悄地
    把行上下堆成 (2N, D)。
    示例：concat_features(torch.ones(2, 3), torch.zeros(2, 1)) -> 形状 (2, 4)，每行都是 [1., 1., 1., 0.]
    讲义（docs/lesson.zh.md）：§5.4
    """
    raise NotImplementedError("concat_features: not implemented yet / 尚未实现")


def split_into_batches(x: torch.Tensor, batch_size: int) -> list:
    """Cut `x` along dim 0 into consecutive batches of `batch_size` rows; the last batch is
    shorter when the rows do not divide evenly. Return them as a list of tensors (a tuple of
    tensors, as `torch.split` returns, is accepted too).

    Pitfall: `torch.chunk(x, n)` makes AT MOST n chunks of ceil(len(x) / n) rows each (6 rows
    into 4 chunks gives only 3 chunks of 2), not chunks of n rows: with 10 rows,
    `torch.chunk(x, 3)` gives 4 + 4 + 2 rows instead of 3 + 3 + 3 + 1.
    Example: [b.shape[0] for b in split_into_batches(torch.zeros(10, 2), 3)] -> [3, 3, 3, 1]
    Lesson (docs/lesson.md): §5.4

    把 `x` 沿第 0 维切成连续的批次，每批 `batch_size` 行；行数不能整除时最后一批较短。
    以张量列表的形式返回（也可以是张量元组，`torch.split` 返回的就是元组）。
    陷阱：`torch.chunk(x, n)` 切出的是“最多” n 块，每块 ceil(len(x) / n) 行（6 行切 4 块只得到 3 块，
    每块 2 行），而不是每块 n 行：
    10 行数据用 `torch.chunk(x, 3)` 得到的是 4 + 4 + 2 行，而不是 3 + 3 + 3 + 1 行。
    示例：[b.shape[0] for b in split_into_batches(torch.zeros(10, 2), 3)] -> [3, 3, 3, 1]
    讲义（docs/lesson.zh.md）：§5.4
    """
    raise NotImplementedError("split_into_batches: not implemented yet / 尚未实现")
