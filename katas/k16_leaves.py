"""k16_leaves: leaves and trainable tensors / 叶子张量与可训练张量

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k16` (score) or `pytest tests/test_k16_leaves.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k16`
（查看得分）或 `pytest tests/test_k16_leaves.py`（查看详情）检查。
Lesson notes: §3.6, §4.5 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §3.6、§4.5。
"""

import torch


def trainable(values) -> torch.Tensor:
    """A NEW float32 leaf tensor with requires_grad=True holding `values`.

    `values` is a nested list of ints/floats, or a tensor of any dtype. The result lives on the
    input tensor's device (cpu for lists), shares no memory with the input, has no autograd
    history and never changes the input.
    Pitfall: int tensors cannot require grad; and `t.float()` returns `t` itself when `t` is
    already float32, so `t.float().requires_grad_()` flips the caller's tensor.
    Example: trainable([[1, 2], [3, 4]]) -> tensor([[1., 2.], [3., 4.]], requires_grad=True)
    Lesson (docs/lesson.md): §3.6, §4.5

    返回一个新的 float32 叶子张量，requires_grad=True，内容为 `values`。
    `values` 可以是整数/浮点数的嵌套列表，也可以是任意 dtype 的张量。结果放在输入张量所在的设备上
    （列表则放在 cpu），不与输入共享内存，没有计算图历史，也绝不修改输入。
    陷阱：整数张量不能需要梯度（不能打开 requires_grad）；而当 `t` 已经是 float32 时 `t.float()` 返回的就是 `t` 本身，
    所以 `t.float().requires_grad_()` 会把调用者的张量也改掉。
    示例：trainable([[1, 2], [3, 4]]) -> tensor([[1., 2.], [3., 4.]], requires_grad=True)
    讲义（docs/lesson.zh.md）：§3.6、§4.5
    """
    raise NotImplementedError("trainable: not implemented yet / 尚未实现")


def init_weight(shape: tuple, std: float, seed: int) -> torch.Tensor:
    """A float32 LEAF with requires_grad=True holding `torch.randn(shape, generator=g) * std`,
    where `g` is a new `torch.Generator` seeded with `seed` (its `manual_seed` method). The global
    random number generator is left alone. (Beyond the lesson.)

    Pitfall: `torch.randn(..., requires_grad=True) * std` is the result of a multiplication,
    not a leaf, so its `.grad` stays None after backward().
    Example: init_weight((2, 2), 0.01, 0).is_leaf -> True
    Lesson (docs/lesson.md): §4.5

    返回一个 float32 叶子张量，requires_grad=True，值为 `torch.randn(shape, generator=g) * std`，
    其中 `g` 是新建的、以 `seed` 为种子的 `torch.Generator`（用它的 `manual_seed` 方法）。
    不要动全局随机数生成器。（超出本课范围。）
    陷阱：`torch.randn(..., requires_grad=True) * std` 是乘法的结果而不是叶子张量，
    backward() 之后它的 `.grad` 仍然是 None。
    示例：init_weight((2, 2), 0.01, 0).is_leaf -> True
    讲义（docs/lesson.zh.md）：§4.5
    """
    raise NotImplementedError("init_weight: not implemented yet / 尚未实现")
