"""The Tensor: attributes, conversions, Python operators (with gradients), copies and views."""
import numpy as np
import pytest

import opsdk
from helpers.gradients import assert_gradients
from helpers.samples import positive, signed


def leaf(values, dtype="float32"):
    return opsdk.to_tensor(values, dtype=dtype, stop_gradient=False)


# -- attributes ------------------------------------------------------------------------------
def test_shape_is_a_list_and_ndim_size_follow_it():
    t = opsdk.ones([2, 3])
    assert t.shape == [2, 3] and isinstance(t.shape, list)
    assert t.ndim == 2 and t.dim() == 2 and t.size == 6 and t.numel() == 6


def test_place_is_cpu_for_numpy_arrays():
    assert opsdk.ones([1]).place == opsdk.CPUPlace() and opsdk.ones([1]).place == "cpu"


def test_place_compares_unequal_to_a_string_naming_no_place():
    assert opsdk.ones([1]).place != "tpu" and opsdk.ones([1]).place != "gpu"


def test_stop_gradient_is_settable():
    t = opsdk.to_tensor([1.0, 2.0, 3.0])
    assert t.stop_gradient
    t.stop_gradient = False
    assert not t.stop_gradient


@pytest.mark.parametrize("values", [[1, 2], [True, False]], ids=["int", "bool"])
def test_integer_and_bool_tensors_report_stop_gradient_but_never_get_a_gradient(values):
    t = opsdk.to_tensor(values, stop_gradient=False)
    assert not t.stop_gradient  # as Paddle reports it
    (t.astype("float32") * 2.0).sum().backward()
    assert t.grad is None
    t.stop_gradient = True
    assert t.stop_gradient


def test_a_new_tensor_is_a_leaf_without_grad():
    t = leaf([1.0])
    assert t.is_leaf and t.grad is None and t.gradient() is None


# -- conversions -----------------------------------------------------------------------------
def test_numpy_returns_the_values():
    np.testing.assert_array_equal(opsdk.to_tensor([[1.0, 2.0]]).numpy(), [[1.0, 2.0]])


def test_item_returns_a_python_number():
    assert opsdk.to_tensor([2.5]).item() == 2.5 and isinstance(opsdk.to_tensor(3).item(), int)


def test_item_of_several_elements_is_an_error_naming_the_shape():
    with pytest.raises(ValueError, match=r"item\(\).*got: shape \[2\]"):
        opsdk.to_tensor([1.0, 2.0]).item()


def test_float_int_bool_len_and_iteration():
    assert float(opsdk.to_tensor(2.5)) == 2.5 and int(opsdk.to_tensor(3)) == 3
    assert bool(opsdk.to_tensor(1.0)) and not bool(opsdk.to_tensor(0.0))
    rows = list(opsdk.to_tensor([[1.0], [2.0]]))
    assert len(opsdk.to_tensor([[1.0], [2.0]])) == 2 and rows[1].numpy().tolist() == [2.0]


def test_float_int_complex_of_a_one_element_tensor_with_dims_is_a_type_error_as_in_paddle():
    # Paddle 3.3.1 with NumPy 2.4 converts only 0-d tensors; bool() takes any one element
    one = opsdk.to_tensor([7.25])
    for convert in (float, int, complex):
        with pytest.raises(TypeError, match=r"0-d tensor.*got: shape \[1\]"):
            convert(one)
    with pytest.raises(TypeError, match="index"):
        [1, 2, 3][opsdk.to_tensor([1])]
    assert bool(one) and complex(opsdk.to_tensor(2.0)) == 2 and [1, 2][opsdk.to_tensor(1)] == 2


def test_scalar_conversion_of_several_elements_is_also_an_assertion_error_as_in_paddle():
    two = opsdk.to_tensor([1.0, 2.0])
    for convert in (float, int, bool):
        with pytest.raises(AssertionError, match=r"one element.*got: shape \[2\]"):
            convert(two)


def test_tolist_and_numpy_array_protocol():
    t = opsdk.to_tensor([[1, 2]])
    assert t.tolist() == [[1, 2]] and np.asarray(t).tolist() == [[1, 2]]


def test_repr_shows_shape_dtype_and_stop_gradient():
    text = repr(leaf([1.0, 2.0]))
    assert "shape=[2]" in text and "float32" in text and "stop_gradient=False" in text


def test_format_of_a_single_element_tensor_uses_the_number():
    assert f"{opsdk.to_tensor(2.0):.2f}" == "2.00"


def test_astype_converts_and_keeps_gradients_flowing():
    x = leaf([1.0, 2.0], "float32")
    y = x.astype("float64")
    (y * y).sum().backward()
    assert y.dtype == np.float64 and x.grad.dtype == np.float32
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])


def test_gradient_returns_a_numpy_array():
    x = leaf([1.0])
    (x * 4.0).backward()
    assert isinstance(x.gradient(), np.ndarray) and x.gradient().tolist() == [4.0]


# -- copies ----------------------------------------------------------------------------------
def test_clone_is_a_differentiable_copy_in_new_memory():
    x = leaf([1.0, 2.0])
    y = x.clone()
    with opsdk.no_grad():
        y += 1.0
    (y * 3.0).sum().backward()
    assert x.numpy().tolist() == [1.0, 2.0]
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_detach_shares_values_but_not_the_graph():
    x = leaf([1.0, 2.0])
    d = (x * 2.0).detach()
    assert d.stop_gradient and d.is_leaf and d.numpy().tolist() == [2.0, 4.0]


