"""Creating tensors: to_tensor's dtype rules and copies, the creation functions, seeding."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import DTypeError, OpArgumentError


def test_python_floats_become_float32():
    assert opsdk.to_tensor([1.0, 2.0]).dtype == np.float32


def test_python_ints_become_int64_and_bools_bool():
    assert opsdk.to_tensor([1, 2]).dtype == np.int64
    assert opsdk.to_tensor([True]).dtype == np.bool_


def test_numpy_arrays_keep_their_dtype():
    assert opsdk.to_tensor(np.ones(2)).dtype == np.float64
    assert opsdk.to_tensor(np.ones(2, dtype=np.float16)).dtype == np.float16


@pytest.mark.parametrize("dtype", ["float64", opsdk.float64, np.float64, "paddle.float64"],
                         ids=["name", "opsdk_dtype", "numpy_type", "paddle_name"])
def test_dtype_argument_accepts_names_and_dtype_objects(dtype):
    assert opsdk.to_tensor([1.0], dtype=dtype).dtype == np.float64


def test_to_tensor_default_is_stop_gradient_true():
    assert opsdk.to_tensor([1.0]).stop_gradient


def test_to_tensor_copies_its_source():
    src = np.array([1.0, 2.0])
    t = opsdk.to_tensor(src)
    src[0] = 9.0
    assert t.numpy().tolist() == [1.0, 2.0]


def test_to_tensor_of_a_tensor_is_a_detached_copy():
    x = opsdk.to_tensor([1.0], stop_gradient=False)
    y = opsdk.to_tensor(x)
    assert y.stop_gradient and y.is_leaf and y._data is not x._data


def test_to_tensor_of_a_number_is_0d():
    t = opsdk.to_tensor(2.5)
    assert t.shape == [] and t.item() == 2.5


def test_to_tensor_accepts_a_list_of_0d_tensors():
    assert opsdk.to_tensor([opsdk.to_tensor(1.0), opsdk.to_tensor(2.0)]).numpy().tolist() == [
        1.0, 2.0]


def test_to_tensor_of_a_ragged_list_names_the_argument():
    with pytest.raises(OpArgumentError, match=r"to_tensor: argument 'data'"):
        opsdk.to_tensor([[1.0, 2.0], [3.0]])


def test_unknown_dtype_name_is_an_error_naming_op_and_argument():
    with pytest.raises(DTypeError, match=r"to_tensor: argument 'dtype' is not a dtype.*'floaty'"):
        opsdk.to_tensor([1.0], dtype="floaty")


def test_zeros_ones_full_fill_with_float32_by_default():
    for t, value in ((opsdk.zeros([2, 3]), 0.0), (opsdk.ones([2, 3]), 1.0),
                     (opsdk.full([2, 3], 7.0), 7.0)):
        assert t.shape == [2, 3] and t.dtype == np.float32
        assert (t.numpy() == value).all()


def test_full_of_an_int_is_the_default_float_and_of_a_bool_is_bool():
    # Paddle 3.3.1: paddle.full([2], 3).dtype is paddle.float32
    assert opsdk.full([2], 3).dtype == np.float32 and opsdk.full([2], 3).numpy().tolist() == [3, 3]
    assert opsdk.full([2], True).dtype == np.bool_
    assert opsdk.full([2], 3, dtype="int64").dtype == np.int64


def test_creation_functions_accept_dtype_and_stop_gradient():
    t = opsdk.zeros([2], dtype="float64", stop_gradient=False)
    assert t.dtype == np.float64 and not t.stop_gradient


def test_shape_may_be_a_tensor():
    assert opsdk.ones(opsdk.to_tensor([2, 3])).shape == [2, 3]


def test_negative_shape_is_an_error_naming_op_and_argument():
    with pytest.raises(OpArgumentError, match=r"zeros: argument 'shape' must not be negative"):
        opsdk.zeros([-1, 2])


def test_arange_gives_int64_for_ints_and_float32_for_floats():
    assert opsdk.arange(4).numpy().tolist() == [0, 1, 2, 3]
    assert opsdk.arange(4).dtype == np.int64
    t = opsdk.arange(0.0, 1.0, 0.25)
    assert t.dtype == np.float32 and t.numpy().tolist() == [0.0, 0.25, 0.5, 0.75]


def test_linspace_includes_both_ends():
    assert opsdk.linspace(0, 1, 5).numpy().tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]


def test_eye_is_an_identity_with_optional_columns():
    np.testing.assert_array_equal(opsdk.eye(2, 3).numpy(), np.eye(2, 3))


def test_like_functions_take_shape_and_dtype_from_the_tensor():
    x = opsdk.to_tensor([[1, 2]], dtype="int32")
    for t in (opsdk.zeros_like(x), opsdk.ones_like(x), opsdk.full_like(x, 4)):
        assert t.shape == [1, 2] and t.dtype == np.int32
    assert opsdk.ones_like(x, dtype="float16").dtype == np.float16


def test_random_tensors_have_the_shape_dtype_and_range_asked_for():
    u = opsdk.rand([200])
    assert u.dtype == np.float32 and 0.0 <= u.numpy().min() and u.numpy().max() < 1.0
    assert opsdk.randn([2, 3], dtype="float64").dtype == np.float64
    r = opsdk.randint(0, 5, [50])
    assert r.dtype == np.int64 and 0 <= r.numpy().min() and r.numpy().max() < 5


def test_seed_makes_random_tensors_reproducible():
    opsdk.seed(2026)
    first = (opsdk.rand([3]).numpy(), opsdk.randn([3]).numpy())
    opsdk.seed(2026)
    second = (opsdk.rand([3]).numpy(), opsdk.randn([3]).numpy())
    np.testing.assert_array_equal(first[0], second[0])
    np.testing.assert_array_equal(first[1], second[1])


def test_randperm_is_a_permutation():
    assert sorted(opsdk.randperm(5).numpy().tolist()) == [0, 1, 2, 3, 4]


def test_default_dtype_changes_what_python_floats_become(monkeypatch):
    import opsdk.dtypes
    monkeypatch.setattr(opsdk.dtypes, "_default_float", opsdk.dtypes.float32)
    opsdk.set_default_dtype("float64")
    assert opsdk.get_default_dtype() == "float64"
    assert opsdk.to_tensor([1.0]).dtype == np.float64
    assert opsdk.ones([1]).dtype == np.float64


def test_default_dtype_must_be_a_float_dtype():
    with pytest.raises(DTypeError, match=r"set_default_dtype: expected: float16, float32 or "
                       r"float64; got: int64"):
        opsdk.set_default_dtype("int64")


@pytest.mark.parametrize("data", ["hello", ["a", "b"], np.array([1, "a"], dtype=object),
                                  np.array(["2024-01-01"], dtype="datetime64[D]")])
def test_to_tensor_refuses_what_is_not_numeric(data):
    from opsdk.errors import OpArgumentError

    with pytest.raises(OpArgumentError, match="is not numeric; expected: numbers or booleans"):
        opsdk.to_tensor(data)


def test_logspace_is_base_to_the_evenly_spaced_powers():
    t = opsdk.logspace(0, 3, 4, base=2.0)
    assert t.dtype == opsdk.float32
    np.testing.assert_array_equal(t.numpy(), [1.0, 2.0, 4.0, 8.0])
    np.testing.assert_array_equal(opsdk.logspace(0, 2, 3, dtype="int64").numpy(), [1, 10, 100])


def test_arange_refuses_a_zero_step_as_paddle():
    from helpers.frameworks import assert_raises_as_paddle
    assert_raises_as_paddle(lambda P: P.arange(0, 5, 0), ValueError)
    assert_raises_as_paddle(lambda P: P.arange(0.0, 1.0, 0.0), ValueError)
    with pytest.raises(OpArgumentError, match="arange: argument 'step'"):
        opsdk.arange(3, 9, 0)
