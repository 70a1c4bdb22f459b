"""k04_promotion: mixing dtypes, and `*` versus `@` / 混合 dtype 的运算，以及 `*` 与 `@`

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k04` (score) or `pytest tests/test_k04_promotion.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k04`
（查看得分）或 `pytest tests/test_k04_promotion.py`（查看详情）检查。
Lesson notes: §4.3, §5.3 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §4.3、§5.3。
"""

import numpy as np
import torch


def project(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """The matrix product of the int64 tensor `x` (N, D) (counts, say) with the float32 weights
    `w` (D, K): a float32 tensor (N, K) with `out[n, k] == sum over d of x[n, d] * w[d, k]`,
    on `x`'s device (which is also `w`'s).

    Pitfall: arithmetic such as `x * 0.5` promotes an int tensor to float for you, but the
    matrix product does not: `x @ w` raises "expected m1 and m2 to have the same dtype". And `*`
    is not `@`: `*` multiplies matching elements (it raises, or silently broadcasts when the
    shapes happen to fit); `@` (`torch.matmul`) is the matrix product.
    Example: project(torch.tensor([[1, 2]]), torch.tensor([[0.5], [0.25]])) -> tensor([[1.]])
    Lesson (docs/lesson.md): §4.3, §5.3

    计算 int64 张量 `x`（N, D）（例如计数）与 float32 权重 `w`（D, K）的矩阵乘积：得到 float32 的
    (N, K) 张量，`out[n, k] == 对 d 求和 x[n, d] * w[d, k]`，位于 `x` 所在的设备上（`w` 也在那里）。
    陷阱：像 `x * 0.5` 这样的算术运算会替你把整数张量提升为浮点，但矩阵乘法不会：`x @ w` 会报错
    "expected m1 and m2 to have the same dtype"。另外 `*` 不等于 `@`：`*` 是对应元素相乘（形状对不上
    时报错，碰巧能广播时则悄悄算出别的东西）；`@`（`torch.matmul`）才是矩阵乘法。
    示例：project(torch.tensor([[1, 2]]), torch.tensor([[0.5], [0.25]])) -> tensor([[1.]])
    讲义（docs/lesson.zh.md）：§4.3、§5.3
    """
    raise NotImplementedError("project: not implemented yet / 尚未实现")


def weighted_sum(values: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    """One weighted sum per row: for `values` (N, D) and `weights` (D,), both float, the (N,)
    tensor with `out[n] == sum over d of values[n, d] * weights[d]`: shape (1,) for a single row,
    never a 0-dim tensor.

    Pitfall: `values * weights` multiplies element by element and keeps the shape (N, D): the
    sum over d is still missing. The matrix-vector product (`@`) does both, and the order
    matters: `weights @ values` sums over the wrong dimension (and only runs when N == D).
    A matrix product with a (D, 1) column followed by `.squeeze()` drops N as well when N == 1.
    Example: weighted_sum(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([1.0, 0.5]))
             -> tensor([2., 5.])
    Lesson (docs/lesson.md): §5.3

    每行求一个加权和：对 `values`（N, D）和 `weights`（D,）（都是浮点），返回 (N,) 张量，
    `out[n] == 对 d 求和 values[n, d] * weights[d]`：只有一行时形状是 (1,)，不能是 0 维张量。
    陷阱：`values * weights` 是对应元素相乘，形状仍是 (N, D)：对 d 的求和还没做。矩阵乘向量（`@`）
    把两件事一起完成，而且顺序很重要：`weights @ values` 求和的维度不对（只有 N == D 时才能运行）。
    先乘一个 (D, 1) 的列、再 `.squeeze()`，在 N == 1 时会把 N 这一维也去掉。
    示例：weighted_sum(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([1.0, 0.5]))
          -> tensor([2., 5.])
    讲义（docs/lesson.zh.md）：§5.3
    """
    raise NotImplementedError("weighted_sum: not implemented yet / 尚未实现")


def standardize(x: torch.Tensor, mean: np.ndarray, std: np.ndarray) -> torch.Tensor:
    """`(x - mean) / std` for the float32 features `x` (N, D) and per-feature statistics
    `mean`, `std` given as float64 NumPy arrays of shape (D,) (as NumPy computes them over a
    dataset). The result stays float32, like `x`, and on x's device (a GPU, say), ready for a
    float32 model.

    Pitfall: two floating-point tensors that both have dimensions promote to the wider dtype, so float32 minus
    a float64 tensor is float64 (`torch.from_numpy(mean)` is float64, and so is `x - mean` with
    the NumPy array itself). The model then fails later with "mat1 and mat2 must have the same
    dtype". Convert the statistics to x's dtype first; and NumPy's arrays become CPU tensors, which
    an `x` on a GPU refuses to meet.
    Example: standardize(torch.tensor([[2.0, 10.0]]), np.array([1.0, 5.0]), np.array([1.0, 5.0]))
             -> tensor([[1., 1.]]) (float32)
    Lesson (docs/lesson.md): §4.3

    对 float32 特征 `x`（N, D）计算 `(x - mean) / std`，其中每个特征的统计量 `mean`、`std` 是形状为 (D,)
    的 float64 NumPy 数组（就像用 NumPy 在整个数据集上算出来的那样）。结果要和 `x` 一样保持 float32，
    并且在 x 所在的设备上（比如 GPU），以便直接送进 float32 的模型。
    陷阱：两个都带维度的浮点张量做运算时会提升到更宽的 dtype，所以 float32 减去 float64 张量得到的是
    float64（`torch.from_numpy(mean)` 是 float64，直接用 NumPy 数组写 `x - mean` 也一样）。之后模型就会报错
    "mat1 and mat2 must have the same dtype"。请先把统计量转换成 x 的 dtype；另外，NumPy 数组变成的是 CPU
    张量，GPU 上的 `x` 无法和它们一起运算。
    示例：standardize(torch.tensor([[2.0, 10.0]]), np.array([1.0, 5.0]), np.array([1.0, 5.0]))
          -> tensor([[1., 1.]])（float32）
    讲义（docs/lesson.zh.md）：§4.3
    """
    raise NotImplementedError("standardize: not implemented yet / 尚未实现")
