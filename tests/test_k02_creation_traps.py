"""Checks for k02_creation_traps: which cases, on which devices, and which aspects matter.

class_counts runs with deterministic algorithms switched on by its case recipe, just before the
call (the harness switches them off again before the next one), through torch's own switch: the
public ``torch.use_deterministic_algorithms`` also imports torch._inductor, a second or more on its
first use, inside the function's time limit. In that mode
torch fills the memory that torch.empty hands out with NaN (float and complex dtypes; integers get their largest
value), so counting into uninitialised float32 memory shows on every machine instead of only by
bad luck. Its aspect `device_mix` sees counts made on the default device (torch.zeros(num_classes)
without device=) meet labels that may be on a GPU; it is not run on meta, where torch.bincount has no
length to give, nor on a GPU, where the deterministic switch of its cases is untried. roll_dice is also
judged by the global RNG state, which it must leave alone.
"""

import torch

from kata_harness.spec import BASIC, Case, Function, Kata, custom, randint, tensor


def uninitialised_memory_shown(recipe):
    """``recipe``, built with deterministic algorithms switched on for the call that follows."""
    def build(gen, device):
        value = recipe.build(gen, device)
        torch._C._set_deterministic_algorithms(True)
        return value
    return custom(build)


KATA = Kata("k02_creation_traps", [
    Function("class_counts", [
        Case(uninitialised_memory_shown(randint(0, 5, 20)), 5),
        Case(uninitialised_memory_shown(tensor([0, 0, 3])), 6, label="absent_classes"),
        Case(uninitialised_memory_shown(randint(0, 3, 100)), 3),
        Case(uninitialised_memory_shown(tensor([4, 4, 4, 4])), 5),
        Case(uninitialised_memory_shown(tensor([], dtype=torch.int64)), 3, label="absent_classes"),
    ], aspects=BASIC + ("device_mix",)),
    Function("roll_dice", [
        Case(10, 0), Case(30, 7), Case(1, 42), Case(100, 2024), Case(0, 1),
        # Official grading only (the seed is an argument, not a recipe the secret could redraw).
        Case(60, 5, hidden=True), Case(7, 123, hidden=True),
    ], aspects=BASIC + ("rng",)),
])
