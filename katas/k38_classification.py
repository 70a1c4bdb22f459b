"""k38_classification: a classifier's loss and its accuracy / 分类器的损失与准确率

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k38` (score) or `pytest tests/test_k38_classification.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k38`
（查看得分）或 `pytest tests/test_k38_classification.py`（查看详情）检查。
Lesson notes (lesson 3, modules, data and the training loop): §4.1, §4.2 in docs/lesson3.md.
讲义（第 3 课：模块、数据与训练循环）：docs/lesson3.zh.md 的 §4.1、§4.2。
"""

import torch
from torch import nn


def classifier_step(model: nn.Module, x: torch.Tensor, labels: torch.Tensor, lr: float) -> float:
    """Take one plain SGD step (learning rate `lr`) on the mean cross-entropy of `model`, whose
    output for `x` is one row of raw scores (logits) per sample, (N, C), against `labels`, the class
    indices (N,) of dtype int64; return the loss before the step as a Python float. The model may
    come in with a stale .grad from an earlier backward.

    Pitfall: nn.CrossEntropyLoss applies log-softmax itself: a softmax applied first (softmax twice)
    squeezes the scores into [0, 1], so the loss stays far from 0 and the gradients are several times
    smaller; and nll_loss on raw logits skips the log-softmax altogether.
    Example: classifier_step(net, torch.zeros(4, 2), torch.tensor([0, 1, 2, 0]), 0.1) -> 1.0986 for an
             nn.Linear(2, 3) net whose weight and bias are zero (log 3: every class equally likely)
    Lesson (docs/lesson3.md): §4.1

    对 `model` 的平均交叉熵做一步普通 SGD（学习率 `lr`）：模型对 `x` 的输出是每个样本一行原始分数（logits），
    形状为 (N, C)，`labels` 是 dtype 为 int64 的类别下标 (N,)；以 Python float 返回这一步之前的损失。模型传进来时
    可能带着之前一次 backward 留下的旧 .grad。
    陷阱：nn.CrossEntropyLoss 自己会做 log-softmax：先做一次 softmax（两次 softmax）会把分数压到 [0, 1] 里，
    于是损失始终远离 0，梯度也小了好几倍；而对原始 logits 用 nll_loss 则完全跳过了 log-softmax。
    示例：对一个权重和偏置都为零的 nn.Linear(2, 3) 模型 net，
          classifier_step(net, torch.zeros(4, 2), torch.tensor([0, 1, 2, 0]), 0.1) -> 1.0986（log 3：每个类别的可能性都一样）
    讲义（docs/lesson3.zh.md）：§4.1
    """
    raise NotImplementedError("classifier_step: not implemented yet / 尚未实现")


def accuracy(model: nn.Module, x: torch.Tensor, labels: torch.Tensor) -> float:
    """Return the fraction of the samples of `x` whose predicted class, the index of the largest of
    their logits (`model`'s output (N, C)), equals their label in `labels` (N,), as a Python float
    between 0 and 1. Evaluate in evaluation mode without building a graph, and leave every submodule
    of the model in the mode it came in (a layer the caller froze in evaluation mode stays so).

    Pitfall: argmax over dim 0 picks a sample per class instead of a class per sample; predictions
    kept as (N, 1) (keepdim=True) compared with (N,) labels broadcast into an (N, N) table; an
    accuracy computed in training mode has dropout in it; and one mode put back for the whole model
    (model.train(mode)) unfreezes a layer the caller froze.
    Example: accuracy(model, x, labels) -> 0.75 when 3 of 4 samples are classified right
    Lesson (docs/lesson3.md): §4.2

    以 0 到 1 之间的 Python float 返回 `x` 中预测类别（它们的 logits，即 `model` 的输出 (N, C) 中最大值的下标）
    等于 `labels` (N,) 中标签的样本所占的比例。要在评估模式下、不建计算图地评估，并让模型的每个子模块都回到它
    传进来时的模式（调用者冻结在评估模式的层仍留在评估模式）。
    陷阱：在第 0 维上求 argmax 得到的是每个类别选出一个样本，而不是每个样本选出一个类别；保留成 (N, 1)
    （keepdim=True）的预测与 (N,) 的标签比较时会广播成 (N, N) 的表；在训练模式下计算的准确率里混着 dropout；
    给整个模型恢复同一个模式（model.train(mode)）会让调用者冻结的层解冻。
    示例：4 个样本中有 3 个分类正确时，accuracy(model, x, labels) -> 0.75
    讲义（docs/lesson3.zh.md）：§4.2
    """
    raise NotImplementedError("accuracy: not implemented yet / 尚未实现")
