"""Every classic wrong answer fails naming its pitfall; every other correct idiom passes; and each
gets the same verdict against the answer key as against the live reference (``selftests/exact.py``)."""

from collections import Counter

import pytest

from kata_harness.content.curriculum import load_curriculum
from kata_harness.layout import LAYOUT
from kata_harness.outputs.explanations import render, section_text
from selftests.exact import verdict_shown
from selftests.variants import graded_both_ways, load_all

VARIANTS = load_all()
# What every variant's verdict must also be against the answer key, whatever CPU rounded the key's floats.
KEYED = "the answer key and the live reference give this variant different verdicts"
INFO = {f.qualified: f for kata in load_curriculum(LAYOUT.curriculum) for f in kata.functions}


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v.correct], ids=lambda v: v.id)
def test_other_correct_idiom_passes(variant):
    verdict, keyed = graded_both_ways(variant)
    assert verdict.status == "passed", render(verdict, INFO[f"{variant.kata}.{variant.function}"])
    assert verdict_shown(keyed) == verdict_shown(verdict), KEYED


@pytest.mark.parametrize("variant", [v for v in VARIANTS if not v.correct], ids=lambda v: v.id)
def test_classic_wrong_answer_fails_naming_its_pitfall(variant):
    info = INFO[f"{variant.kata}.{variant.function}"]
    verdict, keyed = graded_both_ways(variant)
    assert verdict.status == "failed", f"{variant.id} was graded {verdict.status}"
    assert verdict_shown(keyed) == verdict_shown(verdict), KEYED
    text = render(verdict, info, "en")
    for keyword in variant.keywords:
        assert keyword.lower() in text.lower(), f"message does not name '{keyword}':\n{text}"
    chinese = render(verdict, info, "zh")
    assert "陷阱" in chinese and section_text(info.section, "zh") in chinese, chinese


# The project's own katas (every pitfall of the three lessons); a kata an
# instructor adds needs no variants to be graded.
CORE_KATAS = ("k01_creation", "k02_creation_traps", "k03_dtypes", "k04_promotion", "k05_devices",
              "k06_clone_view", "k07_indexing", "k08_dimensions", "k09_contiguity", "k10_reshape",
              "k11_broadcasting", "k12_joining", "k13_numpy_bridge", "k14_numpy_strides", "k15_bmi",
              "k16_leaves", "k17_inplace_autograd", "k18_grad_accumulation", "k19_inference",
              "k20_reproducibility", "k21_determinism",
              # the second lesson's (autograd and linear regression)
              "k22_backward", "k23_retain_graph", "k24_nonleaf_grads", "k25_detach", "k26_linear_layer",
              "k27_loss_shapes", "k28_running_loss", "k29_gradient_step", "k30_optimizers", "k31_train_eval",
              "k32_linear_regression",
              # the third lesson's (modules, data and the training loop)
              "k33_modules", "k34_module_calls", "k35_datasets", "k36_data_loaders", "k37_real_data",
              "k38_classification", "k39_batch_norm", "k40_checkpoints", "k41_training_loop",
              "k42_devices_training")


def test_every_function_has_a_wrong_answer_and_two_correct_idioms():
    wrong = Counter(f"{v.kata}.{v.function}" for v in VARIANTS if not v.correct)
    right = Counter(f"{v.kata}.{v.function}" for v in VARIANTS if v.correct)
    covered = set(CORE_KATAS) | {v.kata for v in VARIANTS}
    missing = [name for name, info in INFO.items() if info.kata in covered and (wrong[name] < 1 or right[name] < 2)]
    assert not missing, f"functions without a classic wrong answer or two correct idioms: {missing}"
