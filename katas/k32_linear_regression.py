"""k32_linear_regression: linear regression by hand and with torch.optim / 线性回归：从零实现与 torch.optim

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k32` (score) or `pytest tests/test_k32_linear_regression.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k32`
（查看得分）或 `pytest tests/test_k32_linear_regression.py`（查看详情）检查。
Lesson notes (lesson 2, autograd and linear regression): §4.2, §5.1, §5.2, §5.3, §6.3 in docs/lesson2.md.
讲义（第 2 课：自动求导与线性回归）：docs/lesson2.zh.md 的 §4.2、§5.1、§5.2、§5.3、§6.3。
"""

import torch
import torch.nn.functional as F
from torch import nn


def least_squares(x: torch.Tensor, y: torch.Tensor) -> tuple:
    """The least-squares fit of a line to the data, in closed form: the tuple (w, b), w of shape (D,) and
    b 0-dim, that minimises mean((x @ w + b - y) ** 2) for `x` (N, D) and `y` (N,). Computed on `x`'s
    device, in its dtype.

    Pitfall: torch.linalg.lstsq(x, y) fits a line through the origin: the bias needs a column of ones
    next to the features (made on `x`'s device).
    Example: least_squares(torch.tensor([[0.0], [1.0], [2.0], [3.0]]), torch.tensor([1.0, 3.0, 5.0, 7.0]))
             -> (tensor([2.]), tensor(1.0000))  (w = 2 and b = 1, up to float32 rounding)
    Lesson (docs/lesson2.md): §5.3

    用闭式解求直线对数据的最小二乘拟合：返回元组 (w, b)，w 的形状为 (D,)，b 是 0 维张量，它们使 `x`（N, D）
    和 `y`（N,）上的 mean((x @ w + b - y) ** 2) 最小。在 `x` 所在的设备上、用 `x` 的 dtype 计算。
    陷阱：torch.linalg.lstsq(x, y) 拟合的是一条过原点的直线：偏置需要在特征旁边加一列全 1
    （建在 `x` 所在的设备上）。
    示例：least_squares(torch.tensor([[0.0], [1.0], [2.0], [3.0]]), torch.tensor([1.0, 3.0, 5.0, 7.0]))
          -> (tensor([2.]), tensor(1.0000))（即 w = 2、b = 1，只差 float32 的舍入误差）
    讲义（docs/lesson2.zh.md）：§5.3
    """
    raise NotImplementedError("least_squares: not implemented yet / 尚未实现")


def fit_by_hand(x: torch.Tensor, y: torch.Tensor, lr: float, steps: int) -> tuple:
    """Fit the line x @ w + b to `y` by gradient descent written by hand (the point is to do without
    torch.optim; the grader judges the result, not the tools): start from
    w = 0 (shape (D,)) and b = 0 (0-dim), leaves that require grad, on `x`'s device and in its dtype;
    then `steps` times: forward, the mean squared error, backward(), the update w -= lr * dL/dw,
    b -= lr * dL/db. Return the tuple (w, b, losses): w and b detached (no requires_grad), losses a
    float32 CPU tensor of shape (steps,) holding each step's loss before its update. `x` and `y` are left
    unchanged.
    Judged as a procedure: the losses and the final w and b are compared, step by step, with a
    reference run of these very steps (within 1e-5); a run of 10 steps or more also ends within 0.001
    of the least-squares fit, the losses fall at every step, and nothing returned holds a graph.

    Pitfall: the whole lesson in one loop: the update goes against the gradient and is not recorded
    (torch.no_grad()), the gradients are cleared after every step, the loss is a MEAN (a sum makes
    the step N times bigger than lr says), and each loss is kept as loss.item(), not as a tensor.
    Example: fit_by_hand(torch.tensor([[0.0], [1.0], [2.0], [3.0]]), torch.tensor([1.0, 3.0, 5.0, 7.0]), 0.05, 300)
             -> (tensor([2.0000]), tensor(1.0000), tensor([21.0000, 7.0587, 2.3730, ...]))
    Lesson (docs/lesson2.md): §5.1, §5.2

    用从零实现的梯度下降（本意是不用 torch.optim；评判的是结果，不是所用的工具）
    把直线 x @ w + b 拟合到 `y` 上：从 w = 0（形状为 (D,)）和 b = 0（0 维）开始，它们是需要梯度的叶子张量，
    放在 `x` 所在的设备上、用 `x` 的 dtype；然后重复 `steps` 次：
    前向传播，均方误差，backward()，更新 w -= lr * dL/dw、b -= lr * dL/db。返回元组 (w, b, losses)：
    w 和 b 是分离出来的张量（不需要梯度），losses 是形状为 (steps,) 的 float32 CPU 张量，装着每一步在更新之前的损失。
    `x` 和 `y` 保持不变。
    按过程评判：损失以及最终的 w 和 b 会与参考答案亲自走完同样这些步的结果逐步比较（误差不超过 1e-5）；
    走 10 步及以上的运行最终还要与最小二乘解相差不超过 0.001，损失每一步都下降，返回的东西都不带计算图。
    陷阱：整节课都在这一个循环里：更新要逆着梯度走，而且不能被记录（torch.no_grad()）；每一步之后都要清空梯度；
    损失要取“平均值”（求和会让步长比 lr 表示的大 N 倍）；每个损失都用 loss.item() 保存，而不是保存张量。
    示例：fit_by_hand(torch.tensor([[0.0], [1.0], [2.0], [3.0]]), torch.tensor([1.0, 3.0, 5.0, 7.0]), 0.05, 300)
          -> (tensor([2.0000]), tensor(1.0000), tensor([21.0000, 7.0587, 2.3730, ...]))
    讲义（docs/lesson2.zh.md）：§5.1、§5.2
    """
    raise NotImplementedError("fit_by_hand: not implemented yet / 尚未实现")


