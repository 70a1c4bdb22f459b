"""k37_real_data: real data: targets, splits and scaling / 真实数据：目标值、划分与缩放

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k37` (score) or `pytest tests/test_k37_real_data.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k37`
（查看得分）或 `pytest tests/test_k37_real_data.py`（查看详情）检查。
Lesson notes (lesson 3, modules, data and the training loop): §3.1, §3.2, §3.3 in docs/lesson3.md.
讲义（第 3 课：模块、数据与训练循环）：docs/lesson3.zh.md 的 §3.1、§3.2、§3.3。
"""

import numpy as np
import torch


def loss_targets(labels: np.ndarray, loss: str) -> torch.Tensor:
    """Return `labels` (N,) or (N, 1), whole numbers of any NumPy dtype (as read from a file: int32,
    int64, float64), as the targets `loss` takes next to a model's output: for "cross_entropy"
    (logits (N, C)) class indices of dtype int64 and shape (N,); for "bce" (BCEWithLogitsLoss, logits
    (N, 1)) and for "mse" (predictions (N, 1)) float32 values of shape (N, 1).

    Pitfall: cross-entropy refuses float targets of shape (N,) and a (N, 1) column of class indices;
    BCE refuses int64 targets; and MSE broadcasts (N,) targets against (N, 1) predictions into an
    (N, N) table of errors, with a warning at most, never an error.
    Example: loss_targets(np.array([[1.0], [0.0]]), "cross_entropy") -> tensor([1, 0])
    Lesson (docs/lesson3.md): §3.1

    把 `labels`（形状为 (N,) 或 (N, 1)，取值为整数，NumPy dtype 任意：从文件读进来时可能是 int32、int64、float64）
    变成 `loss` 在模型输出旁边接受的目标值："cross_entropy"（logits 为 (N, C)）要 dtype 为 int64、形状为 (N,) 的
    类别下标；"bce"（BCEWithLogitsLoss，logits 为 (N, 1)）和 "mse"（预测为 (N, 1)）要形状为 (N, 1) 的 float32 值。
    陷阱：交叉熵拒绝形状为 (N,) 的浮点目标值，也拒绝 (N, 1) 的一列类别下标；BCE 拒绝 int64 的目标值；
    而 MSE 会把 (N,) 的目标值和 (N, 1) 的预测广播成 (N, N) 的误差表，最多给出一个警告，从不报错。
    示例：loss_targets(np.array([[1.0], [0.0]]), "cross_entropy") -> tensor([1, 0])
    讲义（docs/lesson3.zh.md）：§3.1
    """
    raise NotImplementedError("loss_targets: not implemented yet / 尚未实现")


def train_val_split(n: int, val_size: int, seed: int) -> tuple:
    """Return (train_indices, val_indices), int64 tensors that split the sample indices 0 to n - 1
    at random: `val_size` of them for validation, the other n - val_size for training, none in
    both. The split is the same on every run for the same `seed` (a generator of its own; the global
    random number generator is neither seeded nor used), and another seed gives another split.

    Pitfall: taking the last val_size rows as validation: files are often sorted (by class, by
    date), so the validation split then holds other data than the training split; and seeding the
    global generator changes every later random draw of the program.
    Example: [len(t) for t in train_val_split(10, 3, seed=0)] -> [7, 3]
    Lesson (docs/lesson3.md): §3.2

    返回 (train_indices, val_indices)：两个 int64 张量，把样本下标 0 到 n - 1 随机地分开：`val_size` 个用于验证，
    其余 n - val_size 个用于训练，没有下标同时出现在两边。对同一个 `seed`，每次运行得到的划分都相同（使用自己的
    生成器；不给全局随机数生成器设种子，也不使用它），换一个种子则得到另一种划分。
    陷阱：把最后 val_size 行当作验证集：文件常常是排好序的（按类别、按日期），这样验证集装的就是与训练集不同的
    数据；给全局生成器设种子则会改变程序之后的每一次随机抽取。
    示例：[len(t) for t in train_val_split(10, 3, seed=0)] -> [7, 3]
    讲义（docs/lesson3.zh.md）：§3.2
    """
    raise NotImplementedError("train_val_split: not implemented yet / 尚未实现")


def standardized_splits(train: np.ndarray, test: np.ndarray) -> tuple:
    """Return (train, test) standardised, as float32 tensors of their shapes: every column of both
    shifted by the TRAINING split's mean of that column and divided by its standard deviation (the
    population one, ddof=0, as NumPy's std and scikit-learn's StandardScaler compute it); a column
    that is constant in the training split (std 0) is only shifted. The arrays are left unchanged.

    Pitfall: standardising the test split with its own statistics (or with those of both splits)
    lets it inform its own preprocessing, and no single new sample has statistics of its own; torch's
    std divides by N - 1 by default; a constant column divides by zero (nan or inf).
    Example: standardized_splits(np.array([[0.0], [2.0]]), np.array([[4.0]])) -> (tensor([[-1.], [1.]]), tensor([[3.]]))
    Lesson (docs/lesson3.md): §3.3

    返回标准化后的 (train, test)，作为形状不变的 float32 张量：两者的每一列都减去“训练集”这一列的平均值，再除以它的
    标准差（总体标准差，ddof=0，与 NumPy 的 std 和 scikit-learn 的 StandardScaler 的计算方式相同）；在训练集中为
    常数的列（标准差为 0）只做平移。两个数组保持不变。
    陷阱：用测试集自己的统计量（或者两个集合合起来的统计量）标准化测试集，会让它参与决定自己的预处理，而单独一个
    新样本根本没有自己的统计量；torch 的 std 默认除以 N - 1；常数列会除以零（得到 nan 或 inf）。
    示例：standardized_splits(np.array([[0.0], [2.0]]), np.array([[4.0]])) -> (tensor([[-1.], [1.]]), tensor([[3.]]))
    讲义（docs/lesson3.zh.md）：§3.3
    """
    raise NotImplementedError("standardized_splits: not implemented yet / 尚未实现")
