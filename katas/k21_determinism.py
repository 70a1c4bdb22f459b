"""k21_determinism: deterministic algorithms / 确定性算法

Beyond the lesson: §8.3 seeds the generators and warns that GPU computations can still
differ from run to run; this kata shows PyTorch's switch for that.
超出本课范围：§8.3 讲了设置随机种子，并提醒 GPU 计算即使设了种子也可能每次不同；本练习介绍
PyTorch 为此提供的开关。

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k21` (score) or `pytest tests/test_k21_determinism.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k21`
（查看得分）或 `pytest tests/test_k21_determinism.py`（查看详情）检查。
Lesson notes: §8.3 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §8.3。
"""

import torch


def make_reproducible(seed: int) -> None:
    """Prepare a reproducible run: seed torch's generators with `seed`, make every later PyTorch
    operation use a deterministic algorithm and RAISE where it has none (errors, not warnings),
    and switch off cuDNN's benchmark mode (which picks kernels by timing them). Returns None.
    (Beyond the lesson.)

    Pitfall: seeding is not enough: some kernels (many on GPUs) add up in an order that changes
    from run to run. `torch.backends.cudnn.deterministic = True`, the old recipe, only covers
    cuDNN convolutions; `torch.use_deterministic_algorithms` covers every operation, and
    `warn_only=True` would only warn where there is no deterministic version. On a GPU, cuBLAS
    also needs the environment variable CUBLAS_WORKSPACE_CONFIG=:4096:8 set before the program
    starts (not checked here).
    Example: make_reproducible(0); torch.are_deterministic_algorithms_enabled() -> True
    Lesson (docs/lesson.md): §8.3

    为可复现的运行做准备：用 `seed` 为 torch 的随机数生成器设置种子；让之后的每个 PyTorch 操作都使用
    确定性算法，没有确定性实现的操作直接“报错”（而不是警告）；并关闭 cuDNN 的 benchmark 模式
    （它通过计时来挑选算子实现）。返回 None。（超出本课范围。）
    陷阱：只设种子是不够的：有些算子（GPU 上尤其多）求和的顺序每次运行都可能不同。
    旧办法 `torch.backends.cudnn.deterministic = True` 只管 cuDNN 的卷积；
    `torch.use_deterministic_algorithms` 则覆盖所有操作，而 `warn_only=True` 在没有确定性
    实现时只会给出警告。在 GPU 上，cuBLAS 还需要在程序启动之前设置环境变量
    CUBLAS_WORKSPACE_CONFIG=:4096:8（这里不检查）。
    示例：make_reproducible(0); torch.are_deterministic_algorithms_enabled() -> True
    讲义（docs/lesson.zh.md）：§8.3
    """
    raise NotImplementedError("make_reproducible: not implemented yet / 尚未实现")


def put_values_(x: torch.Tensor, positions: torch.Tensor, values: torch.Tensor) -> None:
    """Write `values[i]` into the contiguous tensor `x` at row-major position `positions[i]`
    (an int64 tensor of distinct positions), IN PLACE, while deterministic algorithms are on
    (the checks switch them on with `torch.use_deterministic_algorithms` before calling, and they
    must stay on throughout the call). Returns None. (Beyond the lesson.)

    Pitfall: `x.put_(positions, values)` is exactly this operation, but it has no deterministic
    implementation, so in deterministic mode it raises instead of risking a result that could
    change between runs. Write through a flat view of `x` instead; and do not switch the mode
    off to get past the error, not even for a moment: an operation run while it is off has no
    guarantee, whatever the mode is afterwards.
    Example: x = torch.zeros(2, 3); put_values_(x, torch.tensor([0, 4]), torch.tensor([1.0, 2.0]))
             ->  x is tensor([[1., 0., 0.], [0., 2., 0.]])
    Lesson (docs/lesson.md): §8.3

    在确定性算法开启的情况下（检查会在调用前用 `torch.use_deterministic_algorithms` 打开它，整个调用
    过程中它都必须一直开着），把 `values[i]` “原地”写进连续张量 `x` 中按行优先顺序编号为 `positions[i]`
    的位置（`positions` 是 int64 张量，各位置互不相同）。返回 None。（超出本课范围。）
    陷阱：`x.put_(positions, values)` 恰好就是这个操作，但它没有确定性实现，所以在确定性模式下它会
    直接报错，而不是冒险给出每次运行可能不同的结果。请改为通过 `x` 的展平视图来写；也不要为了绕过
    报错而关闭这个模式，哪怕只关一小会儿：模式关着时运行的操作没有任何保证，不管之后模式是什么。
    示例：x = torch.zeros(2, 3); put_values_(x, torch.tensor([0, 4]), torch.tensor([1.0, 2.0]))
          ->  x 变成 tensor([[1., 0., 0.], [0., 2., 0.]])
    讲义（docs/lesson.zh.md）：§8.3
    """
    raise NotImplementedError("put_values_: not implemented yet / 尚未实现")