def fit_with_sgd(model: nn.Linear, x: torch.Tensor, y: torch.Tensor, lr: float, steps: int) -> torch.Tensor:
    """Fit the nn.Linear(D, 1) `model` to the data with torch.optim.SGD (learning rate `lr`, no momentum):
    `steps` full-batch steps on the mean squared error between the model's predictions and the targets
    `y`, of shape (N,). `model` is updated in place, as a training function's model is (parameters the
    caller froze, requires_grad=False, stay as they are); `x` and `y` are left unchanged. Return the
    losses, each measured before its step, as a float32 CPU tensor of shape (steps,).
    Judged as a procedure: the losses and the model's final weight and bias are compared, step by
    step, with a reference run of these very steps (within 1e-5); a run of 10 steps or more also ends
    within 0.001 of the least-squares fit, the losses fall at every step, and the loop keeps at most
    one step's graph alive.

    Pitfall: model(x) has shape (N, 1) and `y` has shape (N,): the loss broadcasts them to (N, N), and
    the model learns something else; and a list of loss tensors keeps every step's graph nodes alive
    (small once backward() has freed their saved activations, but one more with every step).
    Example: fit_with_sgd(nn.Linear(2, 1), x, y, 0.2, 25) -> tensor of 25 falling losses
    Lesson (docs/lesson2.md): §6.3, §4.2

    用 torch.optim.SGD（学习率为 `lr`，不带动量）把 nn.Linear(D, 1) 模型 `model` 拟合到数据上：以模型预测与
    形状为 (N,) 的目标 `y` 之间的均方误差为损失，在整批数据上做 `steps` 步。和训练函数一样，原地更新
    `model`（调用者冻结的参数，即 requires_grad=False 的，保持原样）；`x` 和 `y` 保持不变。返回每一步在
    更新之前测得的损失，组成形状为 (steps,) 的 float32 CPU 张量。
    按过程评判：损失以及模型最终的权重和偏置会与参考答案亲自走完同样这些步的结果逐步比较（误差不超过 1e-5）；
    走 10 步及以上的运行最终还要与最小二乘解相差不超过 0.001，损失每一步都下降，循环最多只保留一步的计算图。
    陷阱：model(x) 的形状是 (N, 1)，`y` 的形状是 (N,)：损失会把它们广播成 (N, N)，模型学到的就是别的东西了；
    而由损失张量组成的列表会让每一步的计算图节点都一直留在内存里（backward() 释放了它们保存的中间激活值之后它们不大，
    但每一步都多一份）。
    示例：fit_with_sgd(nn.Linear(2, 1), x, y, 0.2, 25) -> 由 25 个不断下降的损失组成的张量
    讲义（docs/lesson2.zh.md）：§6.3、§4.2
    """
    raise NotImplementedError("fit_with_sgd: not implemented yet / 尚未实现")
