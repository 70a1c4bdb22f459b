"""k24_nonleaf_grads: gradients of non-leaves and of inputs / 非叶子张量和输入的梯度

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k24` (score) or `pytest tests/test_k24_nonleaf_grads.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k24`
（查看得分）或 `pytest tests/test_k24_nonleaf_grads.py`（查看详情）检查。
Lesson notes (lesson 2, autograd and linear regression): §1.2, §2.4, §3.4 in docs/lesson2.md.
讲义（第 2 课：自动求导与线性回归）：docs/lesson2.zh.md 的 §1.2、§2.4、§3.4。
"""

import torch
from torch import nn


def hidden_grad(model: nn.Sequential, x: torch.Tensor) -> torch.Tensor:
    """The gradient of model(x).sum() with respect to h, the output of the model's first layer
    `model[0]` on `x`: a tensor of h's shape. (`model` is an nn.Sequential; the gradients its parameters get along
    the way do not matter here.) The caller's model may come with some layers frozen, `model[0]` included, with
    stale gradients and in either mode: the gradient at h is still asked for, and the model keeps its mode and
    its parameters' requires_grad flags. `x` is data and stays as it is; the result is data too: it does not
    require grad.

    Pitfall: h is computed, not created: it is not a leaf, and backward() keeps `.grad` for leaves only,
    so `h.grad` is None (with a warning) unless it was asked to keep it.
    Example: hidden_grad(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), torch.randn(5, 3))
             -> a (5, 4) tensor
    Lesson (docs/lesson2.md): §1.2, §2.4

    求 model(x).sum() 对 h（模型第一层 `model[0]` 在 `x` 上的输出）的梯度：返回形状与 h 相同的张量。
    （`model` 是一个 nn.Sequential；它的参数在此过程中得到的梯度在这里无关紧要。）调用者的模型可能有几层被冻结
    （`model[0]` 也可能在内），可能带着旧梯度，也可能处在任一种模式：仍然要给出 h 处的梯度，模型也保持它的模式
    和参数的 requires_grad 标志。`x` 是数据，保持原样；返回值也是数据：它不需要梯度。
    陷阱：h 是计算出来的，不是新建的：它不是叶子张量，而 backward() 只为叶子张量保留 `.grad`，
    所以除非事先要求保留，否则 `h.grad` 是 None（同时给出警告）。
    示例：hidden_grad(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), torch.randn(5, 3))
          -> 一个 (5, 4) 的张量
    讲义（docs/lesson2.zh.md）：§1.2、§2.4
    """
    raise NotImplementedError("hidden_grad: not implemented yet / 尚未实现")


def input_saliency(model: nn.Module, x: torch.Tensor) -> torch.Tensor:
    """The gradient of model(x).sum() with respect to the input `x`: a tensor of `x`'s shape (how much each
    input value moves the output). `x` is data: it does not require grad and must stay as it is (an `x`
    that does require grad, an input being optimised, keeps its flag and its `.grad`). The model is left as
    it was found: its mode, its parameters' requires_grad flags and their `.grad` (None stays None, and a
    stale gradient from an earlier backward stays as it was). The result is data: it does not require grad.

    Pitfall: `x` does not require grad, so after backward() `x.grad` is None; and backward() fills every
    parameter's `.grad` on the way, which a caller's next optimizer step would use.
    Example: input_saliency(nn.Linear(3, 1), torch.randn(4, 3)) -> a (4, 3) tensor whose rows all equal
             the layer's weight
    Lesson (docs/lesson2.md): §2.4, §3.4

    求 model(x).sum() 对输入 `x` 的梯度：返回形状与 `x` 相同的张量（每个输入值对输出的影响有多大）。
    `x` 是数据：它不需要梯度，而且必须保持原样（如果 `x` 本来就需要梯度，比如一个正在被优化的输入，它的标志和
    `.grad` 也都保持原样）。模型也要保持原来的样子：它的模式、参数的 requires_grad 标志以及参数的 `.grad`
    （原来是 None 的仍是 None，之前一次 backward 留下的旧梯度也保持不变）。返回值是数据：它不需要梯度。
    陷阱：`x` 没有打开 requires_grad，所以 backward() 之后 `x.grad` 是 None；而且 backward() 会顺带填充每个参数的
    `.grad`，调用者的下一步优化就会用到它们。
    示例：input_saliency(nn.Linear(3, 1), torch.randn(4, 3)) -> 一个 (4, 3) 的张量，每一行都等于这一层的权重
    讲义（docs/lesson2.zh.md）：§2.4、§3.4
    """
    raise NotImplementedError("input_saliency: not implemented yet / 尚未实现")
