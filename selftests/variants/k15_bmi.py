"""Classic wrong answers and other correct idioms for k15_bmi."""

import numpy as np
import torch

from selftests.variants import right, wrong


def _floats(heights_m, weights_kg):
    return torch.tensor(heights_m, dtype=torch.float32), torch.tensor(weights_kg, dtype=torch.float32)


def _scaled(bmi):
    low, span = bmi.min(), bmi.max() - bmi.min()
    return torch.where(span > 0, (bmi - low) / span, torch.zeros_like(bmi))


@wrong("bmi_report", "parentheses", "binds tighter")
def bmi_no_parentheses(heights_m, weights_kg):
    h, w = _floats(heights_m, weights_kg)
    bmi = w / h ** 2
    normal = bmi >= 18.5 & bmi <= 24.9
    return {"bmi": bmi, "normalized": _scaled(bmi), "normal": normal, "normal_values": bmi[normal].numpy()}


@wrong("bmi_report", "`and`", "ambiguous", "parentheses")
def bmi_python_and(heights_m, weights_kg):
    h, w = _floats(heights_m, weights_kg)
    bmi = w / h ** 2
    normal = (bmi >= 18.5) and (bmi <= 24.9)
    return {"bmi": bmi, "normalized": _scaled(bmi), "normal": normal, "normal_values": bmi[normal].numpy()}


@wrong("bmi_report", "0 by 0", "NaN", "zeros")
def bmi_scaling_nan(heights_m, weights_kg):
    h, w = _floats(heights_m, weights_kg)
    bmi = w / h ** 2
    normalized = (bmi - bmi.min()) / (bmi.max() - bmi.min())
    normal = (bmi >= 18.5) & (bmi <= 24.9)
    return {"bmi": bmi, "normalized": normalized, "normal": normal, "normal_values": bmi[normal].numpy()}


@wrong("bmi_report", "int64", "float32 from the start")
def bmi_int_in_place(heights_m, weights_kg):
    h, w = torch.tensor(heights_m), torch.tensor(weights_kg)
    bmi = w
    bmi /= h ** 2
    normal = (bmi >= 18.5) & (bmi <= 24.9)
    return {"bmi": bmi, "normalized": _scaled(bmi), "normal": normal, "normal_values": bmi[normal].numpy()}


@wrong("bmi_report", "int64", "h ** -2")
def bmi_int_negative_power(heights_m, weights_kg):
    h, w = torch.tensor(heights_m), torch.tensor(weights_kg)
    bmi = w * h ** -2
    normal = (bmi >= 18.5) & (bmi <= 24.9)
    return {"bmi": bmi, "normalized": _scaled(bmi), "normal": normal, "normal_values": bmi[normal].numpy()}


@wrong("bmi_report", "int64", "zeros_like")
def bmi_int_zeros_like(heights_m, weights_kg):
    h, w = torch.tensor(heights_m), torch.tensor(weights_kg)
    bmi = w / h ** 2
    span = bmi.max() - bmi.min()
    normalized = torch.zeros_like(h) if span == 0 else (bmi - bmi.min()) / span
    normal = (bmi >= 18.5) & (bmi <= 24.9)
    return {"bmi": bmi, "normalized": normalized, "normal": normal, "normal_values": bmi[normal].numpy()}


@wrong("bmi_report", "both ends", ">=")
def bmi_exclusive_range(heights_m, weights_kg):
    h, w = _floats(heights_m, weights_kg)
    bmi = w / h ** 2
    normal = (bmi > 18.5) & (bmi < 24.9)
    return {"bmi": bmi, "normalized": _scaled(bmi), "normal": normal, "normal_values": bmi[normal].numpy()}


@wrong("bmi_report", "float64", "detour through NumPy")
def bmi_values_via_list(heights_m, weights_kg):
    h, w = _floats(heights_m, weights_kg)
    bmi = w / h ** 2
    normal = (bmi >= 18.5) & (bmi <= 24.9)
    return {"bmi": bmi, "normalized": _scaled(bmi), "normal": normal, "normal_values": np.array(bmi[normal].tolist())}


@wrong("bmi_report", "NumPy array", "not the tensor itself")
def bmi_values_as_tensor(heights_m, weights_kg):
    h, w = _floats(heights_m, weights_kg)
    bmi = w / h ** 2
    normal = (bmi >= 18.5) & (bmi <= 24.9)
    return {"bmi": bmi, "normalized": _scaled(bmi), "normal": normal, "normal_values": bmi[normal]}


@wrong("bmi_report", "float32", "float64")
def bmi_from_numpy(heights_m, weights_kg):
    bmi = torch.from_numpy(np.array(weights_kg, dtype=float) / np.array(heights_m, dtype=float) ** 2)
    normal = (bmi >= 18.5) & (bmi <= 24.9)
    return {"bmi": bmi, "normalized": _scaled(bmi), "normal": normal, "normal_values": bmi[normal].numpy()}


@right("bmi_report")
def bmi_in_numpy_then_float32(heights_m, weights_kg):
    bmi64 = np.asarray(weights_kg, dtype=np.float64) / np.asarray(heights_m, dtype=np.float64) ** 2
    span = bmi64.max() - bmi64.min()
    scaled = (bmi64 - bmi64.min()) / span if span > 0 else np.zeros_like(bmi64)
    mask = (bmi64 >= 18.5) & (bmi64 <= 24.9)
    bmi = torch.from_numpy(bmi64.astype(np.float32))
    return {"normal_values": bmi.numpy()[mask], "normal": torch.from_numpy(mask),
            "normalized": torch.from_numpy(scaled.astype(np.float32)), "bmi": bmi}


@right("bmi_report")
def bmi_nan_to_num(heights_m, weights_kg):
    h = torch.as_tensor(heights_m).float()
    w = torch.as_tensor(weights_kg).float()
    bmi = w / (h * h)
    normalized = torch.nan_to_num((bmi - bmi.min()) / (bmi.max() - bmi.min()), nan=0.0)
    normal = bmi.ge(18.5).logical_and(bmi.le(24.9))
    return {"bmi": bmi, "normalized": normalized, "normal": normal,
            "normal_values": bmi.masked_select(normal).detach().cpu().numpy()}


@right("bmi_report")
def bmi_branch_on_constant(heights_m, weights_kg):
    h = torch.tensor([float(v) for v in heights_m])
    w = torch.tensor([float(v) for v in weights_kg])
    bmi = w.div(h.pow(2))
    low, high = bmi.min(), bmi.max()
    normalized = torch.zeros_like(bmi) if high == low else (bmi - low) / (high - low)
    normal = torch.logical_and(bmi >= 18.5, bmi <= 24.9)
    return {"bmi": bmi, "normalized": normalized, "normal": normal, "normal_values": bmi[normal].numpy().copy()}


@wrong("bmi_report", "empty", "shape (0,)")
def bmi_values_stacked(heights_m, weights_kg):
    h, w = _floats(heights_m, weights_kg)
    bmi = w / h ** 2
    normal = (bmi >= 18.5) & (bmi <= 24.9)
    values = np.stack([b.numpy() for b in bmi[normal]])
    return {"bmi": bmi, "normalized": _scaled(bmi), "normal": normal, "normal_values": values}
