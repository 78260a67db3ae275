"""TensorSpec and Sample: how ops describe verification inputs."""
from opsdk.packs.registry import Sample, TensorSpec


def test_lists_and_scalars_become_tuples():
    spec = TensorSpec(shape=[3, 4], domain=[0.5, 1.0], avoid=0.75)
    assert (spec.shape, spec.domain, spec.avoid) == ((3, 4), (0.5, 1.0), (0.75,))


def test_int_shape_is_one_dimensional():
    assert TensorSpec(shape=5).shape == (5,)


def test_specs_are_hashable_values():
    assert TensorSpec(shape=(2,)) == TensorSpec(shape=[2]) and hash(TensorSpec(shape=(2,)))


def test_float_spec_is_differentiable_unless_asked_not_to_be():
    assert TensorSpec(shape=(2,)).differentiable
    assert not TensorSpec(shape=(2,), requires_grad=False).differentiable


def test_integer_spec_is_never_differentiable():
    assert not TensorSpec(shape=(2,), integer=True, high=3, requires_grad=True).differentiable


def test_sample_args_list_becomes_a_tuple():
    assert Sample(args=[1, 2]).args == (1, 2) and Sample().kwargs == {}
