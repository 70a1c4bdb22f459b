"""k41_training_loop: the capstone, a classifier trained and evaluated with a DataLoader / 综合练习：用 DataLoader 训练并评估分类器

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k41` (score) or `pytest tests/test_k41_training_loop.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k41`
（查看得分）或 `pytest tests/test_k41_training_loop.py`（查看详情）检查。
Lesson notes (lesson 3, modules, data and the training loop): §7.1, §7.2 in docs/lesson3.md.
讲义（第 3 课：模块、数据与训练循环）：docs/lesson3.zh.md 的 §7.1、§7.2。
"""

import torch
from torch import nn
from torch.utils.data import DataLoader


def train_classifier(model: nn.Module, loader: DataLoader, lr: float, epochs: int) -> list[float]:
    """Train `model`, whose output is one row of raw scores (logits) per sample, for `epochs` passes
    over `loader`, whose batches are (x, labels) with int64 class indices: in training mode, one plain
    SGD step (learning rate `lr`, over the model's parameters) on the mean cross-entropy of each batch.
    Return one Python float per epoch: the mean training loss per sample over that epoch (the losses
    taken before each step). The model may come in in evaluation mode, with a stale .grad or with
    frozen parameters; leave it in training mode.

    Pitfall: nn.CrossEntropyLoss wants logits (a softmax first makes it softmax twice); without
    zero_grad every step also follows the earlier gradients; a model left in evaluation mode trains
    without its dropout; the last batch is usually short, so a mean of the batch means is not the
    mean per sample; and a sum of loss tensors (no .item()) keeps every batch's graph nodes until the
    epoch ends, and the epoch's total then requires grad.
    Example: train_classifier(model, DataLoader(dataset, batch_size=4), 0.1, 3)
             -> [1.12, 0.97, 0.88] (three epochs, the loss falling)
    Lesson (docs/lesson3.md): §7.1

    用 `loader` 把 `model` 训练 `epochs` 遍：模型对每个样本输出一行原始分数（logits），`loader` 的批次是
    (x, labels)，labels 是 int64 的类别下标。要在训练模式下，对每个批次的平均交叉熵做一步普通 SGD（学习率 `lr`，
    针对模型的参数）。每个 epoch 返回一个 Python float：这个 epoch 上按样本平均的训练损失（取每一步之前的损失）。
    模型传进来时可能处于评估模式、带着旧的 .grad，或者有被冻结的参数；训练结束后让它处于训练模式。
    陷阱：nn.CrossEntropyLoss 要的是 logits（先做 softmax 就成了两次 softmax）；不调用 zero_grad，每一步还会沿着
    之前的梯度走；模型停在评估模式下训练，就没有了 dropout；最后一个批次通常较短，所以批次平均值的平均并不是
    按样本的平均；而把损失张量直接累加（不用 .item()）会让每个批次的计算图节点一直留到
    epoch 结束，这个 epoch 的总和也就需要梯度了。
    示例：train_classifier(model, DataLoader(dataset, batch_size=4), 0.1, 3)
          -> [1.12, 0.97, 0.88]（三个 epoch，损失在下降）
    讲义（docs/lesson3.zh.md）：§7.1
    """
    raise NotImplementedError("train_classifier: not implemented yet / 尚未实现")


def evaluate(model: nn.Module, loader: DataLoader) -> tuple[float, float]:
    """Return (loss, accuracy) of `model` over every sample of `loader`, whose batches are (x, labels):
    the mean cross-entropy per sample of its logits and the share of samples whose largest logit is
    at their label, both Python floats. Evaluate in evaluation mode without building a graph, and
    leave every submodule of the model in the mode it came in (a layer the caller froze in evaluation
    mode stays so).

    Pitfall: in training mode dropout changes the predictions; a model always left in evaluation mode
    (or always put back in training mode) is not the caller's any more, nor is one given back one
    mode for all its submodules (model.train(mode) unfreezes a frozen layer); a mean of the batch means
    weighs the short last batch's samples more; a forward pass under autograd records a graph that
    is never used.
    Example: evaluate(model, DataLoader(dataset, batch_size=4)) -> (0.61, 0.75)
    Lesson (docs/lesson3.md): §7.2

    返回 `model` 在 `loader` 的所有样本上的 (loss, accuracy)，`loader` 的批次是 (x, labels)：按样本平均的 logits
    交叉熵，以及最大的 logit 正好在标签处的样本所占的比例，两者都是 Python float。要在评估模式下、不建计算图地
    评估，并让模型的每个子模块都回到它传进来时的模式（调用者冻结在评估模式的层仍留在评估模式）。
    陷阱：在训练模式下 dropout 会改变预测；总是把模型留在评估模式（或者总是放回训练模式）时，它就不再是调用者
    原来的模型了，给所有子模块恢复同一个模式时也是如此：model.train(mode) 会让被冻结的层解冻；批次平均值的
    平均会让较短的最后一个批次的样本权重更大；在自动求导下做前向计算会记录一张用不上的计算图。
    示例：evaluate(model, DataLoader(dataset, batch_size=4)) -> (0.61, 0.75)
    讲义（docs/lesson3.zh.md）：§7.2
    """
    raise NotImplementedError("evaluate: not implemented yet / 尚未实现")
