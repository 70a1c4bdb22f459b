"""Classic wrong answers and other correct idioms for k36_data_loaders."""

import contextlib

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, RandomSampler, Subset

from selftests.variants import right, wrong

# --- training_loader --------------------------------------------------------------------------


@wrong("training_loader", "short last batch", "drops it")
def keeps_the_short_batch(dataset, batch_size, seed):
    return DataLoader(dataset, batch_size=batch_size, shuffle=True, generator=torch.Generator().manual_seed(seed))


@wrong("training_loader", "same order every epoch", "once")
def shuffled_once(dataset, batch_size, seed):
    order = torch.randperm(len(dataset), generator=torch.Generator().manual_seed(seed)).tolist()
    return DataLoader(Subset(dataset, order), batch_size=batch_size, drop_last=True)


@wrong("training_loader", "torch.manual_seed", "global")
def seeds_the_global_generator(dataset, batch_size, seed):
    torch.manual_seed(seed)
    return DataLoader(dataset, batch_size=batch_size, shuffle=True, drop_last=True)


@wrong("training_loader", "global generator", "same seed")
def no_generator_at_all(dataset, batch_size, seed):
    return DataLoader(dataset, batch_size=batch_size, shuffle=True, drop_last=True)


@right("training_loader")
def with_a_sampler_of_the_same_generator(dataset, batch_size, seed):
    generator = torch.Generator()
    generator.manual_seed(seed)
    sampler = RandomSampler(dataset, generator=generator)
    return DataLoader(dataset, batch_size, sampler=sampler, drop_last=True, generator=generator)


@right("training_loader")
def positional_arguments(dataset, batch_size, seed):
    return DataLoader(dataset, batch_size, True, drop_last=True, generator=torch.Generator().manual_seed(seed))


# --- evaluate_mse -----------------------------------------------------------------------------


def _evaluate(model, loader, switch=True, no_grad=True):
    """The summed squared errors over the number of elements, as the contract asks: in evaluation
    mode under no_grad, each submodule's mode put back. Each option is one wrong line:
    ``switch=False`` leaves the mode alone (neither into evaluation mode nor back),
    ``no_grad=False`` lets autograd record."""
    modes = {m: m.training for m in model.modules()}
    if switch:
        model.eval()
    total, count = 0.0, 0
    with torch.no_grad() if no_grad else contextlib.nullcontext():
        for x, y in loader:
            total += F.mse_loss(model(x), y, reduction="sum").item()
            count += y.numel()
    if switch:
        for m, mode in modes.items():
            m.training = mode
    return total / count


@wrong("evaluate_mse", "last batch", "full batch")
def mean_of_batch_means(model, loader):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        losses = [F.mse_loss(model(x), y).item() for x, y in loader]
    model.train(was_training)
    return sum(losses) / len(losses)


@wrong("evaluate_mse", "dropout", "evaluation mode")
def evaluates_in_training_mode(model, loader):
    return _evaluate(model, loader, switch=False)


@wrong("evaluate_mse", "mode", "back")
def leaves_eval_mode_on(model, loader):
    model.eval()
    return _evaluate(model, loader, switch=False)


@wrong("evaluate_mse", "graph", "autograd records")
def builds_graphs(model, loader):
    return _evaluate(model, loader, no_grad=False)


@right("evaluate_mse")
def weighted_batch_means(model, loader):
    flags = [(m, m.training) for m in model.modules()]
    model.train(False)
    try:
        with torch.inference_mode():
            pairs = [(F.mse_loss(model(x), y).item(), y.numel()) for x, y in loader]
    finally:
        for m, flag in flags:   # parents first: each child's own flag is set after its parent's
            m.train(flag)
    return sum(loss * n for loss, n in pairs) / sum(n for _, n in pairs)


@right("evaluate_mse")
def all_at_once(model, loader):
    modes = {m: m.training for m in model.modules()}
    model.eval()
    with torch.no_grad():
        predictions, targets = zip(*[(model(x), y) for x, y in loader])
        error = F.mse_loss(torch.cat(predictions), torch.cat(targets)).item()
    for m, mode in modes.items():
        m.train(mode)
    return float(error)


@wrong("evaluate_mse", "MIXED", "top module's mode", "§2.5")
def restores_one_mode_for_the_whole_model(model, loader):
    was_training = model.training
    model.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for x, y in loader:
            total += F.mse_loss(model(x), y, reduction="sum").item()
            count += y.numel()
    model.train(was_training)   # every submodule gets the top module's mode: the frozen batch norm trains again
    return total / count


@wrong("evaluate_mse", "autograd off", "left it off")
def switches_autograd_off_for_good(model, loader):
    torch.set_grad_enabled(False)   # a global switch, never switched back on
    return _evaluate(model, loader, no_grad=False)


@right("evaluate_mse")
def on_a_copy_in_evaluation_mode(model, loader):
    import copy

    served = copy.deepcopy(model).eval()   # the caller's model is never switched at all
    total, count = 0.0, 0
    with torch.no_grad():
        for x, y in loader:
            total += ((served(x) - y) ** 2).sum().item()
            count += y.numel()
    return total / count


class EpochLoader(DataLoader):
    """A DataLoader of one's own (a subclass is a DataLoader)."""


@right("training_loader")
def a_dataloader_subclass(dataset, batch_size, seed):
    return EpochLoader(dataset, batch_size=batch_size, shuffle=True, drop_last=True,
                       generator=torch.Generator().manual_seed(seed))


@wrong("training_loader", "global random number generator")
def only_the_sampler_has_a_generator(dataset, batch_size, seed):
    # The loader itself has no generator: each iteration draws its base seed from the global one.
    sampler = RandomSampler(dataset, generator=torch.Generator().manual_seed(seed))
    return DataLoader(dataset, batch_size=batch_size, sampler=sampler, drop_last=True)


class _ReseededLoader(DataLoader):
    def __iter__(self):
        self.generator.manual_seed(self.seed)   # every epoch starts from the same seed
        return super().__iter__()


@wrong("training_loader", "same order every epoch")
def reseeded_every_epoch(dataset, batch_size, seed):
    loader = _ReseededLoader(dataset, batch_size=batch_size, shuffle=True, drop_last=True, generator=torch.Generator())
    loader.seed = seed
    return loader
