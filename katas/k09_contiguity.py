"""k09_contiguity: non-contiguous views / 非连续视图

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k09` (score) or `pytest tests/test_k09_contiguity.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k09`
（查看得分）或 `pytest tests/test_k09_contiguity.py`（查看详情）检查。

Which operations break contiguity? `transpose`, `t()` and `permute` return views that are
non-contiguous (unless the dimensions they move have size 1). Slices can be too: `x[:, :2]`
(part of every row), `x[::2]` (every other row) and `expand(...)` give views whose `view(-1)`
raises. `squeeze` and `unsqueeze` only add or drop size-1 dimensions and keep a contiguous
tensor contiguous.
哪些操作会破坏连续性？`transpose`、`t()` 和 `permute` 返回的视图一般是非连续的（除非被移动的
维度长度为 1）。切片也可能如此：`x[:, :2]`（每行只取一部分）、`x[::2]`（隔一行取一行）和
`expand(...)` 得到的视图，调用 `view(-1)` 都会报错。`squeeze` 和 `unsqueeze` 只是增删长度为 1 的维度，
连续的张量经过它们仍然是连续的。
Lesson notes: §4.6, §5.2, §7.2 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §4.6、§5.2、§7.2。
"""

import torch


def flatten_transposed(x: torch.Tensor) -> torch.Tensor:
    """A 1-D tensor with the elements of `x.T` (x is 2-D) in row-major order.

    Pitfall: `x.t()` is a non-contiguous view, so `x.t().view(-1)` raises "view size is not
    compatible with input tensor's size and stride"; and flattening `x` itself gives the
    elements in the wrong order.
    Example: flatten_transposed(torch.tensor([[1, 2, 3], [4, 5, 6]])) -> tensor([1, 4, 2, 5, 3, 6])
    Lesson (docs/lesson.md): §7.2

    返回一个一维张量，内容是 `x.T`（x 是二维的）按行优先顺序排列的元素。
    陷阱：`x.t()` 是非连续视图，所以 `x.t().view(-1)` 会报错 "view size is not compatible with
    input tensor's size and stride"；而直接把 `x` 本身展平，元素顺序又不对。
    示例：flatten_transposed(torch.tensor([[1, 2, 3], [4, 5, 6]])) -> tensor([1, 4, 2, 5, 3, 6])
    讲义（docs/lesson.zh.md）：§7.2
    """
    raise NotImplementedError("flatten_transposed: not implemented yet / 尚未实现")


def merge_heads(x: torch.Tensor) -> torch.Tensor:
    """Attention heads (B, H, T, D) merged into (B, T, H*D), with
    `out[b, t, h*D + d] == x[b, h, t, d]`.

    Pitfall: the H dimension has to move next to D first (a transpose); `view` after that transpose
    raises, and `reshape` WITHOUT the transpose runs silently but scrambles the values.
    Example: x of shape (2, 4, 10, 8) -> out of shape (2, 10, 32);
             out[0, 3, 8:16] == x[0, 1, 3, :]
    Lesson (docs/lesson.md): §5.2, §7.2

    把注意力头 (B, H, T, D) 合并成 (B, T, H*D)，满足 `out[b, t, h*D + d] == x[b, h, t, d]`。
    陷阱：必须先把 H 这个维度挪到 D 旁边（转置）；转置之后用 `view` 会报错，
    而不转置直接 `reshape` 虽然不报错，数值却全被打乱了。
    示例：形状为 (2, 4, 10, 8) 的 x -> 形状为 (2, 10, 32) 的 out；
          out[0, 3, 8:16] == x[0, 1, 3, :]
    讲义（docs/lesson.zh.md）：§5.2、§7.2
    """
    raise NotImplementedError("merge_heads: not implemented yet / 尚未实现")


def to_channels_first(img: torch.Tensor) -> torch.Tensor:
    """An (H, W, C) image as a CONTIGUOUS (C, H, W) tensor: `out[c, h, w] == img[h, w, c]`.

    Pitfall: `reshape(C, H, W)` is not `permute`: it keeps the memory order and scrambles
    pixels and channels; and `permute` alone returns a non-contiguous view.
    Example: to_channels_first(torch.zeros(32, 48, 3)).shape -> (3, 32, 48), and
             .is_contiguous() -> True
    Lesson (docs/lesson.md): §4.6, §5.2

    把 (H, W, C) 的图像变成“连续”的 (C, H, W) 张量：`out[c, h, w] == img[h, w, c]`。
    陷阱：`reshape(C, H, W)` 不等于 `permute`：它保持内存顺序不变，会把像素和通道搅乱；
    而只做 `permute` 返回的是一个非连续视图。
    示例：to_channels_first(torch.zeros(32, 48, 3)).shape -> (3, 32, 48)，
          并且 .is_contiguous() -> True
    讲义（docs/lesson.zh.md）：§4.6、§5.2
    """
    raise NotImplementedError("to_channels_first: not implemented yet / 尚未实现")
