"""k42_devices_training: training on a device / 在设备上训练

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k42` (score) or `pytest tests/test_k42_devices_training.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k42`
（查看得分）或 `pytest tests/test_k42_devices_training.py`（查看详情）检查。
Lesson notes (lesson 3, modules, data and the training loop): §8.1, §8.2, §8.3 in docs/lesson3.md.
讲义（第 3 课：模块、数据与训练循环）：docs/lesson3.zh.md 的 §8.1、§8.2、§8.3。
"""

import torch
from torch import nn
from torch.utils.data import DataLoader


def predict_classes(model: nn.Module, loader: DataLoader) -> torch.Tensor:
    """Return the predicted class (the index of the largest logit) of every sample of `loader`, in the
    loader's order, as one int64 tensor of shape (N,) on the model's device. The loader's batches are
    (x, labels) made on the CPU, while `model` may be on any device (a GPU, say): the model stays
    where it is, and the batches go to it. Predict in evaluation mode without building a graph, and
    leave the model in the mode it came in.

    Pitfall: the model's first layer refuses a batch on another device ("Expected all tensors to be
    on the same device"); a tensor's .to(device) returns a moved copy and leaves the tensor where it
    was, so a bare x.to(device) statement changes nothing; and a device picked once for the whole
    program (torch.device("cuda" if torch.cuda.is_available() else "cpu")) is not necessarily the
    one this model is on. In training mode dropout changes the predictions.
    Example: predict_classes(model_on_gpu, DataLoader(dataset, batch_size=4))
             -> tensor([2, 0, 1, 1, 0], device='cuda:0')
    Lesson (docs/lesson3.md): §8.1

    返回 `loader` 中每个样本的预测类别（最大 logit 的下标），按 loader 的顺序排成一个形状为 (N,)、在模型所在设备上
    的 int64 张量。loader 的批次是在 CPU 上生成的 (x, labels)，而 `model` 可能在任何设备上（比如 GPU）：模型
    留在原处，让批次去找它。要在评估模式下、不建计算图地预测，并让模型回到它传进来时的模式。
    陷阱：模型的第一层不接受另一个设备上的批次（"Expected all tensors to be on the same device"）；张量的
    .to(device) 返回移动后的副本，原张量留在原处，所以单独一句 x.to(device) 什么也没改变；而在整个程序里只选
    一次的设备（torch.device("cuda" if torch.cuda.is_available() else "cpu")）不一定就是这个模型所在的设备。
    在训练模式下 dropout 会改变预测。
    示例：predict_classes(model_on_gpu, DataLoader(dataset, batch_size=4))
          -> tensor([2, 0, 1, 1, 0], device='cuda:0')
    讲义（docs/lesson3.zh.md）：§8.1
    """
    raise NotImplementedError("predict_classes: not implemented yet / 尚未实现")


