"""Classic wrong answers and other correct idioms for k35_datasets."""

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset

from selftests.variants import right, wrong

# --- sample_at --------------------------------------------------------------------------------


@wrong("sample_at", "float64", "dtype")
def keeps_numpy_dtypes(features, labels, index):
    return torch.from_numpy(features[index].copy()), torch.tensor(labels[index], dtype=torch.int64)


@wrong("sample_at", "int32", "int64")
def keeps_the_label_dtype(features, labels, index):
    return torch.tensor(features[index], dtype=torch.float32), torch.tensor(labels[index])


@wrong("sample_at", "(1,)", "labels[index:index + 1]")
def label_as_a_slice(features, labels, index):
    label = labels[index:index + 1] if index != -1 else labels[-1:]
    return torch.tensor(features[index], dtype=torch.float32), torch.tensor(label, dtype=torch.int64)


@wrong("sample_at", "shares memory", "in place")
def features_as_a_view(features, labels, index):
    return torch.as_tensor(features[index], dtype=torch.float32), torch.tensor(labels[index], dtype=torch.int64)


@right("sample_at")
def converts_in_numpy_first(features, labels, index):
    row = np.asarray(features[index], dtype=np.float32).copy()
    return torch.from_numpy(row), torch.as_tensor(int(labels[index]))


@right("sample_at")
def converts_with_methods(features, labels, index):
    return torch.tensor(features)[index].float(), torch.tensor(labels).long()[index]


# --- image_sample -----------------------------------------------------------------------------


@wrong("image_sample", "reshape(C, H, W)", "channels")
def reshaped_not_permuted(image, label):
    h, w, c = image.shape
    return torch.tensor(image).reshape(c, h, w).float() / 255, torch.tensor(label)


@wrong("image_sample", "[0, 1]", "255")
def left_unscaled(image, label):
    return torch.tensor(image).permute(2, 0, 1).float(), torch.tensor(label)


@wrong("image_sample", "//", "[0, 1]")
def integer_division(image, label):
    return (torch.tensor(image).permute(2, 0, 1) // 255).float(), torch.tensor(label)


@wrong("image_sample", "float32", "uint8")
def stays_uint8(image, label):
    return torch.tensor(image).permute(2, 0, 1), torch.tensor(label)


@right("image_sample")
def transposed_in_numpy(image, label):
    planes = np.transpose(image, (2, 0, 1)).astype(np.float32) / np.float32(255)
    return torch.from_numpy(planes), torch.tensor(label, dtype=torch.long)


@right("image_sample")
def moved_dimension(image, label):
    return torch.movedim(torch.tensor(image, dtype=torch.float32), -1, 0).div(255.0), torch.as_tensor(label)


# --- load_rows --------------------------------------------------------------------------------


class _Rows(Dataset):
    def __init__(self, features, labels, length, sample):
        self.features, self.labels, self.length, self.sample = features, labels, length, sample

    def __len__(self):
        return self.length

    def __getitem__(self, index):
        return self.sample(self.features[index], self.labels[index])


def _good(row, label):
    return torch.tensor(row, dtype=torch.float32), torch.tensor(label, dtype=torch.int64)


def _batches(dataset, batch_size):
    return [(x, y) for x, y in DataLoader(dataset, batch_size=batch_size)]


@wrong("load_rows", "DataLoader", "features.size")
def length_counts_every_element(features, labels, batch_size):
    return _batches(_Rows(features, labels, features.size, _good), batch_size)


@wrong("load_rows", "number of rows", "columns")
def length_counts_the_columns(features, labels, batch_size):
    return _batches(_Rows(features, labels, features.shape[1], _good), batch_size)


@wrong("load_rows", "float64", "dtype")
def samples_in_float64(features, labels, batch_size):
    return _batches(_Rows(features, labels, len(features), lambda r, y: (torch.from_numpy(r.copy()), _good(r, y)[1])),
                    batch_size)


@wrong("load_rows", "(B, 1)", "(1,)")
def labels_of_shape_one(features, labels, batch_size):
    return _batches(_Rows(features, labels, len(features),
                          lambda r, y: (_good(r, y)[0], torch.tensor([y], dtype=torch.int64))), batch_size)


@right("load_rows")
def with_a_tensor_dataset(features, labels, batch_size):
    dataset = TensorDataset(torch.tensor(features, dtype=torch.float32), torch.tensor(labels, dtype=torch.int64))
    return [tuple(batch) for batch in DataLoader(dataset, batch_size=batch_size)]


@right("load_rows")
def converted_once_in_init(features, labels, batch_size):
    class Table(Dataset):
        def __init__(self):
            self.x = torch.from_numpy(np.asarray(features, dtype=np.float32).copy())
            self.y = torch.from_numpy(labels.astype(np.int64))

        def __len__(self):
            return self.x.shape[0]

        def __getitem__(self, i):
            return self.x[i], self.y[i]

    return list(map(tuple, DataLoader(Table(), batch_size=batch_size, shuffle=False)))
