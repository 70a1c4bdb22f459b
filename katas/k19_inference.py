"""k19_inference: inference mode / 推理模式

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k19` (score) or `pytest tests/test_k19_inference.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k19`
（查看得分）或 `pytest tests/test_k19_inference.py`（查看详情）检查。
Lesson notes: §7, §8.2, §8.4 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §7、§8.2、§8.4。
"""

import torch
from torch import nn


def predict(model: nn.Module, x: torch.Tensor) -> torch.Tensor:
    """`model(x)` computed in EVALUATION mode (dropout off, batch-norm uses its running
    statistics) without building an autograd graph: the forward pass runs with autograd off,
    so the result has requires_grad=False (detaching the result afterwards is too late).
    Afterwards every submodule must be back in the train/eval mode it was in before the call:
    a model may come in with MIXED modes (training, with a frozen batch-norm layer in eval mode,
    as when fine-tuning), and each flag must be put back as it was. (Beyond the lesson.)

    Pitfall: three at once. Forgetting `model.eval()` keeps dropout and batch statistics on
    (random, batch-dependent outputs); forgetting `torch.no_grad()` builds a graph that wastes
    memory; and leaving the model in eval mode silently spoils the caller's next training step
    (`model.train(was_training)` puts back one mode for all, not each submodule's own).
    `torch.inference_mode()` also stops the graph, but what it returns are "inference tensors":
    outside that mode they cannot be changed in place, and an autograd operation that has to
    SAVE one for its backward pass fails ("Inference tensors cannot be saved for backward";
    adding one to a tensor that requires grad still works, and `.clone()` gives an ordinary
    tensor). Both are accepted here; for a helper that hands its result to callers it does not
    know, `torch.no_grad()` is the safer choice, since its results are ordinary tensors.
    Example: model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5)); model.train()
             predict(model, x) -> the eval-mode output, requires_grad=False; model.training is True again
    Lesson (docs/lesson.md): §7 ("CUDA out of memory" row), §8.2, §8.4

    在“评估模式”下计算 `model(x)`（关闭 dropout，批归一化使用它的运行统计量），并且不构建
    计算图：前向计算本身要在关闭自动求导的状态下进行，因此结果的 requires_grad=False
    （事后再 detach 就晚了）。调用结束后，每个子模块都必须回到调用之前的 train/eval 模式：
    传入的模型可能处于“混合”模式（整体在训练，但其中某个批归一化层被冻结在评估模式，
    微调时常见），每个标志都要按原样恢复。（超出本课范围。）
    陷阱：一共三个。忘了 `model.eval()`，dropout 和按批次统计仍然生效（输出随机、且依赖批次）；
    忘了 `torch.no_grad()`，会构建浪费显存的计算图；把模型留在 eval 模式，会悄悄破坏调用者
    接下来的训练（`model.train(was_training)` 给所有子模块恢复的是同一个模式，而不是各自原来的模式）。
    `torch.inference_mode()` 同样不构建计算图，但它返回的是“推理张量”（inference tensor）：在该模式
    之外不能原地修改它们；自动求导的某个运算如果要为反向传播“保存”这样的张量，就会报错
    （"Inference tensors cannot be saved for backward"；把它和需要梯度的张量相加仍然可以，
    `.clone()` 得到的也是普通张量）。这里两种写法都可以；对于把结果交给未知调用者的辅助函数，
    `torch.no_grad()` 更稳妥，因为它返回的是普通张量。
    示例：model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5)); model.train()
          predict(model, x) -> 评估模式下的输出，requires_grad=False；之后 model.training 仍为 True
    讲义（docs/lesson.zh.md）：§7（“CUDA out of memory”那一行）、§8.2、§8.4
    """
    raise NotImplementedError("predict: not implemented yet / 尚未实现")


def predict_in_batches(model: nn.Module, x: torch.Tensor, batch_size: int) -> torch.Tensor:
    """The same result as `predict(model, x)`, but the model never sees more than `batch_size`
    rows of `x` at once: run consecutive chunks of at most `batch_size` rows (the last one may
    be shorter) and join the outputs in order.

    Pitfall: feeding a whole big tensor at once is what "CUDA out of memory" is about; feed it
    in chunks. `torch.chunk(x, n)` makes at most n chunks, not chunks of n rows; and the last,
    shorter chunk must not be dropped.
    Example: predict_in_batches(model, torch.randn(10, 4), 4) -> the model sees 4, 4 and 2 rows;
             the result equals predict(model, x) (shape (10, ...))
    Lesson (docs/lesson.md): §7 ("CUDA out of memory" row), §8.4

    结果与 `predict(model, x)` 相同，但模型每次最多只能看到 `x` 的 `batch_size` 行：按顺序把 `x`
    切成每块最多 `batch_size` 行的小块（最后一块可以更短），逐块计算，再按原顺序拼接输出。
    陷阱：把一个很大的张量一次性喂给模型，正是 “CUDA out of memory” 的来源；要分块喂。
    `torch.chunk(x, n)` 切出的是最多 n 块，而不是每块 n 行；最后那块较短的也不能丢掉。
    示例：predict_in_batches(model, torch.randn(10, 4), 4) -> 模型依次看到 4、4、2 行；
          结果等于 predict(model, x)（形状为 (10, ...)）
    讲义（docs/lesson.zh.md）：§7（“CUDA out of memory”那一行）、§8.4
    """
    raise NotImplementedError("predict_in_batches: not implemented yet / 尚未实现")
