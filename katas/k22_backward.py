"""k22_backward: calling backward / 调用 backward

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k22` (score) or `pytest tests/test_k22_backward.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k22`
（查看得分）或 `pytest tests/test_k22_backward.py`（查看详情）检查。
Lesson notes (lesson 2, autograd and linear regression): §2.1, §2.2 in docs/lesson2.md.
讲义（第 2 课：自动求导与线性回归）：docs/lesson2.zh.md 的 §2.1、§2.2。
"""

import torch


def derivative(f, x: torch.Tensor) -> torch.Tensor:
    """The derivative of the elementwise function `f` at every element of `x`: a tensor of `x`'s shape
    with `out[i] == f'(x[i])` (`x` is a float tensor of any shape; `f` works element by element, like
    `torch.sin`). `x` itself is left untouched: it does not start requiring grad, and an `x` that already
requires grad (a tensor being trained) keeps its flag and its `.grad` as they were. The result is plain
values: it does not require grad.

    Pitfall: y = f(x) is not a scalar, and `y.backward()` without an argument raises "grad can be
    implicitly created only for scalar outputs"; `y.mean().backward()` runs, but divides every
    derivative by the number of elements.
    Example: derivative(torch.sin, torch.tensor([0.0, 1.0])) -> tensor([1.0000, 0.5403])  (cos x)
    Lesson (docs/lesson2.md): §2.1, §2.2

    逐元素函数 `f` 在 `x` 每个元素处的导数：返回与 `x` 形状相同的张量，`out[i] == f'(x[i])`
    （`x` 是任意形状的浮点张量；`f` 像 `torch.sin` 一样逐元素计算）。`x` 本身保持原样：不能让它变成需要梯度；
如果 `x` 本来就需要梯度（比如一个正在训练的张量），它的标志和 `.grad` 也都保持原样。返回值是单纯的数值：它不需要梯度。
    陷阱：y = f(x) 不是标量，不带参数的 `y.backward()` 会报错 “grad can be implicitly created only for
    scalar outputs”；`y.mean().backward()` 虽然能运行，却把每个导数都除以了元素个数。
    示例：derivative(torch.sin, torch.tensor([0.0, 1.0])) -> tensor([1.0000, 0.5403])（即 cos x）
    讲义（docs/lesson2.zh.md）：§2.1、§2.2
    """
    raise NotImplementedError("derivative: not implemented yet / 尚未实现")


def backprop_upstream(f, x: torch.Tensor, upstream: torch.Tensor) -> torch.Tensor:
    """dL/dx, for a loss L that depends on `x` only through y = f(x), given `upstream` = dL/dy (a tensor of
    y's shape, as the layers after `f` would hand back). `f` need not be elementwise: it may be a running
    sum, a product with a fixed matrix, a softmax, and y may have another shape than `x`. The result has
    `x`'s shape and does not require grad; `x` itself is left untouched (an `x` that already requires grad
keeps its flag and its `.grad` as they were).

    Pitfall: `y.sum().backward()` ignores `upstream` (as if it were all ones); the argument that carries
    dL/dy is `gradient=`, and it must have y's shape.
    Example: backprop_upstream(lambda t: t.cumsum(0), torch.tensor([1.0, 2.0, 3.0]),
                               torch.tensor([1.0, 0.0, 2.0])) -> tensor([3., 2., 2.])
    Lesson (docs/lesson2.md): §2.2

    对一个只通过 y = f(x) 依赖于 `x` 的损失 L，已知 `upstream` = dL/dy（形状与 y 相同，就像 `f` 之后的各层传回来的那样），
    求 dL/dx。`f` 不一定是逐元素的：它可以是累加和、与固定矩阵的乘积、softmax，y 的形状也可以与 `x` 不同。
    返回值的形状与 `x` 相同，并且不需要梯度；`x` 本身保持原样（本来就需要梯度的 `x`，它的标志和 `.grad` 也都保持原样）。
    陷阱：`y.sum().backward()` 忽略了 `upstream`（相当于它全是 1）；传递 dL/dy 的参数是 `gradient=`，
    它的形状必须与 y 相同。
    示例：backprop_upstream(lambda t: t.cumsum(0), torch.tensor([1.0, 2.0, 3.0]),
                            torch.tensor([1.0, 0.0, 2.0])) -> tensor([3., 2., 2.])
    讲义（docs/lesson2.zh.md）：§2.2
    """
    raise NotImplementedError("backprop_upstream: not implemented yet / 尚未实现")
