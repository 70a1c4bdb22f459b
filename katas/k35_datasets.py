"""k35_datasets: what a Dataset hands out / Dataset 交出的样本

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k35` (score) or `pytest tests/test_k35_datasets.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k35`
（查看得分）或 `pytest tests/test_k35_datasets.py`（查看详情）检查。
Lesson notes (lesson 3, modules, data and the training loop): §2.1, §2.2, §2.3 in docs/lesson3.md.
讲义（第 3 课：模块、数据与训练循环）：docs/lesson3.zh.md 的 §2.1、§2.2、§2.3。
"""

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset  # noqa: F401 (load_rows needs them)


def sample_at(features: np.ndarray, labels: np.ndarray, index: int) -> tuple:
    """Return sample `index` of a table, as a Dataset's __getitem__ hands it to a DataLoader: the
    features of row `index` of `features` (N, D) as a float32 tensor of shape (D,), and the class
    label `labels[index]` as an int64 tensor of shape () (0-dim). `index` may be negative, as
    Python's indexing allows; the arrays are left unchanged.

    Pitfall: torch.from_numpy keeps NumPy's float64 (a float32 layer then refuses the batch), an int32
    label array stays int32 (cross-entropy wants int64), and a label taken as labels[index:index + 1]
    or wrapped in a list has shape (1,), so batches of them are (N, 1) instead of (N,).
    Example: sample_at(np.zeros((4, 3)), np.array([0, 2, 1, 1]), 1) -> (tensor([0., 0., 0.]), tensor(2))
    Lesson (docs/lesson3.md): §2.1

    返回表格数据的第 `index` 个样本，也就是 Dataset 的 __getitem__ 交给 DataLoader 的东西：`features` (N, D)
    第 `index` 行的特征，作为形状为 (D,) 的 float32 张量；类别标签 `labels[index]`，作为形状为 ()（0 维）的
    int64 张量。`index` 可以是负数，和 Python 的索引一样；两个数组保持不变。
    陷阱：torch.from_numpy 会保留 NumPy 的 float64（float32 的层随后会拒绝这样的批次），int32 的标签数组仍然是
    int32（交叉熵要求 int64），而用 labels[index:index + 1] 取出或者放进列表里的标签形状是 (1,)，于是由它们组成的
    批次是 (N, 1) 而不是 (N,)。
    示例：sample_at(np.zeros((4, 3)), np.array([0, 2, 1, 1]), 1) -> (tensor([0., 0., 0.]), tensor(2))
    讲义（docs/lesson3.zh.md）：§2.1
    """
    raise NotImplementedError("sample_at: not implemented yet / 尚未实现")


def image_sample(image: np.ndarray, label: int) -> tuple:
    """Return an image sample as vision models take it: `image` is an (H, W, C) array of uint8 pixel
    values 0 to 255 (as an image file decodes), the result's first item a float32 tensor of shape
    (C, H, W) with values in [0, 1] (each pixel divided by 255), its second the label as an int64
    0-dim tensor. The array is left unchanged.

    Pitfall: reshape(C, H, W) gives the right shape but scrambles the pixels (the channels are
    interleaved in memory: it is a permutation of the dimensions that is needed), and uint8 values left
    unscaled (0 to 255) or divided with // (integer division) are not the [0, 1] floats a model expects.
    Example: image_sample(np.full((2, 2, 3), 255, dtype=np.uint8), 1)[0].shape -> torch.Size([3, 2, 2]),
             all values 1.0
    Lesson (docs/lesson3.md): §2.2

    按视觉模型接受的形式返回一个图像样本：`image` 是 (H, W, C) 的 uint8 像素数组，取值 0 到 255（图像文件解码后
    就是这样），返回值的第一项是形状为 (C, H, W)、取值在 [0, 1] 的 float32 张量（每个像素除以 255），第二项是
    作为 int64 0 维张量的标签。数组保持不变。
    陷阱：reshape(C, H, W) 得到的形状是对的，但像素被打乱了（内存里各通道是交错存放的：需要的是维度的重排），
    而未经缩放的 uint8 值（0 到 255），或者用 //（整数除法）除过的值，都不是模型期望的 [0, 1] 浮点数。
    示例：image_sample(np.full((2, 2, 3), 255, dtype=np.uint8), 1)[0].shape -> torch.Size([3, 2, 2])，
          所有值都是 1.0
    讲义（docs/lesson3.zh.md）：§2.2
    """
    raise NotImplementedError("image_sample: not implemented yet / 尚未实现")


def load_rows(features: np.ndarray, labels: np.ndarray, batch_size: int) -> list:
    """Wrap `features` (N, D) and `labels` (N,) in a Dataset (a subclass of
    torch.utils.data.Dataset of your own, whose __getitem__ returns what sample_at returns and whose
    __len__ is the number of samples N), and return the batches that
    DataLoader(dataset, batch_size=batch_size) gives, in order, as a list of (x, y) pairs: x a float32
    batch (B, D), y an int64 batch of labels (B,), the last batch shorter where batch_size does not
    divide N.

    Pitfall: a __len__ that returns features.size (every element, not every row) sends the DataLoader
    past the last row, one of (D,) rows or columns makes it stop early; a __getitem__ that returns
    float64 features or (1,)-shaped labels gives batches of the wrong dtype or shape, (B, 1) labels.
    Example: [x.shape for x, y in load_rows(np.zeros((5, 2)), np.zeros(5, dtype=np.int64), 2)]
             -> [torch.Size([2, 2]), torch.Size([2, 2]), torch.Size([1, 2])]
    Lesson (docs/lesson3.md): §2.3

    把 `features` (N, D) 和 `labels` (N,) 包装成一个 Dataset（你自己写的 torch.utils.data.Dataset 的子类，
    它的 __getitem__ 返回 sample_at 返回的东西，它的 __len__ 是样本个数 N），并按顺序返回
    DataLoader(dataset, batch_size=batch_size) 给出的批次，组成 (x, y) 对的列表：x 是 float32 的批次 (B, D)，
    y 是 int64 的标签批次 (B,)；batch_size 不能整除 N 时，最后一个批次会短一些。
    陷阱：__len__ 返回 features.size（所有元素的个数，而不是行数）会让 DataLoader 越过最后一行，返回列数 D
    会让它提前停下；__getitem__ 返回 float64 的特征或者形状为 (1,) 的标签，会让批次的 dtype 或形状不对，
    标签变成 (B, 1)。
    示例：[x.shape for x, y in load_rows(np.zeros((5, 2)), np.zeros(5, dtype=np.int64), 2)]
          -> [torch.Size([2, 2]), torch.Size([2, 2]), torch.Size([1, 2])]
    讲义（docs/lesson3.zh.md）：§2.3
    """
    raise NotImplementedError("load_rows: not implemented yet / 尚未实现")
