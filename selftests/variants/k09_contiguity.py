"""Classic wrong answers and other correct idioms for k09_contiguity."""

import torch

from selftests.variants import right, wrong

# --- flatten_transposed ----------------------------------------------------------------------

@wrong("flatten_transposed", "view size is not compatible", "non-contiguous", "never copies")
def flatten_view_after_t(x):
    return x.t().view(-1)


@wrong("flatten_transposed", "not of x.T", "transpose first")
def flatten_without_transpose(x):
    return x.flatten()


@wrong("flatten_transposed", "never transpose")
def flatten_reshape_swapped(x):
    return x.reshape(x.shape[1], x.shape[0]).reshape(-1)


@right("flatten_transposed")
def flatten_T_flatten(x):
    return x.T.flatten()


@right("flatten_transposed")
def flatten_contiguous_view(x):
    return x.transpose(0, 1).contiguous().view(-1)


@right("flatten_transposed")
def flatten_columns(x):
    return torch.cat([x[:, j] for j in range(x.shape[1])])


# --- merge_heads -----------------------------------------------------------------------------

@wrong("merge_heads", "view after transpose", "never copies")
def merge_view_after_transpose(x):
    b, h, t, d = x.shape
    return x.transpose(1, 2).view(b, t, h * d)


@wrong("merge_heads", "scrambled", "(B, T, H, D)")
def merge_reshape_only(x):
    b, h, t, d = x.shape
    return x.reshape(b, t, h * d)


@wrong("merge_heads", "not (B, T, D, H)")
def merge_wrong_axis_order(x):
    b, h, t, d = x.shape
    return x.permute(0, 2, 3, 1).reshape(b, t, -1)


@wrong("merge_heads", "(B, T, H*D)", "flatten(1, 2)")
def merge_wrong_axes(x):
    return x.flatten(1, 2)


@right("merge_heads")
def merge_flatten_last(x):
    return x.transpose(1, 2).flatten(2)


@right("merge_heads")
def merge_permute_contiguous_view(x):
    b, h, t, d = x.shape
    return x.permute(0, 2, 1, 3).contiguous().view(b, t, -1)


@right("merge_heads")
def merge_cat_heads(x):
    return torch.cat(x.unbind(dim=1), dim=-1)


# --- to_channels_first -----------------------------------------------------------------------

@wrong("to_channels_first", "reshape is not permute", "move the dimension with permute")
def channels_reshape(img):
    h, w, c = img.shape
    return img.reshape(c, h, w)


@wrong("to_channels_first", "non-contiguous", "contiguous tensor")
def channels_permute_only(img):
    return img.permute(2, 0, 1)


@wrong("to_channels_first", ".clone() does not help")
def channels_permute_clone(img):
    return img.permute(2, 0, 1).clone()


@wrong("to_channels_first", "(C, W, H)")
def channels_transpose(img):
    return img.transpose(0, 2).contiguous()


@right("to_channels_first")
def channels_movedim(img):
    return torch.movedim(img, -1, 0).contiguous()


@right("to_channels_first")
def channels_stack(img):
    return torch.stack([img[:, :, c] for c in range(img.shape[2])])


@right("to_channels_first")
def channels_clone_contiguous_format(img):
    return img.permute(2, 0, 1).clone(memory_format=torch.contiguous_format)
