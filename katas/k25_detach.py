"""k25_detach: constants in the graph, frozen parameters / 计算图里的常量与冻结的参数

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k25` (score) or `pytest tests/test_k25_detach.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k25`
（查看得分）或 `pytest tests/test_k25_detach.py`（查看详情）检查。
Lesson notes (lesson 2, autograd and linear regression): §3.2, §3.4 in docs/lesson2.md.
讲义（第 2 课：自动求导与线性回归）：docs/lesson2.zh.md 的 §3.2、§3.4。
"""

import torch
import torch.nn.functional as F
from torch import nn


def consistency_loss(model: nn.Module, x: torch.Tensor, noise: torch.Tensor) -> torch.Tensor:
    """The mean squared error between model(x + noise) and model(x), where model(x) is a FIXED target:
    a 0-dim tensor with its graph, through which backward() sends gradients along model(x + noise)
    only (a consistency loss: the model should give the same answer for a slightly noisy input). The model
    is used as the caller hands it over (in train or eval mode, some layers frozen or none) and keeps its
    mode and every parameter's requires_grad flag.

    Pitfall: with the target left in the graph, backward() also pulls model(x) towards model(x + noise),
    and the gradients differ; a target is a constant.
    Example: consistency_loss(model, x, 0.1 * torch.randn_like(x)) -> tensor(0.0021, grad_fn=<MseLossBackward0>)
    Lesson (docs/lesson2.md): §3.2

    计算 model(x + noise) 与 model(x) 之间的均方误差，其中 model(x) 是“固定的”目标：返回一个带计算图的
    0 维张量，backward() 经过它只沿着 model(x + noise) 传回梯度（一种一致性损失：对于带一点噪声的输入，
    模型应当给出相同的答案）。模型按调用者交来的样子使用（train 或 eval 模式，可能有几层被冻结），并保持它的模式和
    每个参数的 requires_grad 标志。
    陷阱：如果目标留在计算图里，backward() 也会把 model(x) 拉向 model(x + noise)，梯度就不一样了；
    目标是一个常量。
    示例：consistency_loss(model, x, 0.1 * torch.randn_like(x)) -> tensor(0.0021, grad_fn=<MseLossBackward0>)
    讲义（docs/lesson2.zh.md）：§3.2
    """
    raise NotImplementedError("consistency_loss: not implemented yet / 尚未实现")


def freeze_(model: nn.Module) -> None:
    """Freeze `model` in place: afterwards none of its parameters requires grad, so backward() and an
    optimizer leave them alone. The parameters keep their values and the model its train/eval mode.
    Returns None.

    Pitfall: `model.requires_grad = False` only sets an ordinary attribute on the module (no parameter
    changes), and `model.eval()` switches dropout and batch-norm, not gradients.
    Example: freeze_(layer); [p.requires_grad for p in layer.parameters()] -> [False, False]
    Lesson (docs/lesson2.md): §3.4

    原地冻结 `model`：之后它的参数都不需要梯度，backward() 和优化器都不会再动它们。参数保持原来的数值，
    模型保持原来的 train/eval 模式。返回 None。
    陷阱：`model.requires_grad = False` 只是给模块设了一个普通属性（没有哪个参数发生变化），
    而 `model.eval()` 切换的是 dropout 和 批归一化，而不是梯度。
    示例：freeze_(layer); [p.requires_grad for p in layer.parameters()] -> [False, False]
    讲义（docs/lesson2.zh.md）：§3.4
    """
    raise NotImplementedError("freeze_: not implemented yet / 尚未实现")
