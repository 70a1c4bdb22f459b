"""k20_reproducibility: random seeds / 随机种子

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k20` (score) or `pytest tests/test_k20_reproducibility.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k20`
（查看得分）或 `pytest tests/test_k20_reproducibility.py`（查看详情）检查。
Lesson notes: §3.3, §8.3 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §3.3、§8.3。
"""

import random

import numpy as np
import torch


def set_seed(seed: int) -> None:
    """Seed Python's `random`, NumPy's global RNG and torch (CPU and every GPU) with `seed`,
    so that the same seed gives the same draws from all three. Returns None.

    Pitfall: `torch.manual_seed` alone leaves `random` and NumPy unseeded, so data
    shuffling and augmentation written with them still change from run to run.
    Example: set_seed(42); a = (random.random(), np.random.rand(), torch.rand(1))
             set_seed(42); b = (random.random(), np.random.rand(), torch.rand(1))  # a == b
    Lesson (docs/lesson.md): §8.3

    用 `seed` 同时为 Python 的 `random`、NumPy 的全局随机数生成器和 torch（CPU 及所有 GPU）设置种子，
    使得相同的种子让三者都给出相同的随机数。返回 None。
    陷阱：只调用 `torch.manual_seed` 时，`random` 和 NumPy 并没有被设定种子，
    用它们写的数据打乱、数据增强每次运行仍然不一样。
    示例：set_seed(42); a = (random.random(), np.random.rand(), torch.rand(1))
          set_seed(42); b = (random.random(), np.random.rand(), torch.rand(1))  # a == b
    讲义（docs/lesson.zh.md）：§8.3
    """
    raise NotImplementedError("set_seed: not implemented yet / 尚未实现")


def noise(shape: tuple, seed: int) -> torch.Tensor:
    """The values `torch.randn(shape)` gives right after the global generator is seeded with
    `seed` (`torch.manual_seed`), WITHOUT changing the global torch RNG state. (Beyond the lesson.)

    Pitfall: calling `torch.manual_seed` inside a helper gives the right values, but it
    silently resets everyone else's randomness (dropout, shuffling, initialisation) too.
    Example: noise((2,), 0) -> tensor([1.5410, -0.2934]), and torch.rand(1) afterwards draws
             exactly what it would have drawn without the call
    Lesson (docs/lesson.md): §3.3, §8.3

    返回用 `torch.manual_seed` 以 `seed` 给全局生成器设种子之后，紧接着调用 `torch.randn(shape)` 得到的值，
    但不能改变全局的 torch 随机数状态。（超出本课范围。）
    陷阱：在辅助函数里调用 `torch.manual_seed` 得到的数值是对的，但它会悄悄重置所有其他代码的
    随机性（dropout、数据打乱、参数初始化）。
    示例：noise((2,), 0) -> tensor([1.5410, -0.2934])，并且调用之后 torch.rand(1) 取到的值
          和没有调用它时完全一样
    讲义（docs/lesson.zh.md）：§3.3、§8.3
    """
    raise NotImplementedError("noise: not implemented yet / 尚未实现")
