"""Classic wrong answers and other correct idioms for k11_broadcasting."""

import torch
import torch.nn.functional as F

from selftests.variants import right, wrong


@wrong("mse", "(N, N)", "target's shape")
def mse_broadcast(pred, target):
    return ((pred - target) ** 2).mean()


@wrong("mse", "(N, N)", "F.mse_loss only warns")
def mse_loss_mismatched(pred, target):
    return F.mse_loss(pred, target)


@wrong("mse", "(N, N)", "unsqueeze target")
def mse_unsqueeze_target(pred, target):
    return ((pred - target.unsqueeze(1)) ** 2).mean()


@right("mse")
def mse_loss_view_as(pred, target):
    return F.mse_loss(pred.view_as(target), target)


@right("mse")
def mse_flatten(pred, target):
    return torch.mean((pred.flatten() - target).pow(2))


@right("mse")
def mse_squeeze_last(pred, target):
    diff = (pred.squeeze(-1) if pred.dim() == 2 else pred) - target
    return (diff * diff).sum() / target.numel()


@right("mse")
def mse_squeeze_all(pred, target):
    return ((pred.squeeze() - target) ** 2).mean()


@wrong("normalize_rows", "Wrong dimension", "Keep the summed dimension")
def normalize_rows_no_keepdim(x):
    return x / x.sum(dim=1)


@wrong("normalize_rows", "x.sum(dim=0) sums columns")
def normalize_columns(x):
    return x / x.sum(dim=0)


@wrong("normalize_rows", "Keep the summed dimension", "reductions take an argument that keeps it")
def normalize_by_total(x):
    return x / x.sum()


@right("normalize_rows")
def normalize_rows_none_index(x):
    return x / x.sum(1)[:, None]


@right("normalize_rows")
def normalize_rows_transpose(x):
    return (x.T / x.sum(dim=1)).T


@right("normalize_rows")
def normalize_rows_div(x):
    return torch.div(x, x.sum(dim=1, keepdim=True))


@right("normalize_rows")
def normalize_rows_unsqueeze(x):
    return x / x.sum(dim=-1).unsqueeze(-1)


@wrong("add_channel_bias", "aligns shapes from the right", "(C, 1, 1)")
def add_bias_naive(img, bias):
    return img + bias


@wrong("add_channel_bias", "(C, 1) with H", "(C, 1, 1)")
def add_bias_one_axis(img, bias):
    return img + bias[:, None]


@wrong("add_channel_bias", "(C, 1, 1, 1) bias lines up with B")
def add_bias_leading(img, bias):
    return img + bias.view(-1, 1, 1, 1)


@wrong("add_channel_bias", "changed the caller's img", "img += ")
def add_bias_in_place(img, bias):
    img += bias[:, None, None]
    return img


@right("add_channel_bias")
def add_bias_view(img, bias):
    return img + bias.view(1, -1, 1, 1)


@right("add_channel_bias")
def add_bias_unsqueeze(img, bias):
    return img + bias.unsqueeze(-1).unsqueeze(-1)


@right("add_channel_bias")
def add_bias_channels_last(img, bias):
    return (img.permute(0, 2, 3, 1) + bias).permute(0, 3, 1, 2)


@right("add_channel_bias")
def add_bias_reshape(img, bias):
    return torch.add(img, bias.reshape(-1, 1, 1))


@wrong("pairwise_sq_dist", "a - b pairs row i of a with row i of b only", "(N, 1, D) - (1, M, D)")
def pairwise_rowwise(a, b):
    return ((a - b) ** 2).sum(dim=-1)


@wrong("pairwise_sq_dist", "transposed", "(N, 1, D) - (1, M, D)")
def pairwise_transposed(a, b):
    return ((a[None, :, :] - b[:, None, :]) ** 2).sum(dim=-1)


@wrong("pairwise_sq_dist", "sum(dim=1)", "last dimension")
def pairwise_sums_rows_of_b(a, b):
    return ((a[:, None, :] - b[None, :, :]) ** 2).sum(dim=1)


@wrong("pairwise_sq_dist", "SQUARED distance")
def pairwise_not_squared(a, b):
    return torch.cdist(a, b)


@right("pairwise_sq_dist")
def pairwise_expanded(a, b):
    return (a * a).sum(dim=1, keepdim=True) - 2 * a @ b.T + (b * b).sum(dim=1)


@right("pairwise_sq_dist")
def pairwise_cdist_squared(a, b):
    return torch.cdist(a, b) ** 2


@right("pairwise_sq_dist")
def pairwise_unsqueeze(a, b):
    return (a.unsqueeze(1) - b.unsqueeze(0)).pow(2).sum(2)


@right("pairwise_sq_dist")
def pairwise_einsum(a, b):
    diff = a[:, None] - b
    return torch.einsum("nmd,nmd->nm", diff, diff)


@wrong("mse", "from torch import nn", "missing an import")
def mse_module_without_import(pred, target):
    return nn.MSELoss()(pred.reshape(-1), target)   # noqa: F821 (nn is not imported here, as a learner forgets to)


@wrong("normalize_rows", "negative entries", "plain row sum")
def normalize_rows_l1(x):
    return F.normalize(x, p=1, dim=1)   # divides by the sum of absolute values
