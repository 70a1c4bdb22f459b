"""k33_modules: what nn.Module registers / nn.Module 登记了什么

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k33` (score) or `pytest tests/test_k33_modules.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k33`
（查看得分）或 `pytest tests/test_k33_modules.py`（查看详情）检查。
Lesson notes (lesson 3, modules, data and the training loop): §1.1 in docs/lesson3.md.
讲义（第 3 课：模块、数据与训练循环）：docs/lesson3.zh.md 的 §1.1。
"""

import torch
from torch import nn


def stacked_layers(sizes: list, device: torch.device) -> nn.Module:
    """Return ONE module holding the layers nn.Linear(sizes[0], sizes[1]), nn.Linear(sizes[1], sizes[2]),
    ... in that order, created on `device`, such that the module's .parameters() yields every layer's
    weight and bias (so that an optimizer given them trains them all, and .to() moves them all).

    Pitfall: keeping the layers in a plain Python list inside a module: nn.Module registers only the
    modules it is given as attributes or in its own containers, so a list's layers own parameters
    the module never reports.
    Example: len(list(stacked_layers([3, 4, 2], torch.device("cpu")).parameters())) -> 4
    Lesson (docs/lesson3.md): §1.1

    返回“一个”模块，按顺序装着 nn.Linear(sizes[0], sizes[1])、nn.Linear(sizes[1], sizes[2])……这些层，
    建在 `device` 上，并且这个模块的 .parameters() 要给出每一层的权重和偏置（这样交给优化器时每一层都会被
    训练，调用 .to() 时每一层都会被移动）。
    陷阱：在模块里用普通的 Python 列表存放这些层：nn.Module 只登记作为属性或放在它自己的容器里的子模块，
    列表里的层虽然有参数，模块却从不报告它们。
    示例：len(list(stacked_layers([3, 4, 2], torch.device("cpu")).parameters())) -> 4
    讲义（docs/lesson3.zh.md）：§1.1
    """
    raise NotImplementedError("stacked_layers: not implemented yet / 尚未实现")


def count_parameters(model: nn.Module, trainable_only: bool = False) -> int:
    """Return how many numbers `model` learns: the total number of ELEMENTS of its parameters, as a
    Python int; with `trainable_only`, only of those parameters that require a gradient (frozen ones,
    requires_grad=False, are left out).

    Pitfall: counting the parameter tensors (len(list(model.parameters()))) instead of their
    elements, or counting frozen parameters as trainable.
    Example: count_parameters(nn.Linear(3, 2)) -> 8 (a 2 x 3 weight and a bias of 2)
    Lesson (docs/lesson3.md): §1.2

    返回 `model` 要学习的数的个数：它所有参数的“元素”总数，用 Python int 表示；`trainable_only` 为真时，
    只计算需要梯度的参数（被冻结的参数，即 requires_grad=False 的，不计入）。
    陷阱：数的是参数张量的个数（len(list(model.parameters()))），而不是它们的元素个数；或者把冻结的参数
    也算作可训练的参数。
    示例：count_parameters(nn.Linear(3, 2)) -> 8（2 x 3 的权重加上 2 个偏置）
    讲义（docs/lesson3.zh.md）：§1.2
    """
    raise NotImplementedError("count_parameters: not implemented yet / 尚未实现")
