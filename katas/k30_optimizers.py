"""k30_optimizers: optimizers, torch.optim / 优化器：torch.optim

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k30` (score) or `pytest tests/test_k30_optimizers.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k30`
（查看得分）或 `pytest tests/test_k30_optimizers.py`（查看详情）检查。
Lesson notes (lesson 2, autograd and linear regression): §6.1, §6.2 in docs/lesson2.md.
讲义（第 2 课：自动求导与线性回归）：docs/lesson2.zh.md 的 §6.1、§6.2。
"""

import torch
import torch.nn.functional as F
from torch import nn


def train_steps(model: nn.Module, optimizer: torch.optim.Optimizer, x: torch.Tensor, y: torch.Tensor, steps: int) -> list:
    """Take `steps` full-batch steps of the GIVEN `optimizer` (already built over `model`'s parameters: it
    may be SGD with momentum, or Adam) on the mean-squared-error loss of model(x) against `y`. Return
    each step's loss, measured before its step, as a list of Python floats. `model` and the optimizer's
    state are updated in place, as a training function's are (parameters the caller froze stay as
    they are); `x` and `y` are left unchanged.

    Pitfall: zero_grad() in the wrong place: between backward() and step() it wipes the gradients the
    step was about to use, and nothing moves; once before the loop, the gradients add up.
    Example: train_steps(model, torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9), x, y, 3)
             -> e.g. [0.81, 0.66, 0.47]
    Lesson (docs/lesson2.md): §6.1

    用“给定的” `optimizer`（已经作用于 `model` 的参数：它可能是带动量的 SGD，也可能是 Adam），以 model(x) 对 `y`
    的均方误差为损失，在整批数据上做 `steps` 步。返回每一步在更新之前测得的损失，组成 Python float 列表。
    和训练函数一样，`model` 和优化器的状态被原地更新（调用者冻结的参数保持原样）；`x` 和 `y` 保持不变。
    陷阱：zero_grad() 放错了位置：放在 backward() 和 step() 之间，会把这一步正要用的梯度清掉，参数根本不动；
    只在循环之前调用一次，梯度就会不断累加。
    示例：train_steps(model, torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9), x, y, 3)
          -> 例如 [0.81, 0.66, 0.47]
    讲义（docs/lesson2.zh.md）：§6.1
    """
    raise NotImplementedError("train_steps: not implemented yet / 尚未实现")


def adam_fit(model: nn.Module, x: torch.Tensor, y: torch.Tensor, lr: float, steps: int) -> list:
    """Train `model` with torch.optim.Adam (learning rate `lr`, its other settings left at their defaults)
    for `steps` full-batch steps on the mean-squared-error loss of model(x) against `y`. Return each
    step's loss, measured before its step, as a list of Python floats. `model` is updated in place, as
    a training function's model is; `x` and `y` are left unchanged.

    Pitfall: Adam keeps state from step to step (running averages of each gradient and of its square);
    an optimizer made anew inside the loop forgets it at every step.
    Example: adam_fit(nn.Linear(3, 1), x, y, 0.1, 3) -> e.g. [1.12, 0.95, 0.80]
    Lesson (docs/lesson2.md): §6.2

    用 torch.optim.Adam（学习率为 `lr`，其他设置保持默认）以 model(x) 对 `y` 的均方误差为损失，
    在整批数据上训练 `model` `steps` 步。返回每一步在更新之前测得的损失，组成 Python float 列表。
    和训练函数一样，`model` 被原地更新；`x` 和 `y` 保持不变。
    陷阱：Adam 会在各步之间保存状态（每个梯度及其平方的滑动平均）；在循环里新建的优化器每一步都会忘掉这些状态。
    示例：adam_fit(nn.Linear(3, 1), x, y, 0.1, 3) -> 例如 [1.12, 0.95, 0.80]
    讲义（docs/lesson2.zh.md）：§6.2
    """
    raise NotImplementedError("adam_fit: not implemented yet / 尚未实现")


def clipped_step(model: nn.Module, x: torch.Tensor, y: torch.Tensor, lr: float, max_norm: float) -> float:
    """One plain SGD step (learning rate `lr`, no momentum) on the mean-squared-error loss of model(x)
    against `y`, with the gradients clipped first so that their total norm (all parameters together)
    is at most `max_norm`, as nn.utils.clip_grad_norm_ does. Return the loss before the step as a Python
    float. `model` is updated in place, as a training function's model is; `x` and `y` are left unchanged.

    Pitfall: clipping rewrites `.grad`, so its place in the step matters: before backward() there is
    nothing to clip yet, and after step() the update has already been made.
    Example: clipped_step(nn.Linear(3, 1), x, y, 0.1, 0.5) -> e.g. 2.31 (and the model moved by at most
             0.1 * 0.5)
    Lesson (docs/lesson2.md): §6.1

    以 model(x) 对 `y` 的均方误差为损失，做一步普通 SGD（学习率为 `lr`，不带动量），但先裁剪梯度，使它们的总范数
    （所有参数合在一起）不超过 `max_norm`，就像 nn.utils.clip_grad_norm_ 做的那样。用 Python float 返回更新之前的损失。
    和训练函数一样，`model` 被原地更新；`x` 和 `y` 保持不变。
    陷阱：裁剪会改写 `.grad`，所以它在这一步里的位置很重要：在 backward() 之前还没有可裁剪的梯度，
    在 step() 之后更新已经做完了。
    示例：clipped_step(nn.Linear(3, 1), x, y, 0.1, 0.5) -> 例如 2.31（模型移动的距离不超过 0.1 * 0.5）
    讲义（docs/lesson2.zh.md）：§6.1
    """
    raise NotImplementedError("clipped_step: not implemented yet / 尚未实现")
