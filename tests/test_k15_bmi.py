"""Checks for k15_bmi: which cases, on which devices, and which aspects matter.

The inputs are plain Python lists, so the cases are literal data: the tutorial's own (§6.2),
BMIs exactly on both ends of the normal range (18.5 = 18.5 / 1.0**2 = 74 / 2**2, and 24.9 =
24.9 / 1.0**2 = 99.6 / 2**2, all exact in float32, so the inclusive ends are robust), every BMI
equal (min-max scaling divides 0 by 0), a single person, nobody in the normal range (an empty
float32 array), and lists of ints (int64 tensors unless converted). Official grading adds two
more pairs of lists (hidden cases): one of floats and one of ints.
"""

from kata_harness.spec import Case, Function, Kata

KATA = Kata("k15_bmi", [
    Function("bmi_report", [
        Case([1.65, 1.75, 1.80, 1.60, 1.70], [55.0, 70.0, 82.0, 50.0, 68.0]),
        Case([1.0, 2.0, 1.0, 2.0, 1.0, 1.0], [18.5, 74.0, 24.9, 99.6, 18.4, 25.0], label="boundary"),
        Case([1.0, 2.0, 1.5], [20.0, 80.0, 45.0], label="constant"),
        Case([1.80], [70.0], label="constant"),
        Case([1.60, 1.75, 1.90], [40.0, 95.0, 120.0], label="nobody_normal"),
        Case([2, 2, 1, 2], [80, 74, 20, 100], label="int_lists"),
        Case([2, 1], [80, 20], label="int_lists"),
        # Official grading only (nothing random here to draw again from the instructor's secret).
        Case([1.55, 1.82, 1.68, 1.91, 1.74], [48.0, 90.0, 62.5, 60.0, 70.0], hidden=True),
        Case([2, 1, 2], [90, 22, 60], label="int_lists", hidden=True),
    ]),
])
