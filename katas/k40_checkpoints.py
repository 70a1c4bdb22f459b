"""k40_checkpoints: saving and loading a model and its optimizer / 保存与加载模型及其优化器

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k40` (score) or `pytest tests/test_k40_checkpoints.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k40`
（查看得分）或 `pytest tests/test_k40_checkpoints.py`（查看详情）检查。
Lesson notes (lesson 3, modules, data and the training loop): §6.1, §6.2, §6.3 in docs/lesson3.md.
讲义（第 3 课：模块、数据与训练循环）：docs/lesson3.zh.md 的 §6.1、§6.2、§6.3。
"""

import io

import torch
from torch import nn


def save_checkpoint(model: nn.Module, optimizer: torch.optim.Optimizer, buffer: io.BytesIO) -> None:
    """Write a checkpoint of `model` and `optimizer` into `buffer` with torch.save: a dict
    {"model": the model's state_dict, "optimizer": the optimizer's state_dict}, so that it loads
    again with torch.load(..., weights_only=True); leave the model and the optimizer unchanged.

    Pitfall: torch.save(model) pickles the whole object, its class included: loading it needs the
    same code at the same import path, and weights_only=True (the default since PyTorch 2.6)
    refuses it. A checkpoint without the optimizer's state cannot resume training as it was.
    Example: save_checkpoint(model, optimizer, buffer); torch.load(io.BytesIO(buffer.getvalue()),
    weights_only=True).keys() -> dict_keys(['model', 'optimizer'])
    Lesson (docs/lesson3.md): §6.1

    用 torch.save 把 `model` 和 `optimizer` 的检查点写进 `buffer`：一个字典 {"model": 模型的 state_dict,
    "optimizer": 优化器的 state_dict}，使它能用 torch.load(..., weights_only=True) 重新加载；模型和优化器保持不变。
    陷阱：torch.save(model) 会把整个对象连同它的类一起 pickle：加载时需要同样的代码、同样的导入路径，而
    weights_only=True（PyTorch 2.6 起的默认值）会拒绝它。没有优化器状态的检查点无法按原样继续训练。
    示例：save_checkpoint(model, optimizer, buffer); torch.load(io.BytesIO(buffer.getvalue()),
    weights_only=True).keys() -> dict_keys(['model', 'optimizer'])
    讲义（docs/lesson3.zh.md）：§6.1
    """
    raise NotImplementedError("save_checkpoint: not implemented yet / 尚未实现")


def load_for_inference(buffer: io.BytesIO, model: nn.Module, device: torch.device) -> nn.Module:
    """Load the checkpoint in `buffer` (written as save_checkpoint writes it, possibly on a machine
    with a GPU) onto `device`, into `model` (built by the caller, with fresh weights, on the CPU),
    and return the model on `device`, in evaluation mode, ready for predictions. The checkpoint may
    come from a model wrapped in nn.DataParallel, whose keys all begin with "module.": load those too.

    Pitfall: torch.load puts each tensor back on the device it was saved from: a checkpoint saved on
    a GPU fails to load on a machine without one unless map_location says where the tensors go.
    load_state_dict(..., strict=False) makes a mismatch of keys quiet (it only returns the missing and
    unexpected keys) and leaves the model's weights fresh; and a model is built in training mode,
    so without eval() dropout and batch norm stay on.
    Example: load_for_inference(buffer, Net(), torch.device("cpu")).training -> False
    Lesson (docs/lesson3.md): §6.2

    把 `buffer` 里的检查点（按 save_checkpoint 的格式写入，可能是在有 GPU 的机器上保存的）加载到 `device` 上，
    装进 `model`（由调用者构建，权重是新初始化的，在 CPU 上），返回在 `device` 上、处于评估模式、可以直接预测的模型。
    检查点可能来自包在 nn.DataParallel 里的模型，它的键都以 "module." 开头：这样的检查点也要能加载。
    陷阱：torch.load 会把每个张量放回保存时所在的设备：在 GPU 上保存的检查点，在没有 GPU 的机器上加载会失败，
    除非用 map_location 指明张量要放到哪里。load_state_dict(..., strict=False) 会让键的不匹配悄无声息
    （它只把缺少的键和多余的键作为返回值），模型的权重仍是新初始化的；而模型构建出来时处于训练模式，
    不调用 eval() 的话 dropout 和批归一化仍按训练方式工作。
    示例：load_for_inference(buffer, Net(), torch.device("cpu")).training -> False
    讲义（docs/lesson3.zh.md）：§6.2
    """
    raise NotImplementedError("load_for_inference: not implemented yet / 尚未实现")


def resume_training(buffer: io.BytesIO, model: nn.Module, optimizer: torch.optim.Optimizer,
                    x: torch.Tensor, y: torch.Tensor, steps: int) -> list[float]:
    """Resume training from the checkpoint in `buffer` (written as save_checkpoint writes it):
    load it into `model` and `optimizer` (built by the caller, the optimizer over the model's
    parameters with the same settings as the saved one), then take `steps` steps of full-batch
    training with the mean squared error on `x`, `y` in training mode, and return the loss of
    each step (before its update) as Python floats. The run equals the uninterrupted one: the same
    losses and parameters as if training had never stopped.

    Pitfall: the optimizer's state holds what earlier gradients left behind (momentum a decaying sum
    of them, Adam running averages of them and of their squares); an optimizer that starts afresh on
    resume has lost it: its first update already differs, and the resumed losses leave the
    uninterrupted ones from the second step on.
    Example: resume_training(buffer, model, optimizer, x, y, 3) -> [0.41, 0.37, 0.33]
    Lesson (docs/lesson3.md): §6.3

    从 `buffer` 里的检查点（按 save_checkpoint 的格式写入）继续训练：把它加载进 `model` 和 `optimizer`（由调用者构建，
    优化器建在模型的参数上，设置与保存时的相同），然后在训练模式下用均方误差在 `x`、`y` 上做 `steps` 步全批量训练，
    以 Python float 返回每一步（更新之前）的损失。这样继续的训练与没有中断的训练相同：损失和参数就像训练从未停过一样。
    陷阱：优化器的状态里保存着以往梯度留下的东西（动量是它们按衰减加权的和，Adam 是它们及其平方的滑动平均）；
    继续训练时重新开始的优化器丢掉了它们，它的第一次更新就已经不同，从第二步起，继续训练的损失就偏离了没有中断的训练。
    示例：resume_training(buffer, model, optimizer, x, y, 3) -> [0.41, 0.37, 0.33]
    讲义（docs/lesson3.zh.md）：§6.3
    """
    raise NotImplementedError("resume_training: not implemented yet / 尚未实现")
