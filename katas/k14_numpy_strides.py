"""k14_numpy_strides: flipped NumPy arrays and tensors / 翻转过的 NumPy 数组与张量

Beyond the lesson: §5.5 shows `torch.from_numpy`; this kata adds what happens with an array
that NumPy flipped without copying (a negative stride).
超出本课范围：§5.5 讲了 `torch.from_numpy`；本练习在此基础上看看 NumPy 不复制就翻转出来的数组
（负步长）会怎样。

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k14` (score) or `pytest tests/test_k14_numpy_strides.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k14`
（查看得分）或 `pytest tests/test_k14_numpy_strides.py`（查看详情）检查。
Lesson notes: §5.5 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §5.5。
"""

import numpy as np
import torch


def tensor_from_flipped(arr: np.ndarray) -> torch.Tensor:
    """A tensor with the values, shape and dtype of the NumPy array `arr`. `arr` may be a view
    that NumPy flipped without copying (`a[::-1]`, `a[:, ::-1]`, `np.flip(a)`), or an ordinary
    array. Sharing memory with `arr` is allowed but not required. (Beyond the lesson.)

    Pitfall: NumPy flips by giving a view a NEGATIVE stride; tensors cannot have negative
    strides, so `torch.from_numpy`, `torch.as_tensor` and even `torch.tensor`
    raise "At least one stride in the given numpy array is negative". Copy the array into
    ordinary memory first.
    Example: tensor_from_flipped(np.arange(3.0)[::-1]) -> tensor([2., 1., 0.], dtype=torch.float64)
    Lesson (docs/lesson.md): §5.5

    返回一个与 NumPy 数组 `arr` 数值、形状和 dtype 都相同的张量。`arr` 可能是 NumPy 不复制就翻转出来的
    视图（`a[::-1]`、`a[:, ::-1]`、`np.flip(a)`），也可能是普通数组。可以与 `arr` 共享内存，但不要求。
    （超出本课范围。）
    陷阱：NumPy 的翻转是给视图一个“负”步长；张量不能有负步长，所以 `torch.from_numpy`、
    `torch.as_tensor` 甚至 `torch.tensor` 都会报错 "At least one stride in the given numpy
    array is negative"。请先把数组复制到普通内存里。
    示例：tensor_from_flipped(np.arange(3.0)[::-1]) -> tensor([2., 1., 0.], dtype=torch.float64)
    讲义（docs/lesson.zh.md）：§5.5
    """
    raise NotImplementedError("tensor_from_flipped: not implemented yet / 尚未实现")


def flip_images(batch: np.ndarray) -> torch.Tensor:
    """The uint8 images in the NumPy array `batch` (N, H, W), each mirrored left to right
    (`out[n, h, w] == batch[n, h, W - 1 - w]`), as a uint8 tensor (N, H, W). (Beyond the lesson.)

    Pitfall: flipping in NumPy first (`batch[:, :, ::-1]`, `np.flip(batch, 2)`) gives a
    negative-stride view that `torch.from_numpy` refuses. Either flip in torch, whose `flip`
    copies into ordinary memory, or copy the NumPy view before converting. And mirror the
    width dimension (the last), not the height.
    Example: flip_images(np.array([[[1, 2, 3]]], dtype=np.uint8)) -> tensor([[[3, 2, 1]]], dtype=torch.uint8)
    Lesson (docs/lesson.md): §5.5

    把 NumPy 数组 `batch`（N, H, W）中的每张 uint8 图像左右镜像（`out[n, h, w] == batch[n, h, W - 1 - w]`），
    以 uint8 张量（N, H, W）返回。（超出本课范围。）
    陷阱：先在 NumPy 里翻转（`batch[:, :, ::-1]`、`np.flip(batch, 2)`）得到的是负步长的视图，
    `torch.from_numpy` 会拒绝它。要么在 torch 里翻转（torch 的 `flip` 会复制到普通内存），
    要么先把 NumPy 视图复制一份再转换。另外要镜像的是宽度所在的维度（最后一维），不是高度所在的维度。
    示例：flip_images(np.array([[[1, 2, 3]]], dtype=np.uint8)) -> tensor([[[3, 2, 1]]], dtype=torch.uint8)
    讲义（docs/lesson.zh.md）：§5.5
    """
    raise NotImplementedError("flip_images: not implemented yet / 尚未实现")
