"""k03_dtypes: dtype fixes / 数据类型修正

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k03` (score) or `pytest tests/test_k03_dtypes.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k03`
（查看得分）或 `pytest tests/test_k03_dtypes.py`（查看详情）检查。
Lesson notes: §4.3, §7, §8.1 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §4.3、§7、§8.1。
"""

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


def mean_value(x: torch.Tensor) -> torch.Tensor:
    """The 0-dim mean of all elements of `x`.

    A floating or complex `x` keeps its dtype (float64 stays float64, float16 stays float16,
    complex64 stays complex64); an integer or bool `x` gives float32.
    Pitfall: `x.mean()` refuses integer and bool tensors ("could not infer output dtype"),
    and converting everything with `.float()` downcasts float64 (and drops the imaginary part
    of complex numbers).
    Example: mean_value(torch.tensor([1, 2, 4])) -> tensor(2.3333) (float32);
             mean_value(torch.tensor([1.0, 2.0], dtype=torch.float64)) -> tensor(1.5, dtype=torch.float64)
    Lesson (docs/lesson.md): §4.3

    返回 `x` 所有元素的平均值（0 维张量）。
    浮点或复数类型的 `x` 保持原来的 dtype（float64 仍是 float64，float16 仍是 float16，
    complex64 仍是 complex64）；整数或布尔类型的 `x` 得到 float32。
    陷阱：`x.mean()` 不接受整数和布尔张量（"could not infer output dtype"），
    而不分青红皂白地 `.float()` 会把 float64 降成 float32（复数还会丢掉虚部）。
    示例：mean_value(torch.tensor([1, 2, 4])) -> tensor(2.3333)（float32）；
          mean_value(torch.tensor([1.0, 2.0], dtype=torch.float64)) -> tensor(1.5, dtype=torch.float64)
    讲义（docs/lesson.zh.md）：§4.3
    """
    raise NotImplementedError("mean_value: not implemented yet / 尚未实现")


