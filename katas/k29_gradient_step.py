"""k29_gradient_step: the gradient step / 梯度下降的一步

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k29` (score) or `pytest tests/test_k29_gradient_step.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k29`
（查看得分）或 `pytest tests/test_k29_gradient_step.py`（查看详情）检查。
Lesson notes (lesson 2, autograd and linear regression): §3.2, §3.3, §5.1 in docs/lesson2.md.
讲义（第 2 课：自动求导与线性回归）：docs/lesson2.zh.md 的 §3.2、§3.3、§5.1。
"""

import torch


def descend_(w: torch.Tensor, b: torch.Tensor, x: torch.Tensor, y: torch.Tensor, lr: float) -> float:
    """One gradient-descent step on the mean squared error of the linear model x @ w + b against `y`,
    IN PLACE: `w` (D,) and `b` (0-dim) are leaves that require grad (with no gradient yet); afterwards
    they hold w - lr * dL/dw and b - lr * dL/db, are still the same leaves, and their `.grad` is None
    again, ready for the next step. `x` is (N, D), `y` is (N,). Return the loss before the step as a
    Python float.

    Pitfall: an in-place update of `w` while autograd records raises "a leaf Variable that requires
    grad is being used in an in-place operation"; `w = w - lr * w.grad` only rebinds a name; `+` goes uphill.
    Example: w = torch.zeros(1, requires_grad=True); b = torch.zeros((), requires_grad=True)
             descend_(w, b, torch.tensor([[0.0], [1.0], [2.0], [3.0]]), torch.tensor([1.0, 3.0, 5.0, 7.0]), 0.1)
             -> 21.0; then w is tensor([1.7000], requires_grad=True) and b tensor(0.8000, requires_grad=True)
    Lesson (docs/lesson2.md): §3.3, §5.1

    对线性模型 x @ w + b 与 `y` 之间的均方误差做一步梯度下降，并且是“原地”更新：`w`（D,）和 `b`（0 维）
    是需要梯度的叶子张量（还没有梯度）；之后它们装着 w - lr * dL/dw 和 b - lr * dL/db，仍然是原来的叶子张量，
    它们的 `.grad` 重新变为 None，为下一步做好准备。`x` 是 (N, D)，`y` 是 (N,)。用 Python float 返回
    更新之前的损失。
    陷阱：在自动求导记录时原地更新 `w` 会报错 “a leaf Variable that requires grad is being used
    in an in-place operation”；`w = w - lr * w.grad` 只是重新绑定了一个名字；用 `+` 就是往上坡走。
    示例：w = torch.zeros(1, requires_grad=True); b = torch.zeros((), requires_grad=True)
          descend_(w, b, torch.tensor([[0.0], [1.0], [2.0], [3.0]]), torch.tensor([1.0, 3.0, 5.0, 7.0]), 0.1)
          -> 21.0；之后 w 是 tensor([1.7000], requires_grad=True)，b 是 tensor(0.8000, requires_grad=True)
    讲义（docs/lesson2.zh.md）：§3.3、§5.1
    """
    raise NotImplementedError("descend_: not implemented yet / 尚未实现")


def stepped(params: list, lr: float) -> list:
    """One gradient-descent step written without changing anything: for each leaf `p` in `params` (it
    requires grad and its `.grad` holds a gradient) a NEW leaf holding p - lr * p.grad that requires grad
    and has no history, so that the next backward() fills its `.grad`. Returns the new tensors as a list,
    in order; the tensors in `params` stay as they were.

    Pitfall: `p - lr * p.grad` is the result of a subtraction, not a leaf: the next backward() stores no
    `.grad` in it (it stays None) and every earlier step's graph stays attached; `.detach()` is what
    makes it a tensor of its own.
    Example: p = torch.tensor([1.0, 2.0], requires_grad=True); p.grad = torch.tensor([0.5, -1.0])
             stepped([p], 0.1) -> [tensor([0.9500, 2.1000], requires_grad=True)]
    Lesson (docs/lesson2.md): §3.2, §5.1

    不改动任何东西地做一步梯度下降：对 `params` 里的每个叶子张量 `p`（它需要梯度，`.grad` 里装着梯度），
    返回一个装着 p - lr * p.grad 的“新”叶子张量，它需要梯度，没有历史，这样下一次 backward() 就会填充它的
    `.grad`。按原来的顺序以列表返回这些新张量；`params` 里的张量保持原样。
    陷阱：`p - lr * p.grad` 是一次减法的结果，不是叶子张量：下一次 backward() 不会在它的 `.grad` 里存梯度
    （一直是 None），之前每一步的计算图也都还连在上面；`.detach()` 才能让它成为一个独立的张量。
    示例：p = torch.tensor([1.0, 2.0], requires_grad=True); p.grad = torch.tensor([0.5, -1.0])
          stepped([p], 0.1) -> [tensor([0.9500, 2.1000], requires_grad=True)]
    讲义（docs/lesson2.zh.md）：§3.2、§5.1
    """
    raise NotImplementedError("stepped: not implemented yet / 尚未实现")
