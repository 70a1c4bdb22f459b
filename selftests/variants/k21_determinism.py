"""Classic wrong answers and other correct idioms for k21_determinism."""

import torch

from selftests.variants import right, wrong


@wrong("make_reproducible", "cudnn.deterministic = True only covers", "torch.use_deterministic_algorithms covers every operation")
def reproducible_old_recipe(seed):
    torch.manual_seed(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False


@wrong("make_reproducible", "warn_only=True only warns")
def reproducible_warn_only(seed):
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.backends.cudnn.benchmark = False


@wrong("make_reproducible", "benchmark", "to False")
def reproducible_benchmark_left_on(seed):
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)


@wrong("make_reproducible", "not seeded")
def reproducible_without_seed(seed):
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.benchmark = False


@right("make_reproducible")
def reproducible_debug_mode(seed):
    torch.backends.cudnn.benchmark = False
    torch.set_deterministic_debug_mode("error")
    torch.manual_seed(seed)


@right("make_reproducible")
def reproducible_keywords(seed):
    torch.random.manual_seed(seed)
    torch.use_deterministic_algorithms(mode=True, warn_only=False)
    torch.backends.cudnn.benchmark = False
    torch.backends.cudnn.deterministic = True      # redundant, and harmless


@wrong("put_values_", "put_ does not have a deterministic implementation", "flat view")
def put_with_put_(x, positions, values):
    x.put_(positions, values)


@wrong("put_values_", "off during the call and on again", "flat view")
def put_values_mode_restored_by_hand(x, positions, values):
    torch.use_deterministic_algorithms(False)    # off for put_ ...
    x.put_(positions, values)
    torch.use_deterministic_algorithms(True)     # ... and on again: the probe after the call sees it on


@wrong("put_values_", "switched deterministic algorithms off")
def put_after_switching_off(x, positions, values):
    torch.use_deterministic_algorithms(False)
    x.put_(positions, values)


@right("put_values_")
def put_index_copy(x, positions, values):
    x.view(-1).index_copy_(0, positions, values)


@right("put_values_")
def put_scatter(x, positions, values):
    x.view(-1).scatter_(0, positions, values)


@right("put_values_")
def put_accumulate_onto_zeros(x, positions, values):
    flat = x.reshape(-1)                          # a view: x is contiguous
    flat[positions] = 0
    x.put_(positions, values, accumulate=True)    # the accumulating put_ is deterministic
