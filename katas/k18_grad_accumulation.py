"""k18_grad_accumulation: gradient accumulation / 梯度累积

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k18` (score) or `pytest tests/test_k18_grad_accumulation.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k18`
（查看得分）或 `pytest tests/test_k18_grad_accumulation.py`（查看详情）检查。
Lesson notes: §4.5, §7, §8.2 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §4.5、§7、§8.2。
"""

import torch
import torch.nn.functional as F
from torch import nn


def train(model: nn.Module, batches: list, lr: float) -> list:
    """Train `model` with one plain SGD step (no momentum) per `(x, y)` batch on the
    mean-squared-error loss. Update `model` in place and return each step's loss, measured
    BEFORE that step's update, as a list of Python floats. (Beyond the lesson: a first lesson on
    tensors stops before optimizers; §8.2 shows one training step.)

    Pitfall: `loss.backward()` ADDS to `.grad`; unless the gradients are cleared every step
    (`optimizer.zero_grad()`), each step also applies all the previous steps' gradients.
    Example: train(nn.Linear(3, 1), [(x1, y1), (x2, y2), (x3, y3)], 0.1) -> e.g. [1.84, 1.21, 0.97]
             (three floats; the model's weights have moved three times)
    Lesson (docs/lesson.md): §7 (row "gradients keep accumulating"), §8.2

    用均方误差损失训练 `model`：每个 `(x, y)` 批次做一步普通 SGD（不带动量）。原地更新 `model`，
    返回每一步在参数更新之前的损失值，组成 Python float 列表。（超出本课范围：张量第一课讲不到优化器；
    §8.2 展示了一个训练步。）
    陷阱：`loss.backward()` 会把梯度“加”到 `.grad` 上；如果不在每一步清空梯度
    （`optimizer.zero_grad()`），每一步都会把之前所有步的梯度再用一遍。
    示例：train(nn.Linear(3, 1), [(x1, y1), (x2, y2), (x3, y3)], 0.1) -> 例如 [1.84, 1.21, 0.97]
          （三个 float；模型权重被更新了三次）
    讲义（docs/lesson.zh.md）：§7（“梯度不断累积”那一行）、§8.2
    """
    raise NotImplementedError("train: not implemented yet / 尚未实现")


def accumulated_step(model: nn.Module, micro_batches: list, lr: float) -> float:
    """ONE plain SGD step on `model` whose gradient is the MEAN of the micro-batch MSE-loss
    gradients, each micro-batch counting 1/n whatever its size (for equal-sized micro-batches
    this is exactly the full-batch gradient).
    Gradients already stored on the parameters before the call must be ignored. Return the
    mean of the micro-batch losses as a Python float. (Beyond the lesson.)

    Pitfall: deliberate accumulation has three traps: forgetting to divide each loss by the
    number of micro-batches (the step is n times too big), clearing the gradients inside the
    loop (only the last micro-batch counts), and adding to stale gradients left on `.grad`.
    Example: with x, y of 8 rows, accumulated_step(model, [(x[:4], y[:4]), (x[4:], y[4:])], 0.1)
             changes `model` exactly like one SGD step on the whole (x, y); returns e.g. 0.73
    Lesson (docs/lesson.md): §7 (row "gradients keep accumulating"), §8.2

    对 `model` 只做“一步”普通 SGD，所用梯度是各个微批次（micro-batch）的 MSE 损失梯度的“平均值”，
    不论大小，每个微批次的权重都是 1/n（各微批次大小相同时，它恰好等于整批数据的梯度）。
    调用之前参数上已有的梯度必须忽略。返回各微批次损失的平均值（Python float）。（超出本课范围。）
    陷阱：有意识地累积梯度时有三个坑：忘了把每个损失除以微批次的个数（步子大了 n 倍）、
    在循环里面清空梯度（只剩最后一个微批次起作用）、在 `.grad` 里残留的旧梯度上继续累加。
    示例：x、y 各有 8 行时，accumulated_step(model, [(x[:4], y[:4]), (x[4:], y[4:])], 0.1)
          对 `model` 的改变与在整批 (x, y) 上做一步 SGD 完全相同；返回值例如 0.73
    讲义（docs/lesson.zh.md）：§7（“梯度不断累积”那一行）、§8.2
    """
    raise NotImplementedError("accumulated_step: not implemented yet / 尚未实现")


def grad_at(f, x: torch.Tensor) -> torch.Tensor:
    """The gradient d f(x).sum() / dx at `x` (a float tensor of any shape), same shape as `x`.
    `x` itself is left untouched: it does not start requiring grad and its `.grad` stays None;
    calling grad_at twice with the same `f` and `x` gives the same answer.

    Pitfall: calling `x.requires_grad_()` on the caller's tensor changes it, and reusing one
    leaf makes `.grad` ACCUMULATE across calls (the second call returns twice the gradient).
    Work on a fresh leaf of your own (a detached copy of `x`), or use torch.autograd.grad.
    Example: grad_at(lambda t: t ** 2, torch.tensor([1.0, 3.0])) -> tensor([2., 6.])
    Lesson (docs/lesson.md): §4.5, §8.2

    返回 d f(x).sum() / dx 在 `x` 处的值（`x` 是任意形状的浮点张量），形状与 `x` 相同。
    `x` 本身保持原样：不能让它变成 requires_grad，它的 `.grad` 也要保持为 None；
    用相同的 `f` 和 `x` 调用两次，结果应当相同。
    陷阱：对调用者的张量调用 `x.requires_grad_()` 会改掉它；反复使用同一个叶子张量时，
    `.grad` 会在多次调用之间不断累加（第二次调用返回两倍的梯度）。请在你自己新建的叶子张量
    （`x` 脱离计算图后的副本）上求导，或者使用 torch.autograd.grad。
    示例：grad_at(lambda t: t ** 2, torch.tensor([1.0, 3.0])) -> tensor([2., 6.])
    讲义（docs/lesson.zh.md）：§4.5、§8.2
    """
    raise NotImplementedError("grad_at: not implemented yet / 尚未实现")
