"""The device pitfall without a GPU: the watch follows the tensors a call makes on the default device
and names the first operation that mixes one with a tensor on the inputs' device; the correct idioms
(device=x.device, ones_like, new_ones, .to(x)) and what a GPU allows too (0-dim CPU tensors, CPU
indices) are no mix, while a tensor made on the default device indexed from the inputs' device is
one. The aspect compares the learner's mix with the reference's."""

import pytest
import torch
from torch import nn

from kata_harness.aspects.compare import Tolerance
from kata_harness.aspects.device_mix import INDEXING
from kata_harness.judging.verdicts import compare_case
from kata_harness.observation.devices import DefaultDeviceWatch

X = torch.randn(4, 2)


def _mix(code, *caller):
    watch = DefaultDeviceWatch(caller or (X,))
    with watch:
        code()
    return watch.mix


@pytest.mark.parametrize("code, op", [
    (lambda: torch.cat([X, torch.ones(4, 1)], dim=1), "torch.cat"),
    (lambda: torch.cat([X, torch.ones(4, 1, dtype=X.dtype).double()], dim=1), "torch.cat"),
    (lambda: X @ torch.zeros(2, requires_grad=True), "Tensor.matmul"),
    (lambda: X - torch.tensor([1.0, 2.0]).cpu(), "Tensor.sub"),
    (lambda: X.sum(0).cpu() + X, "Tensor.add"),        # moved to the CPU, then met x again
    (lambda: (lambda y: (y.to(X.device), X + y))(torch.ones(4, 2))[1], "Tensor.add"),   # a bare y.to(...): y stays
])
def test_a_tensor_made_on_the_default_device_meeting_the_inputs_is_a_mix(code, op):
    assert _mix(code) == op


@pytest.mark.parametrize("code", [
    lambda: torch.cat([X, torch.ones(4, 1, device=X.device)], dim=1),
    lambda: torch.cat([X, torch.ones_like(X[:, :1])], dim=1),
    lambda: torch.cat([X, X.new_ones(4, 1)], dim=1),
    lambda: torch.cat([X, torch.ones(4, 1).to(X)], dim=1),
    lambda: torch.cat([X, torch.ones(4, 1).to(X.device)], dim=1),
    lambda: (lambda y: X + y.to(X.device) + y.to(X))(torch.ones(4, 2)),   # the moved copies kept
    lambda: X + torch.tensor(1.0),                                # a 0-dim CPU tensor may meet a GPU tensor
    lambda: X[torch.arange(2)],                                   # so may a CPU index
    lambda: X.cpu() + X,                                          # the caller's x is where it is
    lambda: torch.tensor([1.0, 2.0]) * torch.arange(2),           # nothing of the caller's involved
])
def test_the_correct_idioms_and_what_a_gpu_allows_are_no_mix(code):
    assert _mix(code) is None


@pytest.mark.parametrize("code", [
    lambda: torch.arange(4.0)[X[:, 0] > 0],                       # a CPU table, a mask from the inputs
    lambda: torch.tensor([0.5, 2.0])[X.argmax(dim=1)],             # indices from the inputs
    lambda: torch.zeros(4, 3)[X[:, 0] > 0, :2],                    # the mask inside a tuple
    lambda: torch.ones(3)[:2][X[:2, 0] > 0],                       # a slice of a CPU tensor is on the CPU
])
def test_a_tensor_made_on_the_default_device_indexed_from_the_inputs_device_is_a_mix(code):
    assert _mix(code) == INDEXING


@pytest.mark.parametrize("code", [
    lambda: X[torch.tensor([True, False, True, True])],            # the inputs indexed by a CPU mask
    lambda: torch.arange(4.0)[torch.arange(4) < 2],                # all on the CPU
    lambda: torch.arange(4.0, device=X.device)[X[:, 0] > 0],       # the table on the inputs' device
    lambda: torch.arange(4.0)[X[0, 0].long().clamp(0, 3)],         # a 0-dim index reads as a number
    lambda: torch.arange(4.0).__setitem__(X[:, 0] > 0, 0.0),       # writing through it is moved by aten
])
def test_indexing_that_a_gpu_allows_is_no_mix(code):
    assert _mix(code) is None


def test_what_indexing_returns_keeps_the_indexed_tensor_s_device():
    # Made on the default device and indexed by a CPU index: still on the default device, so meeting
    # the inputs later is a mix; the inputs indexed by a CPU mask stay on the inputs' device.
    assert _mix(lambda: X[:, 0] * torch.arange(8.0)[torch.arange(4)]) == "Tensor.mul"
    assert _mix(lambda: X[torch.arange(4) < 2] + X[:2]) is None


def test_a_models_parameters_are_the_callers_too():
    model = nn.Linear(2, 1)
    assert _mix(lambda: model(X) + X.new_zeros(4, 1), model, X) is None
    assert _mix(lambda: model(X) + torch.zeros(4, 1), model, X) == "Tensor.add"


def test_the_aspect_holds_a_mix_against_the_learner_only_where_the_reference_has_none():
    def observation(mix):
        return {"call": "f(x)", "label": None, "names": ["x"], "printed": "",
                "result": {"kind": "none"}, "device_mix": mix}
    found = compare_case(observation("torch.cat"), observation(None), ("device_mix",), Tolerance())
    assert (found.aspect, found.key, found.fields) == ("device_mix", "aspect.device_mix", {"op": "torch.cat"})
    assert compare_case(observation(None), observation(None), ("device_mix",), Tolerance()) is None
    assert compare_case(observation("torch.cat"), observation("torch.cat"), ("device_mix",), Tolerance()) is None
    indexed = compare_case(observation(INDEXING), observation(None), ("device_mix",), Tolerance())
    assert (indexed.aspect, indexed.key) == ("device_mix", "aspect.device_mix_index")
