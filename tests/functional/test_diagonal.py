"""diagonal (a view, as in Paddle), diag, trace: values (NumPy, Paddle, PyTorch), offsets and
axes, gradients to second order, memory sharing, errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import opsdk
from opsdk.errors import OpArgumentError, ShapeError
from helpers.frameworks import assert_same_as_paddle, assert_same_as_torch, paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import signed

DIAGONALS = [(0, 0, 1), (1, 0, 1), (-2, 0, 1), (5, 0, 1), (1, 2, 0), (0, -1, -2), (-1, 1, 2)]


@pytest.mark.parametrize("offset, a1, a2", DIAGONALS)
def test_diagonal_and_trace_match_numpy(offset, a1, a2):
    a = signed(3, 4, 2) if max(a1, a2) == 2 else signed(3, 4)
    x = opsdk.to_tensor(a)
    np.testing.assert_array_equal(opsdk.diagonal(x, offset, a1, a2).numpy(),
                                  np.diagonal(a, offset, a1, a2))
    np.testing.assert_allclose(opsdk.trace(x, offset, a1, a2).numpy(),
                               np.trace(a, offset, a1, a2), rtol=1e-12)


@pytest.mark.parametrize("offset, a1, a2", DIAGONALS)
def test_diagonal_and_trace_gradients(offset, a1, a2):
    a = signed(3, 4, 2) if max(a1, a2) == 2 else signed(3, 4)
    assert_gradients(lambda x: opsdk.diagonal(x, offset, a1, a2) ** 2, [a])
    assert_gradients(lambda x: opsdk.trace(x * x, offset, a1, a2), [a])


def test_diagonal_shares_memory_with_its_input_as_in_paddle():
    x = opsdk.to_tensor(np.arange(9.0).reshape(3, 3))
    d = opsdk.diagonal(x)
    x[0, 0] = 100.0
    assert d.numpy().tolist() == [100.0, 4.0, 8.0]
    d[1] = -1.0
    assert x.numpy()[1, 1] == -1.0


def test_backward_through_a_diagonal_whose_base_was_modified_is_an_error():
    from opsdk.errors import InplaceModifiedError
    w = opsdk.to_tensor(np.eye(2), dtype="float64", stop_gradient=False)
    x = w * 1
    y = opsdk.diagonal(x) * opsdk.diagonal(x)
    with opsdk.no_grad():
        x[0, 0] = 5.0
    with pytest.raises(InplaceModifiedError):
        y.sum().backward()


def test_diag_builds_a_matrix_from_a_vector_with_padding():
    x = opsdk.to_tensor([1.0, 2.0])
    np.testing.assert_array_equal(opsdk.diag(x, -1, 9.0).numpy(),
                                  [[9, 9, 9], [1, 9, 9], [9, 2, 9]])
    assert opsdk.diag(opsdk.to_tensor(3.0)).numpy().tolist() == [[3.0]]
    assert opsdk.diag(opsdk.zeros([0]), 1).shape == [1, 1]
    assert opsdk.diag(opsdk.to_tensor([1, 2]), 0, 7.5).numpy().tolist() == [[1, 7], [7, 2]]


def test_diag_of_a_matrix_is_a_copy_of_its_diagonal():
    a = signed(3, 4)
    x = opsdk.to_tensor(a)
    d = opsdk.diag(x, 1)
    np.testing.assert_array_equal(d.numpy(), np.diagonal(a, 1))
    x[0, 1] = 100.0
    assert d.numpy()[0] == a[0, 1]


@pytest.mark.parametrize("offset", [0, 2, -1])
def test_diag_gradients(offset):
    assert_gradients(lambda x: opsdk.diag(x, offset, 3.0) ** 2, [signed(3)])
    assert_gradients(lambda x: opsdk.diag(x, offset) ** 2, [signed(3, 4)])


def test_trace_keeps_integer_dtypes():
    assert opsdk.trace(opsdk.to_tensor([[1, 2], [3, 4]], dtype="int32")).dtype == "int32"
    assert opsdk.trace(opsdk.zeros([0, 3])).item() == 0.0


def test_errors_name_the_op_and_the_argument():
    with pytest.raises(ShapeError, match="diagonal: expected: a tensor with at least 2 dims"):
        opsdk.diagonal(opsdk.ones([2]))
    with pytest.raises(OpArgumentError, match="diagonal: 'axis1' and 'axis2' must be different"):
        opsdk.diagonal(opsdk.ones([2, 2, 2]), 0, 1, -2)
    with pytest.raises(OpArgumentError, match="trace: argument 'axis2' out of range"):
        opsdk.trace(opsdk.ones([2, 2]), 0, 0, 2)
    with pytest.raises(ShapeError, match="diag: expected: a 0-d, 1-D or 2-D tensor"):
        opsdk.diag(opsdk.ones([2, 2, 2]))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 4), m=st.integers(0, 4), offset=st.integers(-5, 5),
       seed=st.integers(0, 99))
def test_diagonal_diag_trace_on_any_matrix(n, m, offset, seed):
    a = signed(n, m, seed=seed)
    x = opsdk.to_tensor(a)
    np.testing.assert_array_equal(opsdk.diagonal(x, offset).numpy(), np.diagonal(a, offset))
    np.testing.assert_array_equal(opsdk.diag(x, offset).numpy(), np.diag(a, offset))
    np.testing.assert_allclose(opsdk.trace(x, offset).numpy(), np.trace(a, offset))
    v = signed(n, seed=seed)
    np.testing.assert_array_equal(opsdk.diag(opsdk.to_tensor(v), offset).numpy(),
                                  np.diag(v, offset))
    if 0 < a.size <= 9:
        assert_gradients(lambda t: opsdk.diagonal(t, offset) * 1.5, [a])


PADDLE_CASES = {
    "diagonal": (lambda P, x: P.diagonal(x, 1), [signed(3, 4)]),
    "diagonal_3d": (lambda P, x: P.diagonal(x, -1, 2, 0), [signed(2, 3, 4)]),
    "diag_vector": (lambda P, x: P.diag(x, 1, 5.0), [signed(3)]),
    "diag_matrix": (lambda P, x: P.diag(x, -1), [signed(3, 4)]),
    "diag_0d": (lambda P, x: P.diag(x), [np.array(2.0)]),
    "trace": (lambda P, x: P.trace(x, 1), [signed(3, 4)]),
    "trace_3d": (lambda P, x: P.trace(x, 0, 1, 2), [signed(2, 3, 3)]),
}


test_values_and_gradients_match_paddle = paddle_cases(PADDLE_CASES)


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_dtypes_match_paddle(dtype):
    assert_same_as_paddle(lambda P, x: [P.diagonal(x), P.diag(x), P.trace(x), P.diag(x[0], 1, 3)],
                          [np.array([[1, 2], [3, 4]])], dtypes=[dtype], diff=())


@pytest.mark.torch
def test_diagonal_and_trace_match_torch():
    torch = __import__("torch")
    a = signed(3, 4, 2)
    assert_same_as_torch(lambda P, x: P.diagonal(x, 1, 0, 1), lambda x: torch.diagonal(x, 1, 0, 1),
                         [a])
    assert_same_as_torch(lambda P, x: P.trace(x), lambda x: torch.trace(x), [signed(3, 4)])


def test_diagonal_of_an_empty_tensor_with_a_nonempty_diagonal_axis():
    x = opsdk.zeros([1, 0, 2], dtype="float64")
    x.stop_gradient = False
    d = opsdk.diagonal(x, -1, 2, 0)
    assert d.shape == [0, 1]
    (g,) = opsdk.grad([d], [x], [opsdk.zeros([0, 1], dtype="float64")])
    assert g.shape == [1, 0, 2]


def test_diag_padding_value_must_be_a_number():
    x = opsdk.to_tensor([1.0, 2.0])
    assert opsdk.diag(x, 1, opsdk.to_tensor(4.0)).numpy()[0, 0] == 4.0
    with pytest.raises(OpArgumentError, match="diag: argument 'padding_value' must be a number"):
        opsdk.diag(x, 0, "p")


def test_diagflat_flattens_and_differentiates():
    v = opsdk.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    d = opsdk.diagflat(v, offset=1)
    assert d.shape == [5, 5]
    np.testing.assert_array_equal(np.diagonal(d.numpy(), 1), [1.0, 2.0, 3.0, 4.0])
    (d * opsdk.arange(25.0).reshape([5, 5])).sum().backward()
    np.testing.assert_array_equal(v.grad.numpy(), [[1.0, 7.0], [13.0, 19.0]])


def test_diag_embed_places_the_last_axis_and_records_no_gradient_as_paddle():
    v = opsdk.to_tensor(np.arange(6.0).reshape(2, 3), stop_gradient=False)
    d = opsdk.diag_embed(v, offset=-1, dim1=0, dim2=2)
    assert d.shape == [4, 2, 4] and d.stop_gradient
    np.testing.assert_array_equal(d.numpy()[:, 1, :], np.diag([3.0, 4.0, 5.0], -1))
    with pytest.raises(OpArgumentError, match="diag_embed"):
        opsdk.diag_embed(v, dim1=1, dim2=-2)


@pytest.mark.parametrize("op", ["diagonal", "diagonal_above", "trace", "diagonal_scatter"])
def test_diagonals_of_gpu_tensors_stay_on_the_gpu_and_agree_with_the_cpu(op):
    # a GPU diagonal is a gather (CuPy has no writable strided view to lend), so its values,
    # gradient and second order are checked against the CPU's view-based ones
    from helpers.simulator import assert_gpu_run_equals_cpu_run

    fns = {"diagonal": lambda x: opsdk.diagonal(x),
           "diagonal_above": lambda x: opsdk.diagonal(x, 1, 1, 0),
           "trace": lambda x: opsdk.trace(x, -1),
           "diagonal_scatter": lambda x: opsdk.diagonal_scatter(
               x, opsdk.to_tensor([1.0, 2.0], dtype="float64", place=x.place))}
    a = np.arange(6.0).reshape(2, 3)

    def run(on_gpu):
        x = opsdk.to_tensor(a, stop_gradient=False)
        x = x.cuda() if on_gpu else x
        y = fns[op](x)
        (g,) = opsdk.grad([(y * y).sum()], [x], create_graph=True)
        (gg,) = opsdk.grad([g.sum()], [x])
        return y, g, gg

    assert_gpu_run_equals_cpu_run(run)
