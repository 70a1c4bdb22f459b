"""The second lesson's probes measure what they say. k32's training functions are judged by their
distance from the least-squares fit of each case's data; the kata test computes that fit from the
whitened features (so that learners reading the test find no way to fit other data), and here it is
held to a solver's fit on every case, on several seeds."""

import pytest
import torch

from kata_harness.layout import LAYOUT, ROOT
from kata_harness.observation.local import load_kata_spec, load_module

K32 = load_module(ROOT / "tests" / "test_k32_linear_regression.py")
SPEC = load_kata_spec("k32_linear_regression", LAYOUT.tests)


def _solver_fit(x, y):
    x, y = x.detach().cpu().double(), y.detach().cpu().double()
    design = torch.cat([x, torch.ones(x.shape[0], 1, dtype=torch.float64)], dim=1)
    solution = torch.linalg.lstsq(design, y).solution
    return solution[:-1], solution[-1]


def _data(function: str, args: list):
    """The case's (x, y): fit_by_hand is given them first, fit_with_sgd after its model."""
    return (args[0], args[1]) if function == "fit_by_hand" else (args[1], args[2])


@pytest.mark.parametrize("function", ["fit_by_hand", "fit_with_sgd"])
def test_the_fit_the_probes_measure_from_is_the_least_squares_fit(function):
    cases = SPEC.function(function).cases
    assert cases
    for case in cases:
        for seed in (0, 1, 12345):
            args, _ = case.build(seed, torch.device("cpu"))
            x, y = _data(function, args)
            (w, b), (best_w, best_b) = K32._fit(x, y), _solver_fit(x, y)
            assert torch.allclose(w, best_w, atol=1e-5) and abs(float(b - best_b)) < 1e-5, (function, seed)



def test_the_first_loss_is_told_as_a_number_both_when_it_is_the_start_and_when_it_is_not():
    """A learner reads "yours is 2.4189, expected 6.70344", not a formula; a start reached is written
    alike for learner and reference, and a miss never reads as the start."""
    from kata_harness.spec import Call

    y = torch.tensor([1.0, 2.0, 3.0])
    start = float((y.double() ** 2).mean())
    at_start = Call(fn=None, args=[torch.zeros(3, 1), y], kwargs={}, result=(None, None, torch.tensor([start, 1.0])))
    moved = Call(fn=None, args=[torch.zeros(3, 1), y], kwargs={}, result=(None, None, torch.tensor([start * 1.001])))
    assert float(K32.first_loss(at_start)) == pytest.approx(start, rel=1e-5)
    assert float(K32.first_loss(moved)) == pytest.approx(start * 1.001, rel=1e-5)
    assert K32.first_loss(moved) != K32.first_loss(at_start)
