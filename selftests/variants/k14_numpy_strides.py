"""Classic wrong answers and other correct idioms for k14_numpy_strides."""

import numpy as np
import torch

from selftests.variants import right, wrong


@wrong("tensor_from_flipped", "negative stride", "ordinary memory")
def from_flipped_directly(arr):
    return torch.from_numpy(arr)


@wrong("tensor_from_flipped", "negative", "torch.tensor")
def from_flipped_tensor(arr):
    return torch.tensor(arr)


@wrong("tensor_from_flipped", "tolist")
def from_flipped_via_list(arr):
    return torch.tensor(arr.tolist())


@right("tensor_from_flipped")
def from_flipped_copy(arr):
    return torch.from_numpy(arr.copy())


@right("tensor_from_flipped")
def from_flipped_as_tensor_copy(arr):
    return torch.as_tensor(np.array(arr, copy=True))


@right("tensor_from_flipped")
def from_flipped_tensor_of_copy(arr):
    return torch.tensor(np.ascontiguousarray(arr))


@wrong("flip_images", "negative stride", "torch.flip")
def flip_in_numpy(batch):
    return torch.from_numpy(batch[:, :, ::-1])


@wrong("flip_images", "negative stride")
def flip_np_flip(batch):
    return torch.from_numpy(np.flip(batch, 2))


@wrong("flip_images", "WIDTH dimension")
def flip_height(batch):
    return torch.from_numpy(batch).flip(1)


@right("flip_images")
def flip_copy_first(batch):
    return torch.from_numpy(batch[:, :, ::-1].copy())


@right("flip_images")
def flip_torch_flip(batch):
    return torch.flip(torch.as_tensor(batch), dims=(2,))


@right("flip_images")
def flip_by_index(batch):
    t = torch.from_numpy(batch)
    return t[:, :, torch.arange(t.shape[2] - 1, -1, -1)]
