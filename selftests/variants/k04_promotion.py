"""Classic wrong answers and other correct idioms for k04_promotion."""

import torch

from selftests.variants import right, wrong


@wrong("project", "expected m1 and m2 to have the same dtype", "w.dtype")
def project_int_matmul(x, w):
    return x @ w


@wrong("project", "* is not @")
def project_elementwise(x, w):
    return x.float() * w


@wrong("project", "float32")
def project_double(x, w):
    return x.double() @ w.double()


@wrong("project", "cut the weights")
def project_int_weights(x, w):
    return (x @ w.long()).float()


@right("project")
def project_float(x, w):
    return x.float() @ w


@right("project")
def project_matmul_like(x, w):
    return torch.matmul(x.to(w), w)


@right("project")
def project_einsum(x, w):
    return torch.einsum("nd,dk->nk", x.to(w.dtype), w)


@right("project")
def project_sum_of_products(x, w):
    return (x.to(w.dtype)[:, :, None] * w[None, :, :]).sum(dim=1)


@wrong("weighted_sum", "(N, D)", "matrix first")
def weighted_elementwise(values, weights):
    return values * weights


@wrong("weighted_sum", "order of @")
def weighted_wrong_order(values, weights):
    return weights @ values


@wrong("weighted_sum", "adds the rows together")
def weighted_total(values, weights):
    return (values * weights).sum()


@wrong("weighted_sum", "(1,)", "squeeze() removes EVERY dimension of size 1")
def weighted_column_squeezed(values, weights):
    return values.matmul(weights.unsqueeze(1)).squeeze()   # 0-dim when N == 1


@right("weighted_sum")
def weighted_column_squeezed_at_its_dim(values, weights):
    return values.matmul(weights.unsqueeze(1)).squeeze(1)


@right("weighted_sum")
def weighted_mul_sum(values, weights):
    return (values * weights).sum(dim=1)


@right("weighted_sum")
def weighted_mv(values, weights):
    return torch.mv(values, weights)


@right("weighted_sum")
def weighted_einsum(values, weights):
    return torch.einsum("nd,d->n", values, weights)


@wrong("standardize", "float64", "x's dtype")
def standardize_from_numpy(x, mean, std):
    return (x - torch.from_numpy(mean)) / torch.from_numpy(std)


@wrong("standardize", "NumPy array itself")
def standardize_with_arrays(x, mean, std):
    return (x - mean) / std


@right("standardize")
def standardize_to_x(x, mean, std):
    return (x - torch.from_numpy(mean).to(x)) / torch.from_numpy(std).to(x)


@wrong("standardize", "on the CPU")
def standardize_in_float64(x, mean, std):   # the right dtype, but the statistics stay on the CPU
    return ((x.double() - torch.from_numpy(mean)) / torch.from_numpy(std)).to(x.dtype)


@wrong("standardize", "on the CPU")
def standardize_tensor_float(x, mean, std):   # torch.tensor without device=: the CPU
    return (x - torch.tensor(mean, dtype=torch.float32)) / torch.tensor(std, dtype=torch.float32)


# --- found by the audit of lesson 1 against an x on a GPU --------------------------------------


@wrong("standardize", "on the CPU", "on x's device")
def statistics_from_numpy_on_the_cpu(x, mean, std):
    return (x - torch.from_numpy(mean).float()) / torch.from_numpy(std).float()


@wrong("standardize", "on the CPU", "Expected all tensors to be on the same device")
def statistics_without_device(x, mean, std):
    return (x - torch.as_tensor(mean, dtype=x.dtype)) / torch.as_tensor(std, dtype=x.dtype)


@right("standardize")
def computes_in_float64_and_casts_back(x, mean, std):
    where = x.device
    return ((x.double() - torch.from_numpy(mean).to(where)) / torch.from_numpy(std).to(where)).to(x.dtype)
