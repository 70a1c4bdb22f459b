"""k39_batch_norm: batch norm in training and evaluation mode / 批归一化的训练模式与评估模式

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k39` (score) or `pytest tests/test_k39_batch_norm.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k39`
（查看得分）或 `pytest tests/test_k39_batch_norm.py`（查看详情）检查。
Lesson notes (lesson 3, modules, data and the training loop): §5.1, §5.2 in docs/lesson3.md.
讲义（第 3 课：模块、数据与训练循环）：docs/lesson3.zh.md 的 §5.1、§5.2。
"""

import torch
from torch import nn


def validation_mse(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> float:
    """Return the mean squared error of `model` (which has batch norm layers) on the validation
    batch `x`, `y`, as a Python float, computed in evaluation mode without building a graph; leave the
    model exactly as it came in: every submodule's mode (a batch norm the caller froze in evaluation
    mode stays so), its parameters and its buffers (batch norm's running statistics) unchanged.

    Pitfall: a forward pass in training mode, even under torch.no_grad(), normalises with the
    validation batch's own statistics and updates the running mean and variance with them: validating
    in training mode quietly changes the model that is being trained. One mode put back for the
    whole model (model.train(mode)) unfreezes a batch norm the caller froze, with the same effect
    in the next training step.
    Example: validation_mse(model, x, y) -> 0.83, and model.state_dict() is as before
    Lesson (docs/lesson3.md): §5.1

    以 Python float 返回 `model`（带有批归一化层）在验证批次 `x`、`y` 上的均方误差，要在评估模式下、不建计算图地
    计算；让模型保持它传进来时的样子：每个子模块的模式（调用者冻结在评估模式的批归一化层仍留在评估模式）、参数和
    缓冲区（批归一化的运行统计量）都不变。
    陷阱：训练模式下的前向计算，即使在 torch.no_grad() 里，也会用验证批次自己的统计量做归一化，并用它们更新运行
    均值和运行方差：在训练模式下验证，会悄悄改变正在训练的模型。给整个模型恢复同一个模式（model.train(mode)）会让
    调用者冻结的批归一化层解冻，在下一步训练中造成同样的后果。
    示例：validation_mse(model, x, y) -> 0.83，并且 model.state_dict() 与之前一样
    讲义（docs/lesson3.zh.md）：§5.1
    """
    raise NotImplementedError("validation_mse: not implemented yet / 尚未实现")


def predict_one(model: nn.Module, sample: torch.Tensor) -> torch.Tensor:
    """Return `model`'s output for ONE sample `sample` of shape (D,), as a tensor of shape (K,)
    (the model's outputs for a batch (N, D) are (N, K)), without a graph; the model has batch norm
    and dropout, and every submodule of it is left in the mode it came in (a layer the caller froze
    in evaluation mode stays so), its buffers unchanged.

    Pitfall: in training mode batch norm normalises by the batch's own statistics, and a batch of
    one sample has no variance to divide by (PyTorch refuses it); dropout would also make the
    prediction random. A layer takes a batch, so the sample needs a batch dimension of 1 first.
    Example: predict_one(model, torch.zeros(3)).shape -> torch.Size([2]) for a model mapping 3 to 2
    Lesson (docs/lesson3.md): §5.2

    返回 `model` 对“一个”形状为 (D,) 的样本 `sample` 的输出，作为形状为 (K,) 的张量（模型对一个批次 (N, D) 的输出
    是 (N, K)），不带计算图；模型带有批归一化和 dropout，结束后它的每个子模块都要回到传进来时的模式（调用者冻结在
    评估模式的层仍留在评估模式），缓冲区保持不变。
    陷阱：在训练模式下，批归一化用批次自己的统计量做归一化，而只有一个样本的批次没有方差可以用来相除（PyTorch
    会拒绝它）；dropout 还会让预测变得随机。层接受的是批次，所以先要给样本加上大小为 1 的批次维度。
    示例：对一个把 3 维映射到 2 维的模型，predict_one(model, torch.zeros(3)).shape -> torch.Size([2])
    讲义（docs/lesson3.zh.md）：§5.2
    """
    raise NotImplementedError("predict_one: not implemented yet / 尚未实现")
