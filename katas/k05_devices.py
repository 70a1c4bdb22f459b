"""k05_devices: device mismatch / 设备不一致

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k05` (score) or `pytest tests/test_k05_devices.py` (details).
No GPU? The checks also run on PyTorch's data-less "meta" device. Many operations refuse to mix
it with the CPU, in other words than a GPU uses: elementwise arithmetic, torch.cat or a layer with
a bias say "Tensor on device cpu is not on the expected device meta!" (or the same with the two
devices swapped) where a GPU says "Expected all tensors to be on the same device". Some do not:
in PyTorch 2.13 a matrix product (mm, matmul, bmm) or a bias-free nn.Linear mixes meta and CPU
tensors without a word and returns a tensor on one of the two devices (on the CPU, full of
garbage). So the checks also compare the device of every result: a tensor left behind shows
there even where meta is silent.
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k05`
（查看得分）或 `pytest tests/test_k05_devices.py`（查看详情）检查。
没有 GPU？检查也会在 PyTorch 的无数据设备 "meta" 上运行。许多操作不允许把它和 CPU 混用，只是报错的
措辞和 GPU 不同：逐元素运算、torch.cat 或带偏置的层会报 "Tensor on device cpu is not on the expected
device meta!"（或者两个设备互换位置的同一句话），而 GPU 报 "Expected all tensors to be on the same
device"。也有些操作不报错：在 PyTorch 2.13 中，矩阵乘法（mm、matmul、bmm）和没有偏置的 nn.Linear
会一声不响地混用 meta 和 CPU 张量，返回位于其中一个设备上的张量（在 CPU 上时，里面全是垃圾值）。
所以检查还会比较每个结果所在的设备：即使 meta 不报错，落在别处的张量也会在这里暴露出来。
Lesson notes: §3.6, §4.4, §7.1, §8.1 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §3.6、§4.4、§7.1、§8.1。
"""

import torch
from torch import nn


def add_bias(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """`x + bias`, computed on `x`'s device; `bias` may live on another device (e.g. the CPU).

    The result is on `x`'s device; neither input is changed.
    Pitfall: tensors on different devices cannot meet in one operation: "Expected all tensors
    to be on the same device" (on meta: "... is not on the expected device"). And `.to()` is
    not in place: it returns the moved tensor and leaves `bias` where it was.
    Example: add_bias(torch.ones(2, 3, device="cuda"), torch.arange(3.0))
             -> tensor([[1., 2., 3.], [1., 2., 3.]], device='cuda:0')
    Lesson (docs/lesson.md): §4.4, §7.1

    计算 `x + bias`，并且在 `x` 所在的设备上计算；`bias` 可能在另一个设备上（例如 CPU）。
    结果位于 `x` 的设备上；两个输入都不能被修改。
    陷阱：不同设备上的张量不能直接一起运算："Expected all tensors to be on the same device"
    （在 meta 上是 "... is not on the expected device"）。另外 `.to()` 不是原地操作：它返回移动后的
    张量，`bias` 本身留在原处。
    示例：add_bias(torch.ones(2, 3, device="cuda"), torch.arange(3.0))
          -> tensor([[1., 2., 3.], [1., 2., 3.]], device='cuda:0')
    讲义（docs/lesson.zh.md）：§4.4、§7.1
    """
    raise NotImplementedError("add_bias: not implemented yet / 尚未实现")


def to_device(batch, device):
    """`batch` with every tensor moved to `device`, at any depth.

    `batch` is a tensor, or a dict / list / tuple / namedtuple nesting such containers,
    tensors and other leaves (ints, floats, strings, None). Return the SAME structure:
    other leaves unchanged, container types kept (a tuple stays a tuple, a namedtuple stays
    that namedtuple class, a dict keeps its keys). Do not modify `batch` itself: build new
    containers.
    Pitfall: a `to_device` that only handles a bare tensor (§8.1) returns everything else
    untouched, but real batches are dicts and tuples; and a namedtuple cannot be rebuilt from a
    single generator (`type(t)(gen)` fails): it takes its fields as separate arguments.
    Example: to_device({"x": torch.ones(2), "ids": [torch.zeros(1), "a"], "n": 3}, "cuda")
             -> {"x": tensor on cuda, "ids": [tensor on cuda, "a"], "n": 3}
    Lesson (docs/lesson.md): §8.1

    把 `batch` 中任意深度的每个张量都移动到 `device` 上。
    `batch` 可以是一个张量，也可以是由 dict / list / tuple / namedtuple 层层嵌套而成的结构，
    里面有张量和其他叶子（int、float、字符串、None）。返回“同样的结构”：其他叶子原样保留，
    容器类型也要保留（tuple 仍是 tuple，namedtuple 仍是同一个 namedtuple 类，dict 保留它的键）。
    不要修改 `batch` 本身：请构造新的容器。
    陷阱：只处理单个张量的 `to_device`（§8.1）会把其他东西原样返回，可实际的批次往往是
    dict 和 tuple；另外 namedtuple 不能用一个生成器重建（`type(t)(gen)` 会出错）：
    它要把各字段作为单独的参数传入。
    示例：to_device({"x": torch.ones(2), "ids": [torch.zeros(1), "a"], "n": 3}, "cuda")
          -> {"x": 位于 cuda 的张量, "ids": [位于 cuda 的张量, "a"], "n": 3}
    讲义（docs/lesson.zh.md）：§8.1
    """
    raise NotImplementedError("to_device: not implemented yet / 尚未实现")


def run_model(model: nn.Module, x: torch.Tensor) -> torch.Tensor:
    """`model(x)` computed on the device of the model's parameters.

    The model was moved with `.to(device)`, while `x` may still be on the CPU. When the model
    has no parameters (e.g. `nn.ReLU()`, `nn.Flatten()`), run it on `x`'s own device. The
    result stays on the device it was computed on; the model is not changed. (Beyond the lesson.)
    Pitfall: a model moved with `.to(device)` and an input left on the CPU: "Expected all
    tensors to be on the same device" (on meta, a layer without a bias may even run on it and
    return a CPU tensor). And `next(model.parameters())` raises StopIteration for a model
    without parameters.
    Example: run_model(nn.Linear(4, 2).to("cuda"), torch.randn(3, 4)) -> (3, 2) tensor on cuda
    Lesson (docs/lesson.md): §3.6, §7.1

    在模型参数所在的设备上计算 `model(x)`。
    模型已经用 `.to(device)` 移过去了，而 `x` 可能还在 CPU 上。如果模型没有参数
    （例如 `nn.ReLU()`、`nn.Flatten()`），就在 `x` 自己所在的设备上运行。
    结果留在计算它的那个设备上；不能修改模型。（超出本课范围。）
    陷阱：模型用 `.to(device)` 移走了，输入却还留在 CPU 上："Expected all tensors to be on the
    same device"（在 meta 上，没有偏置的层甚至可能照样运行，返回一个 CPU 张量）。另外，对没有参数的
    模型，`next(model.parameters())` 会抛出 StopIteration。
    示例：run_model(nn.Linear(4, 2).to("cuda"), torch.randn(3, 4)) -> 位于 cuda、形状为 (3, 2) 的张量
    讲义（docs/lesson.zh.md）：§3.6、§7.1
    """
    raise NotImplementedError("run_model: not implemented yet / 尚未实现")
