"""k15_bmi: the lesson's worked example, from data to features / 综合案例：从数据到特征

Replace each `raise NotImplementedError(...)` with your code, then check it with
`python grade.py k15` (score) or `pytest tests/test_k15_bmi.py` (details).
把每个 `raise NotImplementedError(...)` 换成你的代码，然后用 `python grade.py k15`
（查看得分）或 `pytest tests/test_k15_bmi.py`（查看详情）检查。
Lesson notes: §6 in docs/lesson.md.
讲义：docs/lesson.zh.md 的 §6。
"""

import numpy as np
import torch


def bmi_report(heights_m: list, weights_kg: list) -> dict:
    """BMI report for people with heights in metres and weights in kg (two equally long lists
    of Python numbers: floats, or ints). Returns a dict with exactly these keys:

      "bmi":           float32 tensor, weight / height ** 2
      "normalized":    float32 tensor, the BMIs min-max scaled to [0, 1]:
                       (bmi - min) / (max - min); all zeros when every BMI is the same
      "normal":        bool tensor, True where 18.5 <= bmi <= 24.9 (both ends included)
      "normal_values": float32 NumPy array of the BMIs inside that range (may be empty)

    Pitfalls: `bmi >= 18.5 & bmi <= 24.9` without parentheses (`&` binds tighter than `>=`);
    min-max scaling of a constant gives 0 / 0 = NaN; lists of ints give int64 tensors, on which
    in-place division (`w /= h ** 2`) and negative powers (`h ** -2`) raise, and anything built
    from them (`torch.zeros_like(h)`) is int64 too.
    Example: bmi_report([1.65, 1.75, 1.80, 1.60, 1.70], [55.0, 70.0, 82.0, 50.0, 68.0])
             -> {"bmi": tensor([20.2020, 22.8571, 25.3086, 19.5312, 23.5294]),
                 "normalized": tensor([0.1161, 0.5757, 1.0000, 0.0000, 0.6920]),
                 "normal": tensor([True, True, False, True, True]),
                 "normal_values": array([20.20202, 22.857143, 19.531248, 23.529411], dtype=float32)}
             (the numbers of §6.3 in the lesson notes)
    Lesson (docs/lesson.md): §6

    根据身高（米）和体重（千克）生成 BMI 报告（两个等长的 Python 数字列表：浮点数，也可能是整数）。
    返回一个恰好包含以下键的字典：

      "bmi":           float32 张量，体重 / 身高 ** 2
      "normalized":    float32 张量，把 BMI 按最小-最大值缩放到 [0, 1]：
                       (bmi - min) / (max - min)；所有 BMI 都相等时全部为 0
      "normal":        bool 张量，18.5 <= bmi <= 24.9 的位置为 True（两端都包含）
      "normal_values": float32 的 NumPy 数组，内容是落在该范围内的 BMI（可以为空）

    陷阱：`bmi >= 18.5 & bmi <= 24.9` 没加括号（`&` 的优先级比 `>=` 高）；对常数做最小-最大缩放
    会得到 0 / 0 = NaN；整数列表会得到 int64 张量，在它上面做原地除法（`w /= h ** 2`）或负数次幂
    （`h ** -2`）会报错，由它构造的张量（`torch.zeros_like(h)`）也是 int64。
    示例（讲义 §6.2 的数据）：
          bmi_report([1.65, 1.75, 1.80, 1.60, 1.70], [55.0, 70.0, 82.0, 50.0, 68.0])
          -> {"bmi": tensor([20.2020, 22.8571, 25.3086, 19.5312, 23.5294]),
              "normalized": tensor([0.1161, 0.5757, 1.0000, 0.0000, 0.6920]),
              "normal": tensor([True, True, False, True, True]),
              "normal_values": array([20.20202, 22.857143, 19.531248, 23.529411], dtype=float32)}
          （即讲义 §6.3 中的数值）
    讲义（docs/lesson.zh.md）：§6
    """
    raise NotImplementedError("bmi_report: not implemented yet / 尚未实现")
