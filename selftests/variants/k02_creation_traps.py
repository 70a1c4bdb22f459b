"""Classic wrong answers and other correct idioms for k02_creation_traps."""

import torch
import torch.nn.functional as F

from selftests.variants import right, wrong


@wrong("class_counts", "torch.empty", "NaN", "set to 0", "never set")
def counts_into_empty(labels, num_classes):
    counts = torch.empty(num_classes)
    return counts.index_add_(0, labels, torch.ones(len(labels)))


@wrong("class_counts", "torch.empty", "NaN")
def counts_into_empty_like(labels, num_classes):
    counts = labels.new_empty(num_classes, dtype=torch.float32)
    for label in labels.tolist():
        counts[label] += 1
    return counts


@wrong("class_counts", "largest label present")
def counts_bincount_without_minlength(labels, num_classes):
    return torch.bincount(labels).float()


@wrong("class_counts", "int64", "float32")
def counts_bincount_int(labels, num_classes):
    return torch.bincount(labels, minlength=num_classes)


@right("class_counts")
def counts_bincount(labels, num_classes):
    return torch.bincount(labels, minlength=num_classes).float()


@right("class_counts")
def counts_one_hot(labels, num_classes):
    return F.one_hot(labels, num_classes).sum(dim=0).to(torch.float32)


@wrong("class_counts", "default device")
def counts_scatter_add(labels, num_classes):   # counts on the CPU: GPU labels cannot meet them
    return torch.zeros(num_classes).scatter_add_(0, labels, torch.ones(labels.shape))


@wrong("class_counts", "default device")
def counts_compare(labels, num_classes):   # torch.arange on the CPU meets the labels
    return (labels[:, None] == torch.arange(num_classes)).sum(dim=0).float()


@wrong("roll_dice", "EXCLUSIVE", "never drawn")
def dice_without_six(n, seed):
    return torch.randint(1, 6, (n,), generator=torch.Generator().manual_seed(seed))


@wrong("roll_dice", "EXCLUSIVE")
def dice_from_zero(n, seed):
    return torch.randint(0, 6, (n,), generator=torch.Generator().manual_seed(seed))


@wrong("roll_dice", "int64")
def dice_int32(n, seed):
    return torch.randint(1, 7, (n,), generator=torch.Generator().manual_seed(seed), dtype=torch.int32)


@wrong("roll_dice", "global generator", "torch.Generator", "generator=")
def dice_global_seed(n, seed):
    torch.manual_seed(seed)         # the right throws, and everybody's generator reseeded
    return torch.randint(1, 7, (n,))


@wrong("roll_dice", "global generator")
def dice_resetting_the_callers_generator(n, seed):
    torch.manual_seed(0)            # "to start clean": the caller's own random stream starts over
    return torch.randint(1, 7, (n,), generator=torch.Generator().manual_seed(seed))


@right("roll_dice")
def dice_shifted(n, seed):
    return torch.randint(0, 6, (n,), generator=torch.Generator().manual_seed(seed)) + 1


@right("roll_dice")
def dice_high_only(n, seed):
    return 1 + torch.randint(6, size=(n,), generator=torch.Generator().manual_seed(seed))


@right("roll_dice")
def dice_random_(n, seed):
    return torch.empty(n, dtype=torch.int64).random_(1, 7, generator=torch.Generator().manual_seed(seed))


# --- found by the audit of lesson 1 against a caller's labels on a GPU -------------------------


@wrong("class_counts", "default device", "where the labels are")
def counts_on_the_default_device(labels, num_classes):
    counts = torch.zeros(num_classes)   # the CPU, wherever the labels are
    return counts.index_add_(0, labels, torch.ones(len(labels)))


@right("class_counts")
def sums_one_hot_rows(labels, num_classes):
    return F.one_hot(labels, num_classes).sum(dim=0).to(torch.float32)
