"""k01_creation: creating tensors / 创建张量

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k01` (score) or `pytest tests/test_k01_creation.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k01`
（查看得分）或 `pytest tests/test_k01_creation.py`（查看详情）检查。
Lesson notes: §3, §4.3, §4.4 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §3、§4.3、§4.4。
"""

import torch


def arange_inclusive(start: int, end: int, step: int = 1) -> torch.Tensor:
    """int64 integers from `start` up to and INCLUDING `end` (when a step lands on it); step > 0.

    Pitfall: `torch.arange(start, end, step)` stops before `end`.
    Example: arange_inclusive(1, 10, 3) -> tensor([1, 4, 7, 10]);
             arange_inclusive(0, 10, 3) -> tensor([0, 3, 6, 9])
    Lesson (docs/lesson.md): §3.4

    从 `start` 开始、到 `end` 为止（步长恰好落在 `end` 上时包含 `end`）的 int64 整数序列，step > 0。
    陷阱：`torch.arange(start, end, step)` 不包含 `end`。
    示例：arange_inclusive(1, 10, 3) -> tensor([1, 4, 7, 10])；
          arange_inclusive(0, 10, 3) -> tensor([0, 3, 6, 9])
    讲义（docs/lesson.zh.md）：§3.4
    """
    raise NotImplementedError("arange_inclusive: not implemented yet / 尚未实现")


def evenly_spaced(start: float, end: float, count: int) -> torch.Tensor:
    """`count` evenly spaced float32 points from `start` to `end`, both ends included.

    Pitfall: `torch.arange(start, end, step)` leaves `end` out, and with a float step its
    NUMBER of points is the ceiling of `(end - start) / step`, computed in floating point:
    `torch.arange(0, 0.3, 0.1)` has 3 points (0.3 is missing), `torch.arange(1, 1.3, 0.1)` has
    4 (the last one is 1.3), and a stop of `end + step` makes one point too many for
    evenly_spaced(1.0, 1.3, 4). Think in number of points, not step size.
    Example: evenly_spaced(0.0, 1.0, 5) -> tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
    Lesson (docs/lesson.md): §3.4

    从 `start` 到 `end`（两端都包含）均匀分布的 `count` 个 float32 数。
    陷阱：`torch.arange(start, end, step)` 不包含 `end`，而且用浮点步长时，点的“个数”是
    `(end - start) / step` 向上取整，而这个除法是用浮点数算的：`torch.arange(0, 0.3, 0.1)` 有 3 个点
    （缺了 0.3），`torch.arange(1, 1.3, 0.1)` 却有 4 个点，最后一个就是 1.3；把终点设为 `end + step`，
    evenly_spaced(1.0, 1.3, 4) 又会多出一个点。应该按“点数”而不是“步长”来想。
    示例：evenly_spaced(0.0, 1.0, 5) -> tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
    讲义（docs/lesson.zh.md）：§3.4
    """
    raise NotImplementedError("evenly_spaced: not implemented yet / 尚未实现")


def filled(shape: tuple, value: float) -> torch.Tensor:
    """A float32 tensor of `shape` filled with `value`, also when `value` is an int like 7. It is
    an ordinary tensor with memory of its own, one element per position: the caller may write
    into it, and setting one element changes only that element.

    Pitfall: `torch.full(shape, 7)` infers int64 from the int fill value. And
    `torch.tensor(7.0).expand(shape)` is no such tensor: it is a view in which every position
    reads the same single number (stride 0), so writing one element changes them all.
    Example: filled((2, 3), 7) -> 2x3 tensor of 7.0, dtype float32
    Lesson (docs/lesson.md): §3.5, §4.3

    形状为 `shape`、全部填充 `value` 的 float32 张量；`value` 是整数（如 7）时也一样。它是一个
    拥有自己内存的普通张量，每个位置一个元素：调用者可以往里写，改一个元素只会改变这一个元素。
    陷阱：`torch.full(shape, 7)` 会根据整数填充值推断出 int64。而 `torch.tensor(7.0).expand(shape)`
    不是这样的张量：它是一个视图，所有位置读的都是同一个数（步长为 0），改一个元素，所有元素都跟着变。
    示例：filled((2, 3), 7) -> 2x3、值为 7.0 的 float32 张量
    讲义（docs/lesson.zh.md）：§3.5、§4.3
    """
    raise NotImplementedError("filled: not implemented yet / 尚未实现")


def mask_like(x: torch.Tensor) -> torch.Tensor:
    """A bool tensor of False with the same shape AND device as `x`, whatever values `x` holds
    (NaN and inf included).

    Pitfall: `torch.zeros(x.shape)` is float32 and lands on the default device (cpu),
    not on `x`'s device. A mask computed from the values, such as `x != x`, is not all False:
    NaN is not equal to itself.
    Example: mask_like(torch.ones(2, 3, device="cuda")) -> 2x3 False, bool, on cuda
    Lesson (docs/lesson.md): §3.2, §4.4

    返回与 `x` 形状相同、设备也相同的全 False 布尔张量，不管 `x` 里是什么值（包括 NaN 和 inf）。
    陷阱：`torch.zeros(x.shape)` 是 float32，而且放在默认设备（cpu）上，而不是 `x` 所在的设备。
    用数值算出来的掩码（例如 `x != x`）并不全是 False：NaN 不等于它自己。
    示例：mask_like(torch.ones(2, 3, device="cuda")) -> 2x3 的 False，bool，位于 cuda
    讲义（docs/lesson.zh.md）：§3.2、§4.4
    """
    raise NotImplementedError("mask_like: not implemented yet / 尚未实现")