def train_on_device(model: nn.Module, loader: DataLoader, lr: float, epochs: int,
                    device: torch.device) -> list[float]:
    """Train `model` on `device` for `epochs` passes over `loader`, whose batches are (x, labels) made
    on the CPU, labels being int64 class indices: put the model on `device` (it stays there: the
    caller goes on with it), then, in training mode, one plain SGD step (learning rate `lr`, over the
    model's parameters) on the mean cross-entropy of each batch's logits, the batch on the model's
    device. Return one Python float per epoch: the mean training loss per sample over that epoch (the
    losses taken before each step). The model may come in in evaluation mode or with a stale .grad;
    leave it in training mode.

    Pitfall: model.to(device) moves the model in place, but a batch's .to(device) is a copy that
    must be kept, for the features and for the labels alike (the loss raises on labels left on the
    CPU); a loss kept as a tensor (no .item()) is a number on the GPU that also holds its batch's
    graph, and a sum of them keeps every batch's graph alive.
    Example: train_on_device(model, DataLoader(dataset, batch_size=4), 0.1, 3, torch.device("cuda"))
             -> [1.12, 0.97, 0.88] (three epochs, the loss falling; the model now on the GPU)
    Lesson (docs/lesson3.md): §8.2

    用 `loader` 在 `device` 上把 `model` 训练 `epochs` 遍：`loader` 的批次是在 CPU 上生成的 (x, labels)，labels
    是 int64 的类别下标。先把模型放到 `device` 上（它就留在那里：调用者之后还要接着用），然后在训练模式下，对每个
    批次 logits 的平均交叉熵做一步普通 SGD（学习率 `lr`，针对模型的参数），批次要放在模型所在的设备上。每个
    epoch 返回一个 Python float：这个 epoch 上按样本平均的训练损失（取每一步之前的损失）。模型传进来时可能处于
    评估模式，或者带着旧的 .grad；训练结束后让它处于训练模式。
    陷阱：model.to(device) 原地移动模型，但批次的 .to(device) 是副本，必须保存下来，特征和标签都是如此（标签
    留在 CPU 上时损失函数会报错）；以张量形式保存的损失（不用 .item()）是 GPU 上的一个数，还带着它那个批次的
    计算图，把它们累加起来会让每个批次的计算图都一直活着。
    示例：train_on_device(model, DataLoader(dataset, batch_size=4), 0.1, 3, torch.device("cuda"))
          -> [1.12, 0.97, 0.88]（三个 epoch，损失在下降；模型现在在 GPU 上）
    讲义（docs/lesson3.zh.md）：§8.2
    """
    raise NotImplementedError("train_on_device: not implemented yet / 尚未实现")


def move_training(model: nn.Module, optimizer: torch.optim.Optimizer, device: torch.device,
                  dtype: torch.dtype) -> None:
    """Move a training in progress to `device` and `dtype`: `model` (its floating-point parameters
    and buffers) and the state `optimizer` keeps for its parameters (SGD's momentum, Adam's running
    averages), so that the caller's next optimizer.step() goes on where the last one stopped, on the
    new device and in the new dtype. The model keeps its parameter objects (the optimizer holds
    them), its integer buffers and its mode. Returns None: the caller's model and optimizer change.

    Pitfall: model.to() moves and casts the parameters and buffers, not the tensors the optimizer
    keeps for them: after it, Adam's next step raises (its averages are on the old device, or of
    the old dtype), and SGD's momentum stays on the old device and in the old precision. An
    optimizer built anew forgets the momentum; parameters made anew (nn.Parameter(p.to(...))) are
    not the ones the optimizer holds, so its steps no longer train the model.
    Example: move_training(model, optimizer, torch.device("cuda"), torch.float32) -> None, then
             optimizer.step() trains on the GPU
    Lesson (docs/lesson3.md): §8.3

    把一个正在进行的训练搬到 `device` 和 `dtype` 上：包括 `model`（它的浮点参数和缓冲区），以及 `optimizer` 为这些
    参数保存的状态（SGD 的动量、Adam 的滑动平均），使调用者下一次 optimizer.step() 能在新设备、新 dtype 上从上一步
    停下的地方接着走。模型保留它的参数对象（优化器持有的正是它们）、整数缓冲区和模式。返回 None：改变的是调用者的
    模型和优化器。
    陷阱：model.to() 会移动并转换参数和缓冲区，但不会移动优化器为它们保存的张量：之后 Adam 的下一步会报错（它的
    滑动平均还在旧设备上，或者还是旧的 dtype），SGD 的动量也留在旧设备上、保持旧的精度。重新创建的优化器会忘掉
    动量；重新创建的参数（nn.Parameter(p.to(...))）不是优化器持有的那些参数，于是它的每一步都不再训练这个模型。
    示例：move_training(model, optimizer, torch.device("cuda"), torch.float32) -> None，之后
          optimizer.step() 就在 GPU 上训练
    讲义（docs/lesson3.zh.md）：§8.3
    """
    raise NotImplementedError("move_training: not implemented yet / 尚未实现")
