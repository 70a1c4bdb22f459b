"""k28_running_loss: recording the loss / 记录损失

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k28` (score) or `pytest tests/test_k28_running_loss.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k28`
（查看得分）或 `pytest tests/test_k28_running_loss.py`（查看详情）检查。
Lesson notes (lesson 2, autograd and linear regression): §4.3 in docs/lesson2.md.
讲义（第 2 课：自动求导与线性回归）：docs/lesson2.zh.md 的 §4.3。
"""

import torch
import torch.nn.functional as F
from torch import nn


def train_epoch(model: nn.Module, batches: list, lr: float) -> float:
    """One epoch: one plain SGD step (learning rate `lr`, no momentum; torch.optim.SGD is the tool meant)
    per `(x, y)` batch on the mean-squared-error loss, updating `model` in place (the batches are left
    unchanged). Return the MEAN of the batch losses, each
    measured before its step, as a Python float. At any time the loop keeps at most one batch's graph
    alive.

    Pitfall: `total += loss` adds the loss TENSOR: `total` then requires grad and keeps every batch's
    graph nodes alive until the epoch ends, one more with every batch (each backward() has freed the
    activations they saved; a loop with no backward() would keep those too).
    Example: train_epoch(nn.Linear(3, 1), [(x1, y1), (x2, y2)], 0.1) -> e.g. 0.87
    Lesson (docs/lesson2.md): §4.3

    训练一个 epoch：对每个 `(x, y)` 批次，用均方误差损失做一步普通 SGD（学习率为 `lr`，不带动量；
    本意是用 torch.optim.SGD），原地更新 `model`（各批次保持不变）。
    返回各批次损失（每个都在它那一步更新之前测得）的平均值，并且是 Python float。
    在任何时刻，循环最多只保留一个批次的计算图。
    陷阱：`total += loss` 累加的是损失“张量”：于是 `total` 变成需要梯度的张量，并把每个批次的计算图节点一直留到
    epoch 结束，每个批次多一份（每次 backward() 都已释放了它们保存的中间激活值；没有 backward() 的循环连这些也会留住）。
    示例：train_epoch(nn.Linear(3, 1), [(x1, y1), (x2, y2)], 0.1) -> 例如 0.87
    讲义（docs/lesson2.zh.md）：§4.3
    """
    raise NotImplementedError("train_epoch: not implemented yet / 尚未实现")