def class_loss(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy of `logits` (N, C) against `labels` (N,).

    `labels` hold class ids stored as FLOATS (as read from a CSV file): 0.0, 2.0, 1.0, ...
    The result is a 0-dim float tensor. (Beyond the lesson.)
    Pitfall: class-id targets must be int64 (uint8 is accepted too, but wraps around above 255);
    passing the float labels straight to `F.cross_entropy` raises "expected target dtype to be
    Long or Byte, but got Float" (PyTorch 2.13; the wording varies between versions).
    Example: class_loss(torch.zeros(2, 3), torch.tensor([0.0, 2.0])) -> tensor(1.0986)
    Lesson (docs/lesson.md): §4.3, §7 (row 1)

    计算 `logits`（N, C）与 `labels`（N,）之间的平均交叉熵。
    `labels` 存的是以浮点数表示的类别编号（就像从 CSV 文件里读出来的那样）：0.0, 2.0, 1.0, ...
    结果是 0 维浮点张量。（超出本课范围。）
    陷阱：类别编号形式的目标必须是 int64（也接受 uint8，但它超过 255 就会回绕）；把浮点标签直接传给
    `F.cross_entropy` 会报错 "expected target dtype to be Long or Byte, but got Float"
    （PyTorch 2.13 的措辞，不同版本不完全一样）。
    示例：class_loss(torch.zeros(2, 3), torch.tensor([0.0, 2.0])) -> tensor(1.0986)
    讲义（docs/lesson.zh.md）：§4.3、§7 第 1 行
    """
    raise NotImplementedError("class_loss: not implemented yet / 尚未实现")


def apply_linear(layer: nn.Linear, batch: np.ndarray) -> torch.Tensor:
    """`layer` applied to the NumPy `batch` (float64 or integer data).

    The computation happens in the layer's dtype (float32 or float64) AND on the layer's
    device, so the result has the layer's dtype and device.
    Pitfall: NumPy defaults to float64 (and ints stay ints), while nn.Linear is float32:
    "mat1 and mat2 must have the same dtype". And a tensor made from NumPy lives on the CPU,
    even when the layer lives on a GPU.
    Example: apply_linear(nn.Linear(2, 1), np.array([[1.0, 2.0]])) -> float32 tensor of shape (1, 1)
    Lesson (docs/lesson.md): §4.3, §8.1

    把 `layer` 作用在 NumPy 数组 `batch`（float64 或整数数据）上。
    计算要在层的 dtype（float32 或 float64）下、并且在层所在的设备上进行，
    所以结果的 dtype 和设备都与层相同。
    陷阱：NumPy 默认是 float64（整数则仍是整数），而 nn.Linear 是 float32：
    "mat1 and mat2 must have the same dtype"。另外，由 NumPy 得到的张量位于 CPU 上，
    即使层在 GPU 上也是如此。
    示例：apply_linear(nn.Linear(2, 1), np.array([[1.0, 2.0]])) -> 形状为 (1, 1) 的 float32 张量
    讲义（docs/lesson.zh.md）：§4.3、§8.1
    """
    raise NotImplementedError("apply_linear: not implemented yet / 尚未实现")


def brighten(img: torch.Tensor, amount: int) -> torch.Tensor:
    """The uint8 image `img` plus `amount` (0..255), saturating at 255; the result is uint8.

    `img` itself is not changed. (Beyond the lesson.)
    Pitfall: uint8 arithmetic wraps around modulo 256: 200 + 100 gives 44, not 255 —
    and clamping afterwards is too late.
    Example: brighten(torch.tensor([200, 10], dtype=torch.uint8), 100)
             -> tensor([255, 110], dtype=torch.uint8)
    Lesson (docs/lesson.md): §4.3

    返回 uint8 图像 `img` 加上 `amount`（0..255）后的结果，超过 255 的按 255 截断（饱和）；结果为 uint8。
    不能修改 `img` 本身。（超出本课范围。）
    陷阱：uint8 运算会按 256 取模“回绕”：200 + 100 得到 44 而不是 255——
    事后再 clamp 已经来不及了。
    示例：brighten(torch.tensor([200, 10], dtype=torch.uint8), 100)
          -> tensor([255, 110], dtype=torch.uint8)
    讲义（docs/lesson.zh.md）：§4.3
    """
    raise NotImplementedError("brighten: not implemented yet / 尚未实现")


def gather_rows(x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """The rows of `x` picked by the 1-D tensor `index` (repeats allowed), in `index`'s order.

    `index` may be a FLOAT tensor of whole numbers (e.g. tensor([2., 0.])); it lives on
    `x`'s device, and so does the result.
    Pitfall: `x[index]` with a float index raises "tensors used as indices must be long, int,
    byte or bool tensors". Of those, only long and int hold row numbers: a byte (uint8) or bool
    index is a MASK that keeps the rows where it is nonzero (uint8 masks are deprecated).
    Example: gather_rows(torch.tensor([[1, 2], [3, 4], [5, 6]]), torch.tensor([2.0, 0.0]))
             -> tensor([[5, 6], [1, 2]])
    Lesson (docs/lesson.md): §4.3, §7 (row 1)

    返回 `x` 中由一维张量 `index` 选出的行（可以重复），顺序与 `index` 相同。
    `index` 可能是存放整数值的浮点张量（例如 tensor([2., 0.])）；它和 `x` 在同一设备上，
    结果也应在该设备上。
    陷阱：用浮点索引写 `x[index]` 会报错 "tensors used as indices must be long, int, byte or bool
    tensors"。其中只有 long 和 int 表示行号：byte（uint8）或 bool 类型的索引是“掩码”，它保留的是
    掩码非零的那些行（uint8 掩码已被弃用）。
    示例：gather_rows(torch.tensor([[1, 2], [3, 4], [5, 6]]), torch.tensor([2.0, 0.0]))
          -> tensor([[5, 6], [1, 2]])
    讲义（docs/lesson.zh.md）：§4.3、§7 第 1 行
    """
    raise NotImplementedError("gather_rows: not implemented yet / 尚未实现")
