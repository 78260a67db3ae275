"""op_args.with_out / write_out (Paddle's out=) and the aliases decorator's signature, compared
with Paddle: out takes the result's values, shape, dtype, memory and graph place; the result is
returned (another tensor over out's memory, as Paddle returns)."""
import inspect

import numpy as np
import pytest

import opsdk
from helpers.frameworks import import_paddle
from opsdk.errors import ArgumentTypeError

X, Y = np.array([1.0, 2.0, 3.0], "float32"), np.array([4.0, 5.0, 6.0], "float32")


def _both():
    return (import_paddle(), opsdk)


@pytest.mark.paddle
@pytest.mark.parametrize("out_shape, out_dtype", [([3], "float32"), ([2], "float32"),
                                                  ([3], "float64"), ([1, 4], "int32")],
                         ids=["same", "other_shape", "other_float", "int"])
@pytest.mark.parametrize("call", [
    lambda P, x, y, o: P.add(x, y, out=o), lambda P, x, y, o: x.multiply(y, out=o),
    lambda P, x, y, o: P.concat([x, y], out=o), lambda P, x, y, o: P.sum(x, out=o),
    lambda P, x, y, o: P.nn.functional.softmax(x, out=o),
    # (normalize returns out itself: Paddle assigns into it)
    lambda P, x, y, o: P.nn.functional.normalize(x.reshape([1, 3]), 2, 1, 1e-12, o),
    lambda P, x, y, o: P.arange(4, out=o)],
    ids=["add", "multiply_method", "concat", "sum", "F.softmax", "F.normalize_positional",
         "arange"])
def test_out_takes_the_result_as_in_paddle(call, out_shape, out_dtype):
    seen = []
    for P in _both():
        x, y, o = P.to_tensor(X), P.to_tensor(Y), P.zeros(out_shape, out_dtype)
        r = call(P, x, y, o)
        r.add_(r)  # the result and out share memory
        seen.append((r is o, str(o.dtype), list(o.shape), o.numpy()))
    assert seen[1][:3] == seen[0][:3]
    np.testing.assert_allclose(seen[1][3], seen[0][3], rtol=1e-6)


@pytest.mark.paddle
def test_gradients_flow_through_out_as_in_paddle():
    seen = []
    for P in _both():
        x = P.to_tensor(X, stop_gradient=False)
        o = P.zeros([3])
        o.stop_gradient = False  # a leaf that needs a gradient: out makes it a graph result
        P.multiply(x, P.to_tensor(Y), out=o)
        (o * 3).sum().backward()
        seen.append((o.is_leaf, o.stop_gradient, o.grad is None, x.grad.numpy().tolist()))
    assert seen[1] == seen[0]


@pytest.mark.paddle
def test_a_tuple_result_fills_a_tuple_of_outs_as_in_paddle():
    seen = []
    for P in _both():
        values, indices = P.zeros([1]), P.zeros([1], "int32")
        P.topk(P.to_tensor(X), 2, out=(values, indices))
        seen.append((values.numpy().tolist(), indices.numpy().tolist(), str(indices.dtype)))
    assert seen[1] == seen[0]


def test_out_must_be_a_tensor():
    with pytest.raises(ArgumentTypeError, match="'out' must be a Tensor"):
        opsdk.exp(opsdk.to_tensor(X), out=np.zeros(3))
    with pytest.raises(ArgumentTypeError, match="tuple of 2"):
        opsdk.topk(opsdk.to_tensor(X), 2, out=opsdk.zeros([2]))


def test_the_operators_keep_the_plain_ops():
    from opsdk.functional import arithmetic
    assert opsdk.Tensor.__add__ is arithmetic.add
    assert "out" not in inspect.signature(arithmetic.add).parameters
    assert list(inspect.signature(opsdk.exp).parameters)[-1] == "out"


def test_the_aliases_decorator_shows_the_aliases():
    params = inspect.signature(opsdk.mm).parameters
    assert params["input"].kind is inspect.Parameter.KEYWORD_ONLY and "mat2" in params
    a = opsdk.to_tensor([[1.0, 2.0]])
    assert opsdk.mm(input=a, mat2=a.t()).item() == 5.0
