"""k26_linear_layer: nn.Linear by hand / 从零实现 nn.Linear

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k26` (score) or `pytest tests/test_k26_linear_layer.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k26`
（查看得分）或 `pytest tests/test_k26_linear_layer.py`（查看详情）检查。
Lesson notes (lesson 2, autograd and linear regression): §4.1 in docs/lesson2.md.
讲义（第 2 课：自动求导与线性回归）：docs/lesson2.zh.md 的 §4.1。
"""

import torch
from torch import nn


def linear_forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """What an nn.Linear with this `weight` (out_features, in_features) and `bias` (out_features,) returns
    for `x` (N, in_features): a tensor (N, out_features), on `x`'s device.

    Pitfall: nn.Linear keeps its weight as (out_features, in_features), one row per output: `x @ weight`
    raises "mat1 and mat2 shapes cannot be multiplied", or, with a square weight, runs and gives wrong
    values.
    Example: linear_forward(torch.tensor([[1.0, 2.0]]), torch.tensor([[1.0, 0.0], [0.5, -1.0]]),
                            torch.tensor([0.0, 1.0])) -> tensor([[ 1.0000, -0.5000]])
    Lesson (docs/lesson2.md): §4.1

    对 `x`（N, in_features），返回一个权重为 `weight`（out_features, in_features）、偏置为 `bias`
    （out_features,）的 nn.Linear 给出的结果：形状为 (N, out_features) 的张量，放在 `x` 所在的设备上。
    陷阱：nn.Linear 的权重按 (out_features, in_features) 存放，每个输出一行：`x @ weight` 会报错
    “mat1 and mat2 shapes cannot be multiplied”；如果权重是方阵，它能运行，却给出错误的数值。
    示例：linear_forward(torch.tensor([[1.0, 2.0]]), torch.tensor([[1.0, 0.0], [0.5, -1.0]]),
                         torch.tensor([0.0, 1.0])) -> tensor([[ 1.0000, -0.5000]])
    讲义（docs/lesson2.zh.md）：§4.1
    """
    raise NotImplementedError("linear_forward: not implemented yet / 尚未实现")


def linear_from(w: torch.Tensor, b: torch.Tensor) -> nn.Linear:
    """An nn.Linear(D, 1) that computes x @ w + b for x of shape (N, D): `w` has shape (D,), `b` is 0-dim
    (a fitted line, say). Its parameters hold the values of `w` and `b`, and it lives on `w`'s device,
    in `w`'s dtype. The layer owns its parameters: they share no memory with `w` or `b`, and they are
    ordinary trainable parameters (leaves that require grad, with no history). `w` and `b` may themselves
    require grad and hold a `.grad` (fitted by gradient descent): they are left as they were.

    Pitfall: the layer's weight is (out_features, in_features) = (1, D), not the (D,) or (D, 1) of
    x @ w; and nn.Linear(D, 1) is created on the default device unless told otherwise.
    Example: linear_from(torch.tensor([2.0, -1.0]), torch.tensor(0.5)).weight -> tensor([[ 2., -1.]])
    Lesson (docs/lesson2.md): §4.1

    返回一个 nn.Linear(D, 1)，它对形状为 (N, D) 的 x 计算 x @ w + b：`w` 的形状是 (D,)，`b` 是 0 维张量
    （比如一条拟合出来的直线）。它的参数装着 `w` 和 `b` 的数值，放在 `w` 所在的设备上，dtype 与 `w` 相同。
    这一层拥有它自己的参数：它们与 `w`、`b` 不共用内存，并且是普通的可训练参数（需要梯度、没有历史的叶子张量）。
    `w` 和 `b` 本身也可能需要梯度并带着 `.grad`（比如用梯度下降拟合出来的）：它们保持原样。
    陷阱：这一层的权重形状是 (out_features, in_features) = (1, D)，而不是 x @ w 里的 (D,) 或 (D, 1)；
    而且除非另外指定，nn.Linear(D, 1) 会建在默认设备上。
    示例：linear_from(torch.tensor([2.0, -1.0]), torch.tensor(0.5)).weight -> tensor([[ 2., -1.]])
    讲义（docs/lesson2.zh.md）：§4.1
    """
    raise NotImplementedError("linear_from: not implemented yet / 尚未实现")
