"""k13_numpy_bridge: NumPy and tensors / NumPy 与张量互转

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k13` (score) or `pytest tests/test_k13_numpy_bridge.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k13`
（查看得分）或 `pytest tests/test_k13_numpy_bridge.py`（查看详情）检查。
Lesson notes: §3.1, §5.5, §7 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §3.1、§5.5、§7。
"""

import numpy as np
import torch


def to_numpy(t: torch.Tensor) -> np.ndarray:
    """`t`'s values as a NumPy array with the matching dtype (float32 -> float32, int64 -> int64,
    bool -> bool), also when `t` requires grad or lives on a GPU.

    Pitfall: `t.numpy()` raises "Can't call numpy() on Tensor that requires grad" for a tensor
    in the autograd graph, and "can't convert cuda:0 device type tensor to numpy" for a GPU
    tensor: NumPy only knows plain CPU memory.
    Example: to_numpy(torch.tensor([1.0, 2.0], requires_grad=True)) -> array([1., 2.], dtype=float32)
    Lesson (docs/lesson.md): §5.5, §7 (the `.numpy()` row)

    把 `t` 的值转成 NumPy 数组，dtype 保持一致（float32 -> float32，int64 -> int64，bool -> bool）；
    `t` 需要梯度或者在 GPU 上时也要能转换。
    陷阱：对计算图中的张量调用 `t.numpy()` 会报 "Can't call numpy() on Tensor that requires grad"，
    对 GPU 张量则会报 "can't convert cuda:0 device type tensor to numpy"：NumPy 只认识普通的 CPU 内存。
    示例：to_numpy(torch.tensor([1.0, 2.0], requires_grad=True)) -> array([1., 2.], dtype=float32)
    讲义（docs/lesson.zh.md）：§5.5、§7（`.numpy()` 报错那一行）
    """
    raise NotImplementedError("to_numpy: not implemented yet / 尚未实现")


def numpy_snapshot(t: torch.Tensor) -> np.ndarray:
    """A NumPy COPY of `t`: later in-place changes of `t` do not show in it, and writing to it
    does not change `t`.

    Pitfall: `t.numpy()` shares memory with the tensor, so `t.add_(1)` later also changes
    the "snapshot" (and writing to the array changes `t`).
    Example: a = numpy_snapshot(t); t.add_(1)  ->  `a` still holds the old values
    Lesson (docs/lesson.md): §5.5

    返回 `t` 的一份 NumPy 副本：之后原地修改 `t` 不会影响它，修改它也不会改变 `t`。
    陷阱：`t.numpy()` 和张量共享内存，之后执行 `t.add_(1)` 时这份“快照”也会跟着变
    （反过来修改数组也会改掉 `t`）。
    示例：a = numpy_snapshot(t); t.add_(1)  ->  `a` 仍然是原来的值
    讲义（docs/lesson.zh.md）：§5.5
    """
    raise NotImplementedError("numpy_snapshot: not implemented yet / 尚未实现")


def share_array(arr: np.ndarray) -> torch.Tensor:
    """A tensor that SHARES memory with `arr` (no copy) and has the same dtype
    (float64 stays float64, int32 stays int32).

    Pitfall: `torch.tensor(arr)` always copies, so changes to `arr` no longer reach the tensor;
    `torch.Tensor(arr)` shares memory only with a float32 array: any other dtype is converted
    to float32, and converting means copying.
    Example: t = share_array(arr); arr[0] = 100  ->  t[0] is 100 as well
    Lesson (docs/lesson.md): §3.1, §5.5

    返回一个与 `arr` 共享内存（不复制）且 dtype 相同的张量（float64 仍是 float64，int32 仍是 int32）。
    陷阱：`torch.tensor(arr)` 总是复制数据，之后对 `arr` 的修改就传不到张量里了；
    `torch.Tensor(arr)` 只有在 `arr` 本来就是 float32 时才共享内存：其他 dtype 都会被转成 float32，
    而转换就意味着复制。
    示例：t = share_array(arr); arr[0] = 100  ->  t[0] 也变成 100
    讲义（docs/lesson.zh.md）：§3.1、§5.5
    """
    raise NotImplementedError("share_array: not implemented yet / 尚未实现")
