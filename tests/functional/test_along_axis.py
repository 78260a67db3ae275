"""take_along_axis and put_along_axis (every reduce mode) and put_along_axis_: values (NumPy,
Paddle, PyTorch), repeated indices, ties, zeros, broadcasting, gradients to second order,
index checks."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import opsdk
from opsdk.errors import DTypeError, IndexOutOfRangeError, ShapeError
from helpers.frameworks import (assert_same_as_paddle, assert_same_as_torch, paddle_cases,
                                grads_for_arange as grads, int_tensor as ix)
from helpers.gradients import assert_gradients
from helpers.samples import signed

REDUCES = ["assign", "add", "mul", "mean", "amin", "amax"]
IDX = np.array([[0, 0, 2], [1, 1, 1]])


# -- put_along_axis ---------------------------------------------------------------------------
def np_put(x, idx, v, axis, reduce, include):
    out = x.copy()
    groups = {}
    for pos in np.ndindex(idx.shape):
        tgt = list(pos)
        tgt[axis] = idx[pos]
        groups.setdefault(tuple(tgt), []).append(v[pos])
    for tgt, vals in groups.items():
        base = [x[tgt]] if include else []
        if reduce == "assign":
            out[tgt] = vals[-1]
        elif reduce == "add":
            out[tgt] = sum(base + vals)
        elif reduce == "mul":
            out[tgt] = np.prod(base + vals)
        elif reduce == "mean":
            out[tgt] = np.mean(base + vals)
        else:
            out[tgt] = (min if reduce == "amin" else max)(base + vals)
    return out


@pytest.mark.parametrize("include", [True, False])
@pytest.mark.parametrize("reduce", REDUCES)
def test_put_along_axis_values_and_gradients(reduce, include):
    x, v = signed(2, 3), signed(2, 3, seed=1) * 2
    got = opsdk.put_along_axis(opsdk.to_tensor(x), ix(IDX), opsdk.to_tensor(v), 1, reduce,
                               include)
    np.testing.assert_allclose(got.numpy(), np_put(x, IDX, v, 1, reduce, include), rtol=1e-12)
    assert_gradients(lambda a, b: opsdk.put_along_axis(a, ix(IDX), b, 1, reduce, include) ** 2,
                     [x, v])


@pytest.mark.parametrize("include", [True, False])
def test_put_along_axis_mul_gradients_are_exact_at_zeros(include):
    x, v = np.array([[0.0, 2.0, 3.0]]), np.array([[5.0, 0.0, 1.0]])
    assert_gradients(lambda a, b: opsdk.put_along_axis(a, ix([[0, 0, 1]]), b, 1, "mul",
                                                       include), [x, v])
    gx, gv = grads(lambda a, b: opsdk.put_along_axis(a, ix([[0, 0, 1]]), b, 1, "mul", include),
                   x, v)
    assert gv == [[0.0, 0.0, 4.0]] if include else gv == [[0.0, 5.0, 2.0]]


def test_put_along_axis_ties_share_the_gradient_among_the_members_that_take_part():
    # Paddle counts arr's own value among the ties even with include_self=False (1/3, 1/3)
    _, gv = grads(lambda a, b: opsdk.put_along_axis(a, ix([[0, 0, 1]]), b, 1, "amin", False),
                  [[5.0, 2, 3]], [[5.0, 5, 1]])
    assert gv == [[0.5, 0.5, 2.0]]
    gx, gv = grads(lambda a, b: opsdk.put_along_axis(a, ix([[0, 0, 1]]), b, 1, "amax", True),
                   [[5.0, 2, 3]], [[5.0, 5, 1]])
    third = 1 / 3
    assert gx == [[third, 2.0, 3.0]] and gv == [[third, third, 0.0]]


def test_put_along_axis_broadcasting_and_values():
    x = opsdk.zeros([2, 3])
    r = opsdk.put_along_axis(x, ix([[0], [2]]), 5.0, 1)
    assert r.numpy().tolist() == [[5, 0, 0], [0, 0, 5]]
    r = opsdk.put_along_axis(x, ix([[1, 0, 1]]), opsdk.to_tensor([[7.0]]), 0)
    assert r.numpy().tolist() == [[0, 7, 0], [7, 0, 7]]
    r = opsdk.put_along_axis(x, ix([[1]]), opsdk.to_tensor([[7.0, 9.0]]), 1, broadcast=False)
    assert r.numpy().tolist() == [[0, 7, 0], [0, 0, 0]]
    ints = opsdk.put_along_axis(opsdk.to_tensor([[1, 2, 3]]), ix([[0, 0]]),
                                opsdk.to_tensor([[2, 2]]), 1, "mean")
    assert ints.dtype == "int64" and ints.numpy().tolist() == [[1, 2, 3]]


def test_without_broadcast_the_unread_part_of_values_gets_a_zero_gradient():
    # Paddle 3.3.1 returns a gradient of the indices' shape here, not of the values' shape
    _, gv = grads(lambda a, b: opsdk.put_along_axis(a, ix([[1], [2]]), b, 1, broadcast=False),
                  np.zeros((2, 3)), np.ones((2, 3)))
    assert gv == [[2.0, 0.0, 0.0], [6.0, 0.0, 0.0]]
    torch_style = opsdk.scatter(opsdk.zeros([2, 3]), 1, ix([[1], [2]]), opsdk.ones([2, 3]))
    assert torch_style.numpy().tolist() == [[0, 1, 0], [0, 0, 1]]


def test_put_along_axis_errors():
    x = opsdk.zeros([2, 3])
    with pytest.raises(IndexOutOfRangeError, match="put_along_axis: argument 'indices' has an "
                                                   "index out of range for axis 1 of size 3"):
        opsdk.put_along_axis(x, ix([[3], [0]]), 1.0, 1)
    with pytest.raises(ShapeError, match="put_along_axis: 'indices' must have 2 dims"):
        opsdk.put_along_axis(x, ix([1]), 1.0, 1)
    with pytest.raises(Exception, match="put_along_axis: argument 'reduce' must be one of"):
        opsdk.put_along_axis(x, ix([[1]]), 1.0, 1, reduce="max")
    with pytest.raises(DTypeError, match="put_along_axis: 'values' must have the dtype"):
        opsdk.put_along_axis(x, ix([[1]]), opsdk.ones([1, 1], dtype="float64"), 1)
    with pytest.raises(ShapeError, match="put_along_axis: expected: 'arr' with at least 1 dim"):
        opsdk.put_along_axis(opsdk.to_tensor(1.0), ix(0), 1.0, 0)


def test_put_along_axis_in_place():
    w = opsdk.to_tensor(signed(2, 3), dtype="float64", stop_gradient=False)
    y = w * 2
    y.put_along_axis_(ix(IDX), 0.0, 1)
    y.sum().backward()
    assert w.grad.numpy().tolist() == [[0, 2, 0], [2, 0, 2]]


# -- take_along_axis --------------------------------------------------------------------------
def test_take_along_axis_broadcasts_and_repeats_add_gradients():
    a = signed(2, 3)
    got = opsdk.take_along_axis(opsdk.to_tensor(a), ix([[0, 2]]), 1)
    np.testing.assert_array_equal(got.numpy(), np.take_along_axis(a, np.array([[0, 2], [0, 2]]),
                                                                  1))
    assert_gradients(lambda x: opsdk.take_along_axis(x, ix([[0, 0, 2]]), 1) ** 2, [a])
    big = opsdk.take_along_axis(opsdk.to_tensor([[1.0, 2, 3]]), ix([[0], [1], [2]]), 1)
    assert big.numpy().tolist() == [[1], [2], [3]]


def test_take_along_axis_without_broadcast_reads_the_leading_part():
    a = signed(3, 3)
    got = opsdk.take_along_axis(opsdk.to_tensor(a), ix([[2], [-1]]), 1, broadcast=False)
    np.testing.assert_array_equal(got.numpy(), [[a[0, 2]], [a[1, 2]]])
    assert_gradients(lambda x: opsdk.take_along_axis(x, ix([[2], [0]]), 1, False) ** 2, [a])
    with pytest.raises(ShapeError, match="take_along_axis: 'indices' is larger than 'arr'"):
        opsdk.take_along_axis(opsdk.to_tensor(a), ix([[0]] * 4), 1, broadcast=False)


def test_take_along_axis_index_checks():
    x = opsdk.ones([2, 3])
    with pytest.raises(IndexOutOfRangeError, match="take_along_axis: argument 'indices'"):
        opsdk.take_along_axis(x, ix([[-4]]), 1)
    # Paddle 3.3.1 reads float indices as garbage; opsdk refuses them
    with pytest.raises(DTypeError, match="take_along_axis: argument 'indices' must be an "
                                         "integer tensor"):
        opsdk.take_along_axis(x, opsdk.to_tensor([[1.0]]), 1)



def test_take_along_axis_on_gpu_tensors_keeps_its_positions_on_the_gpu():
    # the CUDA simulator stands in for CuPy: a host (NumPy) array mixed with GPU ones is an error
    # there as on a real GPU, so the positions the gradient scatters to must be the indices' module's
    from helpers.simulator import simulated_cupy

    a = np.arange(6.0).reshape(2, 3)
    with simulated_cupy():
        x = opsdk.to_tensor(a, stop_gradient=False).cuda()
        y = opsdk.take_along_axis(x, ix([[2, -3], [1, 1]]).cuda(), 1)
        (g,) = opsdk.grad([(y * y).sum()], [x], create_graph=True)
        (gg,) = opsdk.grad([g.sum()], [x])
        broadcast = opsdk.take_along_axis(x, ix([[2, 0]]).cuda(), 1)
        assert y.place.is_gpu_place() and g.place.is_gpu_place() and broadcast.place.is_gpu_place()
        np.testing.assert_array_equal(y.numpy(), [[2.0, 0.0], [4.0, 4.0]])
        np.testing.assert_array_equal(g.numpy(), [[0.0, 0.0, 4.0], [0.0, 16.0, 0.0]])  # 1 taken twice: 2 * 2y
        np.testing.assert_array_equal(gg.numpy(), [[2.0, 0.0, 2.0], [0.0, 4.0, 0.0]])
        np.testing.assert_array_equal(broadcast.numpy(), [[2.0, 0.0], [5.0, 3.0]])

@pytest.mark.parametrize("reduce", ["assign", "add", "mul", "mean", "amin", "amax"])
def test_put_along_axis_on_gpu_tensors_agrees_with_the_cpu_to_second_order(reduce):
    # the reductions group positions with NumPy: on a GPU they run on host copies, and the
    # result, both gradients and the second order must come back to the GPU, equal to the CPU's
    from helpers.simulator import assert_gpu_run_equals_cpu_run

    a, vals, where = np.arange(6.0).reshape(2, 3), [[5.0], [0.0]], [[1], [1]]

    def run(on_gpu):
        move = (lambda t: t.cuda()) if on_gpu else (lambda t: t)
        x = move(opsdk.to_tensor(a, stop_gradient=False))
        v = move(opsdk.to_tensor(vals, dtype="float64", stop_gradient=False))
        y = opsdk.put_along_axis(x, move(ix(where)), v, 1, reduce=reduce)
        gx, gv = opsdk.grad([(y * y).sum()], [x, v], create_graph=True)
        (gg,) = opsdk.grad([gx.sum() + gv.sum()], [x])
        return y, gx, gv, gg

    assert_gpu_run_equals_cpu_run(run)


def test_put_along_axis_writes_a_number_into_a_gpu_tensor_on_the_gpu():
    from helpers.simulator import simulated_cupy

    with simulated_cupy():
        x = opsdk.zeros([2, 3], dtype="float64").cuda()
        x.put_along_axis_(ix([[2], [0]]).cuda(), 9.0, 1)
        assert x.place.is_gpu_place()
        np.testing.assert_array_equal(x.numpy(), [[0, 0, 9], [9, 0, 0]])


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(1, 4), cols=st.integers(0, 3), n=st.integers(0, 5),
       reduce=st.sampled_from(REDUCES), include=st.booleans(), data=st.data())
def test_put_along_axis_on_any_sizes(rows, cols, n, reduce, include, data):
    x = signed(rows, cols, seed=data.draw(st.integers(0, 99)))
    idx = np.array(data.draw(st.lists(st.integers(-rows, rows - 1), min_size=n, max_size=n)),
                   dtype=np.int64).reshape(n, 1) * np.ones((1, cols), np.int64)
    v = signed(n, cols, seed=7) * 2
    got = opsdk.put_along_axis(opsdk.to_tensor(x), ix(idx), opsdk.to_tensor(v), 0, reduce,
                               include, broadcast=False)
    np.testing.assert_allclose(got.numpy(), np_put(x, idx % rows, v, 0, reduce, include),
                               rtol=1e-12)
    if 0 < x.size + v.size <= 12:
        assert_gradients(lambda a, b: opsdk.put_along_axis(a, ix(idx), b, 0, reduce, include,
                                                           broadcast=False) * 1.5, [x, v])


def test_values_and_indices_that_cannot_fit_are_clear_errors():
    from opsdk.errors import OpArgumentError
    x = opsdk.zeros([2, 3])
    with pytest.raises(ShapeError, match="put_along_axis: 'indices' is larger than 'arr' in "
                                         "dim 0"):
        opsdk.put_along_axis(x, ix(np.zeros((3, 3))), 1.0, 1)
    with pytest.raises(OpArgumentError, match="put_along_axis: argument 'values' must be a "
                                              "number"):
        opsdk.put_along_axis(x, ix([[0]]), "v", 1)


# -- against Paddle ---------------------------------------------------------------------------
PADDLE_CASES = {
    "take_along_axis": (lambda P, x: P.take_along_axis(x, P.to_tensor([[0, 2], [1, 1]]), 1),
                        [signed(2, 3)]),
    "take_along_axis_broadcast": (lambda P, x: P.take_along_axis(x, P.to_tensor([[0, 2]]), 1),
                                  [signed(2, 3)]),
}
for _red in REDUCES:
    for _inc in (True, False):
        PADDLE_CASES[f"put_{_red}_{_inc}"] = (
            lambda P, x, v, r=_red, i=_inc: P.put_along_axis(x, P.to_tensor(IDX), v, 1, r, i),
            [signed(2, 3), signed(2, 3, seed=1) * 2])


test_values_and_gradients_match_paddle = paddle_cases(PADDLE_CASES)


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_dtypes_match_paddle(dtype):
    def fn(P, x, v):
        i = P.to_tensor([[0], [1]])
        return [P.put_along_axis(x, i, v, 1), P.take_along_axis(x, i, 1)]
    assert_same_as_paddle(fn, [np.array([[1, 2], [3, 4]]), np.array([[5], [6]])],
                          dtypes=[dtype, dtype], diff=())


# -- against PyTorch --------------------------------------------------------------------------
@pytest.mark.torch
def test_reduce_modes_and_take_along_axis_match_torch():
    torch = __import__("torch")
    x, v = signed(2, 3), signed(2, 3, seed=1) * 2
    ti = torch.tensor(IDX)
    for red, tred in [("add", "sum"), ("mul", "prod"), ("mean", "mean"), ("amax", "amax")]:
        assert_same_as_torch(
            lambda P, a, b: P.put_along_axis(a, P.to_tensor(IDX), b, 1, red, False),
            lambda a, b: a.scatter_reduce(1, ti, b, tred, include_self=False), [x, v], (0, 1))
    assert_same_as_torch(lambda P, a: P.take_along_axis(a, P.to_tensor(IDX), 1),
                         lambda a: a.gather(1, ti), [x])
