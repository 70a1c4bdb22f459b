"""Classic wrong answers and other correct idioms for k03_dtypes."""

import torch
import torch.nn.functional as F

from selftests.variants import right, wrong

# --- mean_value ------------------------------------------------------------------------------

@wrong("mean_value", "refuses integer", "float32")
def mean_plain(x):
    return x.mean()


@wrong("mean_value", "downcasts float64", "dtype")
def mean_always_float(x):
    return x.float().mean()


@wrong("mean_value", "float32", "not float64")
def mean_always_double_for_ints(x):
    if x.is_floating_point() or x.is_complex():
        return x.mean()
    return x.double().mean()


@wrong("mean_value", "imaginary part")
def mean_float_dtype_argument(x):
    return x.mean(dtype=torch.float32) if x.is_complex() or not x.is_floating_point() else x.mean()


@right("mean_value")
def mean_sum_over_count(x):
    return x.sum() / x.numel()


@right("mean_value")
def mean_with_dtype_argument(x):
    dtype = x.dtype if x.is_floating_point() or x.is_complex() else torch.get_default_dtype()
    return torch.mean(x, dtype=dtype)


@right("mean_value")
def mean_by_dtype_family(x):
    if x.dtype in (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
        x = x.to(torch.float32)
    return x.mean()


# --- class_loss ------------------------------------------------------------------------------

@wrong("class_loss", "int64", "Convert the labels to int64")
def loss_float_targets(logits, labels):
    return F.cross_entropy(logits, labels)


@wrong("class_loss", "int32 is refused", "int64")
def loss_int32_targets(logits, labels):
    return F.cross_entropy(logits, labels.int())


@wrong("class_loss", "uint8", "wraps around")
def loss_byte_targets(logits, labels):
    return F.cross_entropy(logits, labels.byte())   # "expected Long or Byte" suggests it...


@right("class_loss")
def loss_module_int64(logits, labels):
    return torch.nn.CrossEntropyLoss()(logits, labels.to(torch.int64))


@right("class_loss")
def loss_nll_of_log_softmax(logits, labels):
    return F.nll_loss(F.log_softmax(logits, dim=1), labels.long())


@right("class_loss")
def loss_by_hand(logits, labels):
    log_probs = logits.log_softmax(dim=1)
    return -log_probs.gather(1, labels.long().unsqueeze(1)).mean()


@right("class_loss")
def loss_one_hot_probabilities(logits, labels):
    target = F.one_hot(labels.long(), num_classes=logits.shape[1]).to(logits.dtype)
    return F.cross_entropy(logits, target)


# --- apply_linear ----------------------------------------------------------------------------

@wrong("apply_linear", "mat1 and mat2 must have the same dtype", "layer.weight")
def linear_from_numpy(layer, batch):
    return layer(torch.from_numpy(batch))


@wrong("apply_linear", "hard-code float32")
def linear_always_float32(layer, batch):
    return layer(torch.tensor(batch, dtype=torch.float32))


@wrong("apply_linear", "not on the expected device", "device")
def linear_right_dtype_wrong_device(layer, batch):
    return layer(torch.from_numpy(batch).to(layer.weight.dtype))


@wrong("apply_linear", "the layer's dtype", "not the layer")
def linear_converts_layer(layer, batch):
    x = torch.from_numpy(batch).double().to(layer.weight.device)
    return layer.double()(x)


@right("apply_linear")
def linear_to_weight(layer, batch):
    return layer(torch.as_tensor(batch).to(layer.weight))


@right("apply_linear")
def linear_functional(layer, batch):
    p = next(layer.parameters())
    x = torch.tensor(batch, dtype=p.dtype, device=p.device)
    return F.linear(x, layer.weight, layer.bias)


@right("apply_linear")
def linear_from_numpy_then_convert(layer, batch):
    x = torch.from_numpy(batch).to(layer.weight.device).type(layer.weight.dtype)
    return layer(x)


# --- brighten --------------------------------------------------------------------------------

@wrong("brighten", "wraps around", "200 + 100")
def brighten_plain(img, amount):
    return img + amount


@wrong("brighten", "too late", "wider dtype")
def brighten_clamp_after(img, amount):
    return (img + amount).clamp(0, 255)


@wrong("brighten", "uint8 again", "converted back")
def brighten_float_result(img, amount):
    return (img.float() + amount).clamp(max=255)


@wrong("brighten", "caller's image", "in place")
def brighten_in_place(img, amount):
    return img.clamp_(max=255 - amount).add_(amount)


@right("brighten")
def brighten_int_clamp_byte(img, amount):
    return torch.clamp(img.int() + amount, 0, 255).byte()


@right("brighten")
def brighten_clamp_before(img, amount):
    return img.clamp(max=255 - amount) + amount


@right("brighten")
def brighten_where(img, amount):
    return torch.where(img > 255 - amount, torch.full_like(img, 255), img + amount)


# --- gather_rows -----------------------------------------------------------------------------

@wrong("gather_rows", "long, int, byte or bool", "to int64")
def gather_float_index(x, index):
    return x[index]


@wrong("gather_rows", "int32 or int64", "to int64")
def gather_index_select_float(x, index):
    return torch.index_select(x, 0, index)


@wrong("gather_rows", "LongTensor", "CPU")
def gather_legacy_type(x, index):
    return x[index.type(torch.LongTensor)]


@right("gather_rows")
def gather_index_select(x, index):
    return x.index_select(0, index.to(torch.int64))


@right("gather_rows")
def gather_int32(x, index):
    return x[index.int()]


@right("gather_rows")
def gather_with_torch_gather(x, index):
    idx = index.long().reshape(-1, *([1] * (x.dim() - 1))).expand(-1, *x.shape[1:])
    return torch.gather(x, 0, idx)


@wrong("gather_rows", "index is empty", "non-empty TensorList", "whole index at once")
def gather_row_by_row(x, index):
    return torch.stack([x[int(i)] for i in index])   # no rows: nothing to stack


@wrong("gather_rows", "mask", "to int64")
def gather_byte_index(x, index):
    return x[index.byte()]   # a uint8 index is a (deprecated) mask, not row numbers


# --- found by the audit of lesson 1 against labels on a GPU ------------------------------------


@wrong("class_loss", "Cannot copy out of meta tensor", "moved the labels to the CPU")
def converts_to_a_cpu_tensor_type(logits, labels):
    return F.cross_entropy(logits, labels.type(torch.LongTensor))   # int64, and on the CPU


@right("class_loss")
def log_softmax_and_nll(logits, labels):
    return F.nll_loss(F.log_softmax(logits, dim=1), labels.to(torch.int64))
