"""k34_module_calls: calling, storing and moving modules / 调用、存放和移动模块

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k34` (score) or `pytest tests/test_k34_module_calls.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k34`
（查看得分）或 `pytest tests/test_k34_module_calls.py`（查看详情）检查。
Lesson notes (lesson 3, modules, data and the training loop): §1.3, §1.4, §1.5 in docs/lesson3.md.
讲义（第 3 课：模块、数据与训练循环）：docs/lesson3.zh.md 的 §1.3、§1.4、§1.5。
"""

import torch
from torch import nn


def layer_outputs(model: nn.Module, x: torch.Tensor) -> dict:
    """Return {name: output} for every direct child of `model` (model.named_children(), in order):
    what each child returned while the model was called on `x` the way PyTorch calls it, model(x),
    so that every hook the caller registered on the model runs. The outputs are detached (no graph),
    and no hook of yours is left on the model afterwards.

    Pitfall: calling model.forward(x) (or each child by hand) skips the hooks nn.Module.__call__
    runs around forward, such as a pre-hook of the caller's that rescales the input; and a hook
    registered but never removed keeps running (and capturing) on every later call of the caller.
    Example: layer_outputs(nn.Sequential(nn.Linear(3, 4), nn.ReLU()), torch.ones(2, 3)).keys()
             -> dict_keys(['0', '1'])
    Lesson (docs/lesson3.md): §1.3

    返回字典 {name: output}，对 `model` 的每个直接子模块（model.named_children()，按顺序）各有一项：
    按 PyTorch 调用模型的方式，也就是 model(x)，在 `x` 上调用模型时，这个子模块返回的东西，这样调用者
    在模型上注册的每个钩子都会运行。输出要 detach（不带计算图），结束后模型上不能留下你注册的任何钩子。
    陷阱：调用 model.forward(x)（或者手动逐个调用子模块）会跳过 nn.Module.__call__ 在 forward 前后运行的
    钩子，例如调用者注册的、会缩放输入的前置钩子；注册了却从不移除的钩子，会在调用者以后的每次调用中继续
    运行（并继续截取输出）。
    示例：layer_outputs(nn.Sequential(nn.Linear(3, 4), nn.ReLU()), torch.ones(2, 3)).keys()
          -> dict_keys(['0', '1'])
    讲义（docs/lesson3.zh.md）：§1.3
    """
    raise NotImplementedError("layer_outputs: not implemented yet / 尚未实现")


def scaler_module(mean: torch.Tensor, std: torch.Tensor) -> nn.Module:
    """Return a module whose forward(x) is (x - mean) / std, holding `mean` and `std` as state that
    is saved with the model (in its state_dict) and moved with it (by .to(device)), but that no
    optimizer trains: the module has no parameters. Its buffers are on the inputs' device and of
    their dtype.

    Pitfall: storing mean and std as nn.Parameter (an optimizer given .parameters() then trains the
    statistics), or as plain tensor attributes (state_dict() never saves them and .to(device) never
    moves them).
    Example: scaler_module(torch.tensor([1.0]), torch.tensor([2.0]))(torch.tensor([[5.0]])) -> tensor([[2.]])
    Lesson (docs/lesson3.md): §1.4

    返回一个模块，它的 forward(x) 计算 (x - mean) / std；`mean` 和 `std` 作为模块的状态保存：随模型一起
    保存（在它的 state_dict 里），随模型一起移动（.to(device) 时），但不会被任何优化器训练：这个模块没有
    参数。它的缓冲区与输入在同一设备上，dtype 也与输入相同。
    陷阱：把 mean 和 std 存成 nn.Parameter（把 .parameters() 交给优化器时，这些统计量会被训练），
    或者存成普通的张量属性（state_dict() 从不保存它们，.to(device) 也从不移动它们）。
    示例：scaler_module(torch.tensor([1.0]), torch.tensor([2.0]))(torch.tensor([[5.0]])) -> tensor([[2.]])
    讲义（docs/lesson3.zh.md）：§1.4
    """
    raise NotImplementedError("scaler_module: not implemented yet / 尚未实现")


def deployed_copy(model: nn.Module, device: torch.device) -> nn.Module:
    """Return a copy of `model` on `device`, in evaluation mode, ready to serve predictions; the
    caller's model stays as it was: on its device, in its mode, with its own parameters (it goes on
    training).

    Pitfall: model.to(device) moves the module itself and returns it (unlike a tensor's .to, which
    returns a moved copy and leaves the tensor alone), and .eval() switches the module itself: both
    change the caller's model instead of a copy.
    Example: deployed_copy(model, torch.device("cpu")) is model -> False, and model.training stays True
    Lesson (docs/lesson3.md): §1.5

    返回 `model` 的一个副本：在 `device` 上、处于评估模式，可以直接用来预测；调用者的模型保持原样：
    留在原来的设备上、保持原来的模式、保有它自己的参数（它还要继续训练）。
    陷阱：model.to(device) 移动的是模块本身，并返回它自己（张量的 .to 则不同：它返回移动后的副本，
    原张量不变），.eval() 切换的也是模块本身：两者改变的都是调用者的模型，而不是副本。
    示例：deployed_copy(model, torch.device("cpu")) is model -> False，并且 model.training 仍为 True
    讲义（docs/lesson3.zh.md）：§1.5
    """
    raise NotImplementedError("deployed_copy: not implemented yet / 尚未实现")
