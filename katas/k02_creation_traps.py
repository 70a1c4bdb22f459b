"""k02_creation_traps: uninitialised memory and exclusive bounds / 未初始化的内存与不含上界的范围

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k02` (score) or `pytest tests/test_k02_creation_traps.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k02`
（查看得分）或 `pytest tests/test_k02_creation_traps.py`（查看详情）检查。
Lesson notes: §3.3, §3.5, §8.3 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §3.3、§3.5、§8.3。
"""

import torch


def class_counts(labels: torch.Tensor, num_classes: int) -> torch.Tensor:
    """How often each class id 0 .. num_classes - 1 occurs in the 1-D int64 tensor `labels`, as a
    float32 tensor of shape (num_classes,) (0 for a class that never occurs), on the device of
    `labels` (a GPU, say).

    Pitfall: `torch.empty(num_classes)` hands out memory WITHOUT setting it: adding counts to it
    (`index_add_`, `+=`) adds them to whatever happened to be there. On your machine that is
    often 0, so the bug hides; the checks run your function with deterministic algorithms
    switched on (`torch.use_deterministic_algorithms`), and then PyTorch fills such float memory
    with NaN. And counts made without `device=` are on the CPU, where GPU labels cannot meet them.
    Example: class_counts(torch.tensor([0, 2, 2]), 4) -> tensor([1., 0., 2., 0.])
    Lesson (docs/lesson.md): §3.5

    统计一维 int64 张量 `labels` 中每个类别编号 0 .. num_classes - 1 出现的次数，返回形状为
    (num_classes,) 的 float32 张量（从未出现的类别为 0），放在 `labels` 所在的设备上（比如 GPU）。
    陷阱：`torch.empty(num_classes)` 给出的内存“没有初始化”：往里面累加计数（`index_add_`、`+=`）
    就是加到内存里原有的随便什么值上。在你的机器上那往往是 0，于是问题被掩盖了；检查时会打开确定性算法
    （`torch.use_deterministic_algorithms`）再运行你的函数，这时 PyTorch 会把这样的浮点内存填成 NaN。
    另外，不带 `device=` 创建的计数在 CPU 上，GPU 上的标签无法和它们一起运算。
    示例：class_counts(torch.tensor([0, 2, 2]), 4) -> tensor([1., 0., 2., 0.])
    讲义（docs/lesson.zh.md）：§3.5
    """
    raise NotImplementedError("class_counts: not implemented yet / 尚未实现")


def roll_dice(n: int, seed: int) -> torch.Tensor:
    """`n` throws of a fair six-sided die (values 1 to 6, each equally likely) as an int64 tensor
    of shape (n,), drawn with `torch.randint` from a generator of its own seeded with `seed` (a new
    `torch.Generator`, seeded with its `manual_seed` method). The global random number generator
    is left alone: whatever draws from it next gets the numbers it would have got anyway.

    Pitfall: `torch.randint(low, high, ...)` never returns `high`: the upper bound is EXCLUSIVE,
    as in Python's `range`. `torch.randint(1, 6, ...)` is a die without a six.
    And `torch.manual_seed` inside the function would reseed the global generator, which every
    other part of the program draws from.
    Example: roll_dice(5, 0) -> five ints from 1 to 6; over many throws each face shows up
    Lesson (docs/lesson.md): §3.3, §8.3

    用自己的、以 `seed` 为种子的生成器（新建一个 `torch.Generator`，用它的 `manual_seed` 方法设种子）
    和 `torch.randint`，模拟掷一个均匀的六面骰子 `n` 次（点数 1 到 6，概率相同），返回形状为 (n,) 的
    int64 张量。不要动全局随机数生成器：之后从它取数的代码，取到的数和没调用这个函数时一样。
    陷阱：`torch.randint(low, high, ...)` 永远不会返回 `high`：上界是“不包含”的，和 Python 的 `range`
    一样。`torch.randint(1, 6, ...)` 是一个没有 6 点的骰子。另外，在函数里调用 `torch.manual_seed`
    会重设全局生成器的种子，程序里其他所有代码取到的随机数都会跟着改变。
    示例：roll_dice(5, 0) -> 五个 1 到 6 之间的整数；掷的次数多了，每一面都会出现
    讲义（docs/lesson.zh.md）：§3.3、§8.3
    """
    raise NotImplementedError("roll_dice: not implemented yet / 尚未实现")
