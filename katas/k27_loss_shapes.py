"""k27_loss_shapes: losses and their shapes / 损失与形状

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k27` (score) or `pytest tests/test_k27_loss_shapes.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k27`
（查看得分）或 `pytest tests/test_k27_loss_shapes.py`（查看详情）检查。
Lesson notes (lesson 2, autograd and linear regression): §3.4, §4.2 in docs/lesson2.md.
讲义（第 2 课：自动求导与线性回归）：docs/lesson2.zh.md 的 §3.4、§4.2。
"""

import torch
import torch.nn.functional as F
from torch import nn


def regression_loss(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """The mean squared error between the model's predictions model(x), of shape (N, 1), and the targets
    `y`, of shape (N,): a 0-dim tensor with its graph, so that training can back-propagate through it.

    Pitfall: an (N, 1) prediction minus an (N,) target broadcasts to (N, N): every prediction against
    every target. F.mse_loss only warns "Using a target size ... that is different to the input size"
    and returns another number.
    Example: regression_loss(nn.Linear(3, 1), torch.randn(5, 3), torch.randn(5))
             -> tensor(0.41, grad_fn=<MseLossBackward0>)
    Lesson (docs/lesson2.md): §4.2

    计算模型预测 model(x)（形状为 (N, 1)）与目标 `y`（形状为 (N,)）之间的均方误差：返回一个带计算图的
    0 维张量，这样训练时才能经过它反向传播。
    陷阱：(N, 1) 的预测减去 (N,) 的目标会广播成 (N, N)：每个预测都和每个目标比较一遍。F.mse_loss 只会警告
    “Using a target size ... that is different to the input size”，然后返回另一个数。
    示例：regression_loss(nn.Linear(3, 1), torch.randn(5, 3), torch.randn(5))
          -> tensor(0.41, grad_fn=<MseLossBackward0>)
    讲义（docs/lesson2.zh.md）：§4.2
    """
    raise NotImplementedError("regression_loss: not implemented yet / 尚未实现")


def as_regression_data(features: list, targets: list) -> tuple:
    """The tuple (X, y) for a regression from plain lists: `features` is a list of N rows of D numbers,
    `targets` a list of N numbers (ints or floats). X is a float32 tensor (N, D); y is a float32 tensor
    (N, 1), shaped like the output of nn.Linear(D, 1). Neither requires grad: data are not trained.

    Pitfall: torch.tensor(targets) has shape (N,), which broadcasts against an (N, 1) prediction in the
    loss; and setting requires_grad=True on data makes every backward() compute gradients for them.
    Example: as_regression_data([[1.0, 2.0], [3.0, 4.0]], [1, 2])
             -> (tensor([[1., 2.], [3., 4.]]), tensor([[1.], [2.]]))
    Lesson (docs/lesson2.md): §4.2, §3.4

    用普通列表构造回归用的元组 (X, y)：`features` 是 N 行、每行 D 个数的列表，`targets` 是 N 个数
    （整数或浮点数）的列表。X 是 float32 张量 (N, D)；y 是 float32 张量 (N, 1)，形状与 nn.Linear(D, 1)
    的输出相同。二者都不需要梯度：数据不参与训练。
    陷阱：torch.tensor(targets) 的形状是 (N,)，在损失里会与 (N, 1) 的预测广播；而给数据打开 requires_grad=True，
    会让每次 backward() 都为它们计算梯度。
    示例：as_regression_data([[1.0, 2.0], [3.0, 4.0]], [1, 2])
          -> (tensor([[1., 2.], [3., 4.]]), tensor([[1.], [2.]]))
    讲义（docs/lesson2.zh.md）：§4.2、§3.4
    """
    raise NotImplementedError("as_regression_data: not implemented yet / 尚未实现")
