"""Classic wrong answers and other correct idioms for k20_reproducibility."""

import random

import numpy as np
import torch

from selftests.variants import right, wrong


@wrong("set_seed", "random.seed", "torch.manual_seed alone")
def set_seed_torch_only(seed):
    torch.manual_seed(seed)


@wrong("set_seed", "np.random.seed")
def set_seed_forgets_numpy(seed):
    random.seed(seed)
    torch.manual_seed(seed)


@wrong("set_seed", "default_rng", "np.random.seed")
def set_seed_numpy_new_generator(seed):
    random.seed(seed)
    np.random.default_rng(seed)
    torch.manual_seed(seed)


@wrong("set_seed", "torch.manual_seed", "GPUs")
def set_seed_gpus_only(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.cuda.manual_seed_all(seed)


@wrong("set_seed", "None")
def set_seed_returns_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    return seed


@right("set_seed")
def set_seed_tutorial(seed=42):
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    np.random.seed(seed)
    random.seed(seed)


@right("set_seed")
def set_seed_via_states(seed):
    random.setstate(random.Random(seed).getstate())
    np.random.set_state(np.random.RandomState(seed).get_state())
    torch.random.manual_seed(seed)


@wrong("noise", "global torch RNG", "private torch.Generator", "fork_rng")
def noise_global_seed(shape, seed):
    torch.manual_seed(seed)
    return torch.randn(shape)


@wrong("noise", "generator=g")
def noise_generator_not_passed(shape, seed):
    g = torch.Generator().manual_seed(seed)   # noqa: F841 (the pitfall: made, then never passed)
    return torch.randn(shape)


@wrong("noise", "float32", "float64")
def noise_from_numpy(shape, seed):
    return torch.from_numpy(np.random.default_rng(seed).standard_normal(shape))


@right("noise")
def noise_fork_rng(shape, seed):
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return torch.randn(shape)


@right("noise")
def noise_save_and_restore(shape, seed):
    state = torch.get_rng_state()
    torch.manual_seed(seed)
    values = torch.randn(shape)
    torch.set_rng_state(state)
    return values


@right("noise")
def noise_normal_in_place(shape, seed):
    g = torch.Generator()
    g.manual_seed(seed)
    return torch.empty(shape).normal_(generator=g)
