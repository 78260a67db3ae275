"""gradgradcheck's function of first-order gradients."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import OpArgumentError
from opsdk.verification.gradcheck.gradgrad import first_order_function


def leaf(values):
    return opsdk.to_tensor(values, dtype="float64", stop_gradient=False)


def test_first_order_function_returns_the_vector_jacobian_product():
    x = leaf([1.0, 2.0])
    v = leaf([1.0, -1.0])
    fn, args, _, _ = first_order_function(lambda t: t ** 3, (x,), [v], None)
    (g,) = fn(*args)
    np.testing.assert_allclose(g.numpy(), [3.0, -12.0])


def test_inputs_are_the_original_ones_then_the_grad_outputs():
    x = leaf([1.0, 2.0])
    fn, args, names, out_names = first_order_function(lambda t, k: t * k, (x, 3),
                                                      None, np.random.default_rng(0))
    assert args[:2] == (x, 3) and len(args) == 3
    assert names == ["inputs[0]", "inputs[1]", "grad_outputs[0]"]
    assert out_names == ["grad_inputs[0]"]


def test_random_grad_outputs_need_grad_and_follow_the_output_dtype():
    x = opsdk.to_tensor([1.0, 2.0], dtype="float32", stop_gradient=False)
    _, args, _, _ = first_order_function(lambda t: t * 2, (x,), None, np.random.default_rng(0))
    assert args[1].dtype == np.float32 and not args[1].stop_gradient


def test_unused_input_gets_a_zero_gradient():
    x, y = leaf([1.0]), leaf([2.0])
    fn, args, _, _ = first_order_function(lambda a, b: a * 2, (x, y), [leaf([1.0])], None)
    np.testing.assert_array_equal(fn(*args)[1].numpy(), [0.0])


def test_func_without_any_graph_is_an_error():
    x = leaf([1.0])
    with pytest.raises(OpArgumentError, match="no output of func is connected"):
        first_order_function(lambda t: t.detach() * 2, (x,), None, np.random.default_rng(0))
