"""The procedure aspect: a run of steps is compared with the reference's own run, and a difference is
told by what it most likely is (another number of steps, losses recorded after their step, the same
losses but other final parameters, a run that leaves the reference's), on plain observations."""

from kata_harness.aspects.compare import Tolerance
from kata_harness.aspects.procedure import numbers
from kata_harness.judging.verdicts import compare_case

ASPECTS = ("shape", "dtype", "device", "procedure")
REFERENCE_LOSSES = [4.0, 2.0, 1.0, 0.5]


def _tensor(values, dtype="torch.float32"):
    shape = [len(values)] if isinstance(values, list) else []
    return {"kind": "tensor", "class": "Tensor", "shape": shape, "dtype": dtype, "device": "cpu",
            "requires_grad": False, "leaf": True, "history": False, "contiguous": True, "values": values}


def _model(weight):
    return {"kind": "module", "class": "Linear", "training": [True], "buffers": [],
            "params": [["weight", _tensor(weight)]]}


def _run(losses, w=(1.0, 2.0), weight=(0.5, 0.5), probes=None, at=2):
    """An observation of a training function that returns (w, b, losses) (``at=2``) or the losses
    alone (``at=None``), and ends with a model's weight."""
    result = _tensor(list(losses)) if at is None else \
        {"kind": "tuple", "class": "tuple", "items": [_tensor(list(w)), _tensor(0.0), _tensor(list(losses))]}
    observation = {"call": "fit(...)", "label": None, "names": ["model"], "printed": "", "result": result,
                   "procedure": {"losses": at, "models": [["model", _model(list(weight))]]}}
    if probes is not None:
        observation["probes"] = probes
    return observation


def _found(yours, expected=None, aspects=ASPECTS):
    return compare_case(yours, expected or _run(REFERENCE_LOSSES), aspects, Tolerance(1e-5, 1e-6))


def test_the_same_run_within_the_tolerance_passes():
    assert _found(_run([4.0, 2.0 + 1e-6, 1.0, 0.5])) is None
    assert _found(_run(REFERENCE_LOSSES, at=None), _run(REFERENCE_LOSSES, at=None)) is None


def test_another_number_of_steps_is_named_with_both_counts():
    found = _found(_run(REFERENCE_LOSSES[:3]))
    assert (found.aspect, found.key, found.fields) == ("step_count", "aspect.step_count", {"yours": 3, "expected": 4})
    assert found.where["path"] == "[2]"


def test_losses_recorded_after_their_step_are_the_reference_shifted_by_one():
    found = _found(_run([2.0, 1.0, 0.5, 0.25]))
    assert (found.aspect, found.key) == ("loss_after_step", "aspect.loss_after_step")


def test_invented_losses_leave_the_run_at_the_first_step_that_differs():
    found = _found(_run([4.0, 3.0, 2.0, 1.0]))
    assert (found.aspect, found.key, found.fields["step"]) == ("procedure", "aspect.procedure", 2)
    assert not found.deferred


def test_a_trajectory_gives_way_to_a_kata_probe_that_names_the_wrong_update():
    probe = {"fit": {"kind": "str", "value": "<= 0.001"}}
    reference = _run(REFERENCE_LOSSES, probes=probe)
    assert _found(_run([4.0, 3.0, 2.0, 1.0], probes=probe), reference).deferred
    uphill = _found(_run([4.0, 8.0, 16.0, 32.0], probes={"fit": {"kind": "str", "value": "12.5"}}), reference)
    assert uphill.aspect == "fit"


def test_the_same_losses_with_other_final_parameters_is_named_as_such():
    in_result = _found(_run(REFERENCE_LOSSES, w=(1.0, 2.5)))
    assert (in_result.aspect, in_result.where["path"]) == ("final_params", "[0]")
    in_model = _found(_run(REFERENCE_LOSSES, weight=(0.5, 0.7)))
    assert (in_model.aspect, in_model.where) == ("final_params", {"key": "where.input", "name": "model", "path": ".weight"})


def test_what_is_no_run_of_losses_is_left_to_the_result_aspect():
    assert numbers({"kind": "str", "value": "x"}) is None
    assert numbers({"kind": "list", "items": [{"kind": "float", "value": 1.0}, _tensor(2.0)]}) == [1.0, 2.0]
    assert numbers({**_tensor([[1.0]]), "shape": [1, 1]}) is None   # a matrix is no run of losses
    other = _run(REFERENCE_LOSSES)
    other["result"]["items"][2] = {"kind": "str", "value": "done"}
    assert _found(other).aspect == "kind"


def test_the_expected_observation_says_where_the_losses_are():
    yours = _run([0.0, 0.0, 0.0, 0.0], at=2)
    yours["procedure"]["losses"] = 0   # a forged location is never believed
    assert _found(yours).aspect == "procedure"


def test_a_run_that_differs_is_left_to_the_values_aspect_where_the_function_chose_it():
    found = _found(_run([4.0, 3.0, 2.0, 1.0], at=None), _run(REFERENCE_LOSSES, at=None), ASPECTS + ("values",))
    assert (found.aspect, found.key) == ("values", "aspect.values")
    shifted = _found(_run([2.0, 1.0, 0.5, 0.25], at=None), _run(REFERENCE_LOSSES, at=None), ASPECTS + ("values",))
    assert shifted.aspect == "loss_after_step"
