"""opsdk.dtypes: dtypes shown as Paddle shows them, standing for NumPy's; Python complex numbers
as operands (Paddle 3.3.1's result dtypes)."""
import copy
import pickle

import numpy as np
import pytest

import opsdk
from opsdk.errors import UnsupportedError


def test_a_tensors_dtype_reads_as_paddle_writes_it():
    x = opsdk.to_tensor([1.0, 2.0])
    assert str(x.dtype) == "paddle.float32" and repr(opsdk.int64) == "paddle.int64"
    assert str(opsdk.zeros([1], dtype="bool").dtype) == "paddle.bool"
    # the tensor's own repr keeps Paddle's short name
    assert "dtype=float32," in repr(x)


@pytest.mark.parametrize("same", [opsdk.float32, np.float32, np.dtype("float32"), "float32",
                                  "paddle.float32"])
def test_a_dtype_equals_every_spelling_of_itself(same):
    d = opsdk.to_tensor([1.0]).dtype
    assert d == same and not (d != same)
    assert d != opsdk.float64 and d != "float64" and d != "no such dtype"


def test_a_dtype_finds_the_dict_entries_of_its_numpy_dtype_and_the_reverse():
    by_numpy = {np.dtype("float32"): "f", np.dtype("int64"): "i"}
    assert by_numpy[opsdk.float32] == "f" and by_numpy[opsdk.to_tensor([1]).dtype] == "i"
    assert {opsdk.float64: "d"}[np.dtype("float64")] == "d"


def test_numpy_takes_it_wherever_it_takes_a_dtype():
    d = opsdk.float16
    assert np.zeros(2, d).dtype == np.float16 and np.ones(1).astype(d).dtype == np.float16
    assert np.dtype(d) == np.float16 and np.finfo(d).bits == 16 and d.kind == "f"
    assert d.itemsize == 2 and d.name == "float16"


def test_it_survives_pickle_and_copy_as_the_same_object():
    assert pickle.loads(pickle.dumps(opsdk.complex64)) is opsdk.complex64
    assert copy.deepcopy(opsdk.int8) is opsdk.int8


def test_casts_take_it_and_paddles_names():
    x = opsdk.to_tensor([1.5])
    assert opsdk.cast(x, opsdk.int64).dtype == opsdk.int64
    assert x.astype("paddle.float64").dtype == np.float64


# Paddle 3.3.1: a complex number makes a real tensor complex64 (float64: complex128)
COMPLEX_RESULT = {"bool": "complex64", "int8": "complex64", "int32": "complex64",
                  "int64": "complex64", "float16": "complex64", "float32": "complex64",
                  "float64": "complex128", "complex64": "complex64", "complex128": "complex128"}


@pytest.mark.parametrize("dtype", sorted(COMPLEX_RESULT))
def test_a_complex_number_operand_gives_paddles_dtype(dtype):
    x = opsdk.ones([2], dtype=dtype)
    for out in (x + 1j, 1j + x, x - 1j, 1j - x, x * (1 + 2j), x / (1 + 1j), (1 + 1j) / x):
        assert str(out.dtype) == "paddle." + COMPLEX_RESULT[dtype]
    assert (x == 1j).dtype == opsdk.bool


def test_complex_values_are_right():
    x = opsdk.to_tensor([1.0, 2.0])
    np.testing.assert_allclose((x * (1 + 2j)).numpy(), [1 + 2j, 2 + 4j])
    np.testing.assert_allclose((x / 2j).numpy(), [-0.5j, -1j])


def test_backward_through_a_complex_result_is_refused_not_wrong():
    # opsdk's rules lack the conjugate of Paddle's complex convention: an error, never a
    # wrong gradient
    x = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(UnsupportedError, match="complex"):
        (x * (1 + 2j)).sum().backward()
