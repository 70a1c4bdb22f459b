"""k23_retain_graph: one graph, used more than once / 一张计算图用不止一次

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k23` (score) or `pytest tests/test_k23_retain_graph.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k23`
（查看得分）或 `pytest tests/test_k23_retain_graph.py`（查看详情）检查。
Lesson notes (lesson 2, autograd and linear regression): §2.3, §2.5, §3.2 in docs/lesson2.md.
讲义（第 2 课：自动求导与线性回归）：docs/lesson2.zh.md 的 §2.3、§2.5、§3.2。
"""

import torch
import torch.nn.functional as F
from torch import nn


def two_loss_grads(model: nn.Linear, x: torch.Tensor) -> tuple:
    """Run `model` ONCE on `x`, and return the tuple (dA/dW, dB/dW) for the two losses A = out.mean()
    and B = (out ** 2).mean() of its output `out`, W being `model.weight`: each the gradient of its own loss
    alone, of W's shape. The model may come in with a `.grad` from an earlier backward, in either mode:
    each gradient is still its own loss's alone. The two gradients are data: they do not require grad, and
    they are copies of their own, which the caller's next backward() leaves as they are. The model keeps its
    mode, its parameters and their requires_grad flags (what its `.grad` holds afterwards is not part of the
    contract).

    Pitfall: the first backward() frees the graph, so a second backward() through the same `out` raises
    "Trying to backward through the graph a second time"; and backward() ADDS to `.grad`, so the
    second gradient read from `model.weight.grad` holds both.
    Example: two_loss_grads(nn.Linear(3, 2), torch.randn(5, 3)) -> (tensor of shape (2, 3), tensor of shape (2, 3))
    Lesson (docs/lesson2.md): §2.3, §2.5

    只在 `x` 上运行一次 `model`，返回元组 (dA/dW, dB/dW)，其中两个损失是它的输出 `out` 的 A = out.mean()
    和 B = (out ** 2).mean()，W 是 `model.weight`：每个都是它自己那个损失单独的梯度，形状与 W 相同。
    模型传进来时可能带着之前一次 backward 留下的 `.grad`，也可能处在任一种模式：每个梯度仍然只是它自己那个损失的梯度。
    这两个梯度是数据：它们不需要梯度，并且是各自独立的副本，调用者的下一次 backward() 不会改变它们。模型保持
    它的模式、它的参数以及参数的 requires_grad 标志（调用之后它的 `.grad` 里是什么，不属于约定的内容）。
    陷阱：第一次 backward() 会释放计算图，所以第二次经过同一个 `out` 的 backward() 会报错
    “Trying to backward through the graph a second time”；而且 backward() 会“累加”到 `.grad` 上，
    所以从 `model.weight.grad` 读出的第二个梯度里包含了两个梯度。
    示例：two_loss_grads(nn.Linear(3, 2), torch.randn(5, 3)) -> （形状为 (2, 3) 的张量，形状为 (2, 3) 的张量）
    讲义（docs/lesson2.zh.md）：§2.3、§2.5
    """
    raise NotImplementedError("two_loss_grads: not implemented yet / 尚未实现")


def fit_head(encoder: nn.Module, head: nn.Linear, x: torch.Tensor, y: torch.Tensor, lr: float, steps: int) -> list:
    """Train `head` alone on the features of `encoder`, which is not trained: compute `encoder(x)` ONCE, before the
    loop, then take `steps` plain SGD steps over `head.parameters()` (learning rate `lr`, no momentum;
    torch.optim.SGD is the tool meant) on the mean-squared-error loss of head(features) against `y`.
    Return each step's loss, measured before its update, as a list of Python floats. `head` is updated
    in place, as a training function's model is; the encoder's parameters stay as they were and get no
    gradient, and `x` and `y` are left unchanged. The head may come in with a stale `.grad` from an earlier
    backward, which no step may follow. The encoder is used as the caller hands it over (some layers
    frozen or none, in train or eval mode) and keeps its mode and its requires_grad flags.

    Pitfall: the features computed once from encoder(x) WITH their graph: the first backward() runs on into the
    encoder and frees that part of the graph, so the second step raises "Trying to backward through
    the graph a second time". The features of an encoder that is not trained are data: no graph.
    Example: fit_head(encoder, nn.Linear(4, 1), x, y, 0.1, 3) -> e.g. [0.91, 0.74, 0.62]
    Lesson (docs/lesson2.md): §2.3, §3.2

    在不参与训练的 `encoder` 的特征上只训练 `head`：在循环之前只计算一次 `encoder(x)`，然后用均方误差损失
    （head(features) 对 `y`）对 `head.parameters()` 做 `steps` 步普通 SGD（学习率为 `lr`，不带动量；
    本意是用 torch.optim.SGD）。返回每一步在参数更新之前的损失值，组成 Python float 列表。和训练函数的模型一样，
    `head` 被原地更新；编码器的参数保持原样，也不会得到梯度，`x` 和 `y` 保持不变。输出层传进来时可能带着之前一次
    backward 留下的旧 `.grad`，任何一步都不能沿着它走。编码器按调用者交来的样子使用（可能有几层被冻结，也可能处在
    train 或 eval 模式），并保持它的模式和 requires_grad 标志。
    陷阱：由 encoder(x) 只计算一次特征，却带着它们的计算图：第一次 backward() 会一直传进编码器，并释放那部分
    计算图，于是第二步就会报错 “Trying to backward through the graph a second time”。不参与训练的编码器给出的特征
    就是数据：不需要计算图。
    示例：fit_head(encoder, nn.Linear(4, 1), x, y, 0.1, 3) -> 例如 [0.91, 0.74, 0.62]
    讲义（docs/lesson2.zh.md）：§2.3、§3.2
    """
    raise NotImplementedError("fit_head: not implemented yet / 尚未实现")
