"""k36_data_loaders: shuffling, the last batch and a reproducible order / 打乱、最后一个批次与可复现的顺序

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k36` (score) or `pytest tests/test_k36_data_loaders.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k36`
（查看得分）或 `pytest tests/test_k36_data_loaders.py`（查看详情）检查。
Lesson notes (lesson 3, modules, data and the training loop): §2.4, §2.5 in docs/lesson3.md.
讲义（第 3 课：模块、数据与训练循环）：docs/lesson3.zh.md 的 §2.4、§2.5。
"""

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


def training_loader(dataset: Dataset, batch_size: int, seed: int) -> DataLoader:
    """Return a DataLoader over `dataset` for training: every epoch (every iteration over it) visits
    the samples in a new random order; the orders are the same on every run for the same `seed`
    (drawn from a generator of the loader's own, seeded with `seed`; the global random number
    generator is neither seeded nor used), and every batch has exactly `batch_size` samples (the
    short last batch is dropped).

    Pitfall: shuffling once (a fixed permutation, a Subset) gives every epoch the same order;
    seeding the global generator (torch.manual_seed) instead of a generator of its own reseeds everyone's, and
    without either the order cannot be repeated; a short last batch of one sample breaks batch norm
    and weighs its one sample as much as a full batch.
    Example: [len(b[0]) for b in training_loader(dataset_of_10, 4, seed=0)] -> [4, 4]
    Lesson (docs/lesson3.md): §2.4

    返回一个用于训练、遍历 `dataset` 的 DataLoader：每个 epoch（每遍历一次）都以新的随机顺序访问样本；对同一个
    `seed`，每次运行得到的顺序都相同（从 DataLoader 自己的、用 `seed` 设了种子的随机数生成器中抽取；不给全局随机数
    生成器设种子，也不使用它），每个批次恰好有 `batch_size` 个样本（丢掉最后那个不满的批次）。
    陷阱：只打乱一次（一个固定的排列，或者一个 Subset）会让每个 epoch 的顺序都一样；用 torch.manual_seed
    代替自己的生成器会重设所有人共用的全局生成器，两者都不用则顺序无法复现；只有一个样本的最后批次会让批归一化出错，
    而且它那一个样本的分量和一个完整批次一样重。
    示例：[len(b[0]) for b in training_loader(dataset_of_10, 4, seed=0)] -> [4, 4]
    讲义（docs/lesson3.zh.md）：§2.4
    """
    raise NotImplementedError("training_loader: not implemented yet / 尚未实现")


def evaluate_mse(model: nn.Module, loader: DataLoader) -> float:
    """Return the mean squared error of `model` over every sample `loader` gives ((x, y) batches,
    the last one possibly shorter), as a Python float: the sum of every element's squared error
    divided by the number of elements, so that each sample counts alike. Evaluate in evaluation
    mode and without building a graph; afterwards every submodule of the model is in the mode it
    came in (a layer the caller froze in evaluation mode stays so).

    Pitfall: averaging the batches' mean losses weighs a short last batch as much as a full one; a
    model evaluated in training mode applies dropout; one switched to eval() and left there trains on
    without dropout afterwards; and one mode put back for the whole model (model.train(mode)) gives
    every submodule the same mode, which unfreezes a layer the caller froze.
    Example: evaluate_mse(nn.Identity(), DataLoader(TensorDataset(x, x), batch_size=2)) -> 0.0
    Lesson (docs/lesson3.md): §2.5

    以 Python float 返回 `model` 在 `loader` 给出的所有样本上的均方误差（批次为 (x, y)，最后一个可能短一些）：
    每个元素的平方误差之和除以元素个数，这样每个样本的分量都一样。要在评估模式下、不建计算图地评估；结束后模型
    的每个子模块都回到它传进来时的模式（调用者冻结在评估模式的层仍留在评估模式）。
    陷阱：对各批次的平均损失再求平均，会让短的最后一个批次和完整批次一样重；在训练模式下评估的模型会使用 dropout；
    切换到 eval() 后留在那里的模型，之后会在没有 dropout 的情况下继续训练；给整个模型恢复同一个模式
    （model.train(mode)）会让每个子模块都处于同一个模式，调用者冻结的层也就解冻了。
    示例：evaluate_mse(nn.Identity(), DataLoader(TensorDataset(x, x), batch_size=2)) -> 0.0
    讲义（docs/lesson3.zh.md）：§2.5
    """
    raise NotImplementedError("evaluate_mse: not implemented yet / 尚未实现")
