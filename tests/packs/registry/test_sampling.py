"""Drawing verification inputs from specs and wrapping them as tensors."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import SampleError
from opsdk.packs.registry import Sample, TensorSpec
from opsdk.packs.registry.sampling import draw_array, sample_from_specs, tensors_in, to_tensor, too_close


def test_float_values_are_drawn_in_the_domain_in_the_dtype_under_test():
    values = draw_array(TensorSpec(shape=(50, 4), domain=(0.5, 1.5)), "float32", np.random.default_rng(0))
    assert values.dtype == np.float32 and values.shape == (50, 4)
    assert values.min() >= 0.5 and values.max() <= 1.5


def test_values_keep_min_distance_from_avoid_points():
    spec = TensorSpec(shape=(2000,), domain=(-1.0, 1.0), avoid=(0.0, 0.5), min_distance=0.1)
    values = draw_array(spec, "float64", np.random.default_rng(1))
    assert np.abs(values).min() >= 0.1 and np.abs(values - 0.5).min() >= 0.1


def test_distance_is_kept_after_rounding_to_float16():
    spec = TensorSpec(shape=(5000,), domain=(0.99, 1.01), avoid=(1.0,), min_distance=4e-3)
    values = draw_array(spec, "float16", np.random.default_rng(2))
    assert not too_close(values, spec.avoid, spec.min_distance).any()


def test_a_fixed_spec_dtype_wins_over_the_dtype_under_test():
    assert draw_array(TensorSpec(shape=(2,), dtype="float64"), "float16", np.random.default_rng(0)).dtype == np.float64


def test_integer_values_lie_in_low_to_high_exclusive():
    values = draw_array(TensorSpec(shape=(500,), integer=True, low=2, high=5), "float32", np.random.default_rng(0))
    assert values.dtype == np.int64 and set(np.unique(values)) == {2, 3, 4}


def test_scalar_spec_draws_a_zero_dimensional_array():
    spec = TensorSpec(shape=(), domain=(-1.0, 1.0), avoid=(0.0,), min_distance=0.9)
    assert abs(draw_array(spec, "float64", np.random.default_rng(0))) >= 0.9


def test_drawing_gives_up_with_an_error_when_the_avoid_zones_leave_no_room():
    spec = TensorSpec(shape=(10,), domain=(0.0, 1.0), avoid=(0.5,), min_distance=0.5 - 1e-15)
    with pytest.raises(SampleError, match="still too close after"):
        draw_array(spec, "float64", np.random.default_rng(0))


def test_spec_samples_are_tensors_marked_for_gradients_as_specified():
    specs = (TensorSpec(shape=(2,)), TensorSpec(shape=(2,), requires_grad=False),
             TensorSpec(shape=(2,), integer=True, high=2))
    sample = sample_from_specs(specs, {"beta": 2.0}, "float64", np.random.default_rng(0))
    assert all(isinstance(t, opsdk.Tensor) for t in sample.args)
    assert [t.stop_gradient for t in sample.args] == [False, True, True]
    assert sample.kwargs == {"beta": 2.0}


def test_to_tensor_keeps_dtype_and_values():
    t = to_tensor(np.array([1.0, 2.0], np.float16), requires_grad=True)
    assert t.dtype == np.float16 and t.numpy().tolist() == [1.0, 2.0] and not t.stop_gradient


def test_tensors_in_wraps_arrays_and_leaves_other_arguments():
    sample = tensors_in(Sample(args=(np.ones(2), np.arange(2), 3.0), kwargs={"w": np.zeros(1), "k": 1}))
    x, index, scalar = sample.args
    assert (x.stop_gradient, index.stop_gradient, scalar) == (False, True, 3.0)
    assert isinstance(sample.kwargs["w"], opsdk.Tensor) and sample.kwargs["k"] == 1