def test_set_value_and_fill_overwrite_without_graph():
    x = opsdk.zeros([2])
    x.set_value(np.array([1.0, 2.0], dtype=np.float32))
    assert x.numpy().tolist() == [1.0, 2.0]
    x.fill_(7.0)
    assert x.numpy().tolist() == [7.0, 7.0]
    x.zero_()
    assert x.numpy().tolist() == [0.0, 0.0]


# -- operators -------------------------------------------------------------------------------
OPERATORS = {
    "add": (lambda x, y: x + y, np.add),
    "sub": (lambda x, y: x - y, np.subtract),
    "mul": (lambda x, y: x * y, np.multiply),
    "truediv": (lambda x, y: x / y, np.divide),
    "pow": (lambda x, y: x ** y, np.power),
}


@pytest.mark.parametrize("op, ref", OPERATORS.values(), ids=OPERATORS.keys())
def test_binary_operators_match_numpy_for_tensors_and_numbers(op, ref):
    a, b = positive(2, 3), positive(3, seed=1)
    x, y = opsdk.to_tensor(a), opsdk.to_tensor(b)
    np.testing.assert_allclose(op(x, y).numpy(), ref(a, b))
    np.testing.assert_allclose(op(x, 2.0).numpy(), ref(a, 2.0))
    np.testing.assert_allclose(op(2.0, y).numpy(), ref(2.0, b))


@pytest.mark.parametrize("op", [fn for fn, _ in OPERATORS.values()], ids=OPERATORS.keys())
def test_binary_operators_have_gradients_to_second_order(op):
    assert_gradients(op, [positive(2, 3), positive(3, seed=1)])


def test_unary_operators():
    x = leaf([1.0, -2.0], "float64")
    np.testing.assert_array_equal((-x).numpy(), [-1.0, 2.0])
    np.testing.assert_array_equal(abs(x).numpy(), [1.0, 2.0])
    assert (+x) is x
    assert_gradients(lambda t: -t * abs(t), [signed(3)])


def test_matmul_operator_with_gradients():
    assert_gradients(lambda x, y: x @ y, [signed(2, 3), signed(3, 2, seed=1)])


def test_reflected_operators_with_a_numpy_array_return_a_tensor():
    out = np.ones(2) + opsdk.to_tensor([1.0, 2.0])
    assert isinstance(out, opsdk.Tensor) and out.numpy().tolist() == [2.0, 3.0]


def test_comparison_operators_give_bool_tensors():
    x = opsdk.to_tensor([1.0, 2.0])
    assert (x == 1.0).numpy().tolist() == [True, False]
    assert (x != 1.0).numpy().tolist() == [False, True]
    assert (x < 2.0).numpy().tolist() == [True, False]


def test_indexing_and_slicing_carry_gradients():
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    (x[0, 1:] * 2.0 + x[:, 0] * 3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[3.0, 2.0, 2.0], [3.0, 0.0, 0.0]])


def test_tensor_methods_mirror_the_functions():
    x = opsdk.to_tensor([[1.0, 4.0]])
    assert x.sum().item() == 5.0 and x.mean().item() == 2.5
    assert x.sqrt().numpy().tolist() == [[1.0, 2.0]]
    assert x.reshape([2, 1]).shape == [2, 1] and x.T.shape == [2, 1]
    assert x.max().item() == 4.0 and x.argmax().item() == 1


def test_paddle_tensor_attributes_name_type_numpy_flag_and_apply():
    x = opsdk.to_tensor([1.0, 2.0])
    assert x.name.startswith("generated_tensor_") and x.name == x.name
    x.name = "mine"
    assert x.name == "mine" and x.type == "VarType.DENSE_TENSOR"
    assert x.numpy(False).tolist() == [1.0, 2.0]
    assert x.apply(lambda t: t * 2).numpy().tolist() == [2.0, 4.0]
    assert x.apply_(lambda t: t * 3) is x and x.numpy().tolist() == [3.0, 6.0]
    with pytest.raises(RuntimeError, match="apply: cannot apply a function to a tensor that"):
        opsdk.to_tensor([1.0], stop_gradient=False).apply(lambda t: t)


def test_in_place_comparisons_and_cast_give_the_tensor_the_result_dtype():
    x = opsdk.to_tensor([1.0, 2.0])
    assert x.equal_(opsdk.to_tensor([1.0, 3.0])) is x
    assert x.dtype == np.bool_ and x.numpy().tolist() == [True, False]
    assert x.inplace_version == 1
    y = opsdk.to_tensor([1.5, 2.5])
    assert y.cast_("int32") is y and y.dtype == np.int32 and y.numpy().tolist() == [1, 2]
    # in the graph: a non-leaf that reports stop_gradient=False, as Paddle leaves it
    z = opsdk.to_tensor([1.0, 2.0], stop_gradient=False) * 1
    z.less_than_(opsdk.to_tensor([2.0, 2.0]))
    assert z.dtype == np.bool_ and not z.stop_gradient and not z.is_leaf
    w = opsdk.to_tensor([1.0, 2.5])
    assert opsdk.where_(w > 2, w, opsdk.zeros([2])) is w and w.numpy().tolist() == [0.0, 2.5]


def test_seed_returns_a_generator_and_set_device_a_place():
    g = opsdk.seed(7)
    a = opsdk.rand([3]).numpy()
    assert g.manual_seed(7) is g and g.initial_seed() == 7
    np.testing.assert_array_equal(opsdk.rand([3]).numpy(), a)
    assert opsdk.device.set_device("cpu") == opsdk.CPUPlace()
    assert opsdk.device.get_device() == "cpu"
