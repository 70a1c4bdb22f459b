"""k17_inplace_autograd: in-place operations and autograd / 原地操作与自动求导

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k17` (score) or `pytest tests/test_k17_inplace_autograd.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k17`
（查看得分）或 `pytest tests/test_k17_inplace_autograd.py`（查看详情）检查。
Lesson notes: §8.2 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §8.2。
"""

import torch


def sgd_update_(params: list, lr: float) -> None:
    """For each leaf tensor `p` in `params` (requires_grad=True, `.grad` already computed), do
    the update p ← p - lr · p.grad IN PLACE: the caller's tensor objects change, in their own memory; each
    `p` stays a leaf with requires_grad=True, and its `.grad` is left as it was. Returns None.

    Pitfall: an in-place update (`-=`, `sub_`) of a leaf that requires grad raises "a leaf
    Variable that requires grad is being used in an in-place operation" unless autograd is
    switched off (`with torch.no_grad():`); and `p = p - lr * p.grad` only rebinds the local
    name `p`: the caller's tensors do not change at all. Autograd must record again after the
    call, as it did before.
    Example: w = torch.tensor([1.0, 2.0], requires_grad=True); w.grad = torch.tensor([10.0, 10.0])
             sgd_update_([w], 0.1)  ->  w is now tensor([0., 1.], requires_grad=True)
    Lesson (docs/lesson.md): §8.2

    对 `params` 中的每个叶子张量 `p`（requires_grad=True，`.grad` 已经算好）“原地”执行更新
    p ← p - lr · p.grad：改变的是调用者的张量对象本身、就在它原来的内存里；每个 `p` 仍然是
    requires_grad=True 的叶子张量，它的 `.grad` 保持不变。返回 None。
    陷阱：在 requires_grad 的叶子张量上直接做原地更新（`-=`、`sub_`）会报错 “a leaf Variable that
    requires grad is being used in an in-place operation”，除非先关闭自动求导
    （`with torch.no_grad():`）；而 `p = p - lr * p.grad` 只是让局部变量名 `p` 指向新张量，
    调用者的张量根本没有改变。调用之后，自动求导必须和调用之前一样仍在记录。
    示例：w = torch.tensor([1.0, 2.0], requires_grad=True); w.grad = torch.tensor([10.0, 10.0])
          sgd_update_([w], 0.1)  ->  w 变成 tensor([0., 1.], requires_grad=True)
    讲义（docs/lesson.zh.md）：§8.2
    """
    raise NotImplementedError("sgd_update_: not implemented yet / 尚未实现")


def doubled_sigmoid(x: torch.Tensor) -> torch.Tensor:
    """`2 * sigmoid(x)`, such that autograd can back-propagate through the result (when `x`
    requires grad, `doubled_sigmoid(x).sum().backward()` must work and give the right gradient).

    Pitfall: sigmoid saves its OUTPUT for the backward pass; doubling that output in place
    (`torch.sigmoid(x).mul_(2)`, or `s = torch.sigmoid(x); s *= 2`) makes backward() fail with
    "one of the variables needed for gradient computation has been modified by an inplace
    operation". Use out-of-place operations.
    Example: doubled_sigmoid(torch.tensor([0.0], requires_grad=True)) -> tensor([1.], grad_fn=...)
             and its backward() gives x.grad == tensor([0.5])
    Lesson (docs/lesson.md): §8.2

    计算 `2 * sigmoid(x)`，并且自动求导能够穿过这个结果反向传播（当 `x` 需要梯度时，
    `doubled_sigmoid(x).sum().backward()` 必须能运行并给出正确的梯度）。
    陷阱：sigmoid 会把自己的“输出”保存下来供反向传播使用；原地把这个输出乘 2
    （`torch.sigmoid(x).mul_(2)`，或 `s = torch.sigmoid(x); s *= 2`）会让 backward() 报错
    “one of the variables needed for gradient computation has been modified by an inplace
    operation”。请使用非原地操作。
    示例：doubled_sigmoid(torch.tensor([0.0], requires_grad=True)) -> tensor([1.], grad_fn=...)
          对它 backward() 之后 x.grad == tensor([0.5])
    讲义（docs/lesson.zh.md）：§8.2
    """
    raise NotImplementedError("doubled_sigmoid: not implemented yet / 尚未实现")
