"""k31_train_eval: train() and eval() / train() 与 eval()

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k31` (score) or `pytest tests/test_k31_train_eval.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k31`
（查看得分）或 `pytest tests/test_k31_train_eval.py`（查看详情）检查。
Lesson notes (lesson 2, autograd and linear regression): §7 in docs/lesson2.md.
讲义（第 2 课：自动求导与线性回归）：docs/lesson2.zh.md 的 §7。
"""

import torch
import torch.nn.functional as F
from torch import nn


def fit_with_validation(model: nn.Module, batches: list, val_x: torch.Tensor, val_y: torch.Tensor, lr: float, epochs: int) -> list:
    """Train `model` (it has dropout) for `epochs` epochs with plain SGD (learning rate `lr`, no momentum;
    the tool meant is one torch.optim.SGD, made before the first epoch). Each epoch: one step per
    `(x, y)` batch, in training mode, on the mean-squared-error loss; then the validation loss, the MSE
    of model(val_x) against `val_y`, in evaluation mode and without a graph. Return the validation
    losses, one per epoch, as Python floats; the model ends in training mode, whatever mode it came in.
    `model` is updated in place, as a training function's model is (parameters the caller froze stay as
    they are); the batches and the validation data are left unchanged.

    Pitfall: validating in training mode (dropout still zeroes units), or never switching back after
    model.eval(), so that the next epochs train without dropout.
    Example: fit_with_validation(model, [(x1, y1), (x2, y2)], val_x, val_y, 0.1, 2) -> e.g. [0.74, 0.69]
    Lesson (docs/lesson2.md): §7

    用普通 SGD（学习率为 `lr`，不带动量；本意是在第一个 epoch 之前建好的一个 torch.optim.SGD）训练 `model`
    （它带有 dropout）`epochs` 个 epoch。
    每个 epoch：在训练模式下，以均方误差为损失，对每个 `(x, y)` 批次做一步；然后在评估模式下、不建计算图地
    计算验证损失，即 model(val_x) 对 `val_y` 的 MSE。返回各 epoch 的验证损失，组成 Python float 列表；
    不论模型传进来时处于什么模式，结束时它都处于训练模式。
    和训练函数一样，`model` 被原地更新（调用者冻结的参数保持原样）；各批次和验证数据保持不变。
    陷阱：在训练模式下验证（dropout 仍在把一些单元置零）；或者调用 model.eval() 之后再也没有切换回来，
    于是之后的 epoch 都在没有 dropout 的情况下训练。
    示例：fit_with_validation(model, [(x1, y1), (x2, y2)], val_x, val_y, 0.1, 2) -> 例如 [0.74, 0.69]
    讲义（docs/lesson2.zh.md）：§7
    """
    raise NotImplementedError("fit_with_validation: not implemented yet / 尚未实现")
