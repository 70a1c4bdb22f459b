"""k11_broadcasting: broadcasting / 广播机制

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k11` (score) or `pytest tests/test_k11_broadcasting.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k11`
（查看得分）或 `pytest tests/test_k11_broadcasting.py`（查看详情）检查。
Lesson notes: §5.3 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §5.3。
"""

import torch


def mse(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """0-dim mean squared error between `pred` of shape (N, 1) or (N,) and `target` of shape (N,).

    Pitfall: (N, 1) - (N,) does not raise: broadcasting silently makes an (N, N) table of every
    prediction minus every target, and its mean is a plausible-looking wrong number
    (`F.mse_loss` only warns about it).
    Example: mse(torch.tensor([[1.0], [2.0]]), torch.tensor([1.0, 4.0])) -> tensor(2.)
             (the (N, N) mistake gives tensor(3.5000))
    Lesson (docs/lesson.md): §5.3

    `pred` 形状为 (N, 1) 或 (N,)，`target` 形状为 (N,)，返回两者的均方误差（0 维张量）。
    陷阱：(N, 1) - (N,) 不会报错：广播会悄悄生成一张 (N, N) 的表，包含“每个预测减每个目标”，
    它的均值是一个看似合理的错误数字（`F.mse_loss` 也只是给出警告）。
    示例：mse(torch.tensor([[1.0], [2.0]]), torch.tensor([1.0, 4.0])) -> tensor(2.)
          （(N, N) 的错误写法得到 tensor(3.5000)）
    讲义（docs/lesson.zh.md）：§5.3
    """
    raise NotImplementedError("mse: not implemented yet / 尚未实现")


def normalize_rows(x: torch.Tensor) -> torch.Tensor:
    """Each row of the (N, D) float tensor `x` divided by that row's sum (every row then sums to 1).

    Pitfall: `x.sum(dim=1)` has shape (N,), which broadcasting lines up with the LAST dimension (D):
    `x / x.sum(dim=1)` raises when N != D, but runs silently when N == D (dividing column j by
    row j's sum) and when D == 1 (an (N, 1) / (N,) division broadcasts to (N, N)).
    Example: normalize_rows(torch.tensor([[1.0, 3.0], [1.0, 1.0]])) -> tensor([[0.25, 0.75], [0.5, 0.5]])
             (`x / x.sum(dim=1)` silently gives tensor([[0.25, 1.5], [0.25, 0.5]]))
    Lesson (docs/lesson.md): §5.3

    把 (N, D) 浮点张量 `x` 的每一行除以该行的和（之后每行之和为 1）。
    陷阱：`x.sum(dim=1)` 的形状是 (N,)，广播时它会和最后一个维度（D）对齐：
    N != D 时 `x / x.sum(dim=1)` 会报错，但在 N == D 时会悄悄地把第 j 列除以第 j 行的和，
    在 D == 1 时则悄悄地把 (N, 1) / (N,) 广播成 (N, N)。
    示例：normalize_rows(torch.tensor([[1.0, 3.0], [1.0, 1.0]])) -> tensor([[0.25, 0.75], [0.5, 0.5]])
          （`x / x.sum(dim=1)` 会悄悄地得到 tensor([[0.25, 1.5], [0.25, 0.5]])）
    讲义（docs/lesson.zh.md）：§5.3
    """
    raise NotImplementedError("normalize_rows: not implemented yet / 尚未实现")


def add_channel_bias(img: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """`img` of shape (B, C, H, W) plus `bias` of shape (C,): bias[c] is added to every pixel of
    channel c.

    Pitfall: broadcasting aligns shapes from the RIGHT, so a (C,) bias lines up with W, not C:
    `img + bias` raises when W != C, but runs silently when W == C (adding bias[w] to column w)
    and when W == 1 (the width is stretched to C).
    Example: img of shape (1, 2, 1, 2) with channels [[1, 1]] and [[5, 5]], bias [10, 20]
             -> channels [[11, 11]] and [[25, 25]]
    Lesson (docs/lesson.md): §5.3

    `img` 形状为 (B, C, H, W)，`bias` 形状为 (C,)：把 bias[c] 加到第 c 个通道的每个像素上。
    陷阱：广播从右往左对齐形状，所以 (C,) 的偏置对齐的是 W 而不是 C：W != C 时 `img + bias` 会报错，
    但在 W == C 时会悄悄地把 bias[w] 加到第 w 列上，在 W == 1 时则悄悄地把宽度拉伸成 C。
    示例：形状为 (1, 2, 1, 2) 的 img，两个通道分别为 [[1, 1]] 和 [[5, 5]]，bias 为 [10, 20]
          -> 两个通道变为 [[11, 11]] 和 [[25, 25]]
    讲义（docs/lesson.zh.md）：§5.3
    """
    raise NotImplementedError("add_channel_bias: not implemented yet / 尚未实现")


def pairwise_sq_dist(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """(N, M) tensor of squared Euclidean distances: out[i, j] = ((a[i] - b[j]) ** 2).sum()
    for `a` of shape (N, D) and `b` of shape (M, D), computed by broadcasting (no Python loops).

    Pitfall: `a - b` pairs row i with row i only (it raises when N != M, unless N or M is 1,
    where it silently broadcasts the single row); each operand needs a new dimension in the right
    place, so that (N, 1, D) - (1, M, D) gives (N, M, D), then sum over D.
    Example: pairwise_sq_dist(torch.tensor([[0.0, 0.0], [1.0, 1.0]]), torch.tensor([[1.0, 0.0]]))
             -> tensor([[1.], [1.]])
    Lesson (docs/lesson.md): §5.3

    对形状为 (N, D) 的 `a` 和 (M, D) 的 `b`，用广播（不写 Python 循环）计算 (N, M) 的欧氏距离平方：
    out[i, j] = ((a[i] - b[j]) ** 2).sum()。
    陷阱：`a - b` 只会把第 i 行和第 i 行配对（N != M 时会报错，但 N 或 M 为 1 时会悄悄地广播那一行）；
    需要在正确的位置给两个操作数各插入一个新维度，使 (N, 1, D) - (1, M, D) 得到 (N, M, D)，再对 D 求和。
    示例：pairwise_sq_dist(torch.tensor([[0.0, 0.0], [1.0, 1.0]]), torch.tensor([[1.0, 0.0]]))
          -> tensor([[1.], [1.]])
    讲义（docs/lesson.zh.md）：§5.3
    """
    raise NotImplementedError("pairwise_sq_dist: not implemented yet / 尚未实现")
