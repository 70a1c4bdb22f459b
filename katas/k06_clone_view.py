"""k06_clone_view: clone vs view / 副本与视图

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k06` (score) or `pytest tests/test_k06_clone_view.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k06`
（查看得分）或 `pytest tests/test_k06_clone_view.py`（查看详情）检查。
Lesson notes: §5.1, §5.5, §7, §8.2 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §5.1、§5.5、§7、§8.2。
"""

import torch


def zero_first_row(x: torch.Tensor) -> torch.Tensor:
    """A NEW tensor equal to the 2-D tensor `x` with row 0 set to 0; `x` itself stays unchanged.

    Row 0 becomes 0 whatever it held, inf and NaN included.
    Pitfall: `y = x` only gives the same tensor a second name, and slices such as `x[:]` or
    `x[0]` are views of the same memory, so `y[0] = 0` also zeroes the caller's `x`.
    Example: zero_first_row(torch.tensor([[1, 2], [3, 4]])) -> tensor([[0, 0], [3, 4]]),
             and the input still holds [[1, 2], [3, 4]]
    Lesson (docs/lesson.md): §5.1, §7 (the slice row)

    返回一个新张量：与二维张量 `x` 相同，但第 0 行全部置 0；`x` 本身保持不变。
    不管第 0 行原来是什么（包括 inf 和 NaN），都要变成 0。
    陷阱：`y = x` 只是给同一个张量起了第二个名字，而 `x[:]`、`x[0]` 这样的切片是同一块内存的视图，
    所以 `y[0] = 0` 也会把调用者的 `x` 清零。
    示例：zero_first_row(torch.tensor([[1, 2], [3, 4]])) -> tensor([[0, 0], [3, 4]])，
          而输入仍然是 [[1, 2], [3, 4]]
    讲义（docs/lesson.zh.md）：§5.1、§7（切片那一行）
    """
    raise NotImplementedError("zero_first_row: not implemented yet / 尚未实现")


def zero_column_(x: torch.Tensor, j: int) -> None:
    """Set column `j` of the 2-D tensor `x` to 0 IN PLACE (the caller's `x` changes); return None.

    Column `j` becomes 0 whatever it held, inf and NaN included.
    Pitfall: writing into `x[:, j].clone()` changes only the copy, and `x = ...` inside the
    function only rebinds a local name: in both cases the caller's tensor stays as it was.
    Example: x = torch.ones(2, 3); zero_column_(x, 1)  ->  x is tensor([[1., 0., 1.], [1., 0., 1.]])
    Lesson (docs/lesson.md): §5.1

    原地把二维张量 `x` 的第 `j` 列置 0（调用者的 `x` 要被改变）；返回 None。
    不管第 `j` 列原来是什么（包括 inf 和 NaN），都要变成 0。
    陷阱：往 `x[:, j].clone()` 里写只会改掉副本，而在函数里写 `x = ...` 只是让局部变量指向别的对象：
    这两种写法都不会改变调用者的张量。
    示例：x = torch.ones(2, 3); zero_column_(x, 1)  ->  x 变成 tensor([[1., 0., 1.], [1., 0., 1.]])
    讲义（docs/lesson.zh.md）：§5.1
    """
    raise NotImplementedError("zero_column_: not implemented yet / 尚未实现")


def clipped(x: torch.Tensor, limit: float) -> torch.Tensor:
    """A NEW tensor with the values of `x` clamped to [-limit, limit]; `x` stays unchanged.

    Pitfall: `x.clamp_(...)` (trailing underscore) clamps the caller's tensor in place and
    returns that very tensor.
    Example: clipped(torch.tensor([-3.0, 0.5, 2.0]), 1.0) -> tensor([-1.0, 0.5, 1.0]),
             and the input still holds [-3.0, 0.5, 2.0]
    Lesson (docs/lesson.md): §5.1, §8.2

    返回一个新张量：把 `x` 的值限制在 [-limit, limit] 之内；`x` 保持不变。
    陷阱：`x.clamp_(...)`（末尾带下划线）会原地修改调用者的张量，并且返回的正是这个张量。
    示例：clipped(torch.tensor([-3.0, 0.5, 2.0]), 1.0) -> tensor([-1.0, 0.5, 1.0])，
          而输入仍然是 [-3.0, 0.5, 2.0]
    讲义（docs/lesson.zh.md）：§5.1、§8.2
    """
    raise NotImplementedError("clipped: not implemented yet / 尚未实现")


def snapshot(x: torch.Tensor) -> torch.Tensor:
    """`x`'s current values as a tensor detached from autograd (requires_grad False, no
    grad_fn) that later in-place changes to `x` do not affect. `x` may require grad.

    Pitfall: `x.detach()` leaves the graph but still shares memory with `x`, so `x.add_(1)`
    later shows in it; `x.clone()` copies but stays in the autograd graph.
    Example: s = snapshot(w); with torch.no_grad(): w.add_(1)  ->  `s` still holds the old values
    Lesson (docs/lesson.md): §5.5, §8.2

    返回 `x` 当前值的张量：已从计算图中分离（requires_grad 为 False，没有 grad_fn），
    之后对 `x` 的原地修改也不会影响它。`x` 可能需要梯度。
    陷阱：`x.detach()` 虽然离开了计算图，但仍与 `x` 共享内存，之后的 `x.add_(1)` 会出现在它里面；
    `x.clone()` 复制了数据，却仍然留在计算图中。
    示例：s = snapshot(w); with torch.no_grad(): w.add_(1)  ->  `s` 仍然是原来的值
    讲义（docs/lesson.zh.md）：§5.5、§8.2
    """
    raise NotImplementedError("snapshot: not implemented yet / 尚未实现")
