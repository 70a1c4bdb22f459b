"""Reference solutions for k15_bmi (the tutorial's capstone)."""

import torch


def bmi_report(heights_m: list, weights_kg: list) -> dict:
    """BMI, its min-max scaling, the normal-range mask and the normal BMIs as a NumPy array."""
    h = torch.tensor(heights_m, dtype=torch.float32)
    w = torch.tensor(weights_kg, dtype=torch.float32)
    bmi = w / h ** 2
    low, high = bmi.min(), bmi.max()
    span = high - low
    normalized = torch.where(span > 0, (bmi - low) / span, torch.zeros_like(bmi))
    normal = (bmi >= 18.5) & (bmi <= 24.9)
    return {"bmi": bmi, "normalized": normalized, "normal": normal, "normal_values": bmi[normal].numpy()}
