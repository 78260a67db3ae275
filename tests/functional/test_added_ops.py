"""What every added op promises: float32 in, float32 out and float32 gradients (also with
create_graph), no reference cycles in its graph, no graph under no_grad, none for integers."""
import gc
import weakref

import numpy as np
import pytest

import opsdk
from helpers.samples import distinct

IDX = opsdk.to_tensor([[0, 2], [1, 1], [2, 2]])
OPS = {
    "prod": lambda x: opsdk.prod(x, 1),
    "cumsum": lambda x: opsdk.cumsum(x, 1),
    "cumprod": lambda x: opsdk.cumprod(x, 1),
    "logcumsumexp": lambda x: opsdk.logcumsumexp(x, 0),
    "median": lambda x: opsdk.median(x, 1),
    "median_min": lambda x: opsdk.median(x, 0, mode="min")[0],
    "sort": lambda x: opsdk.sort(x, 0),
    "topk": lambda x: opsdk.topk(x, 2)[0],
    "kthvalue": lambda x: opsdk.kthvalue(x, 2)[0],
    "mode": lambda x: opsdk.mode(x)[0],
    "nansum": lambda x: opsdk.nansum(x, 0),
    "nanmean": lambda x: opsdk.nanmean(x, 1),
    "roll": lambda x: opsdk.roll(x, 1, 1),
    "repeat_interleave": lambda x: opsdk.repeat_interleave(x, 2, 0),
    "diagonal": lambda x: opsdk.diagonal(x),
    "diag": lambda x: opsdk.diag(x),
    "trace": lambda x: opsdk.trace(x),
    "tril": lambda x: opsdk.tril(x),
    "triu": lambda x: opsdk.triu(x, 1),
    "kron": lambda x: opsdk.kron(x, x),
    "rot90": lambda x: opsdk.rot90(x),
    "meshgrid": lambda x: opsdk.meshgrid(x[0], x[1])[1],
    "cross": lambda x: opsdk.cross(x, x * x, 1),
    "einsum": lambda x: opsdk.einsum("ij,kj->ik", x, x),
    "scatter": lambda x: opsdk.scatter(x, opsdk.to_tensor([1, 1]), x[:2] * 2, False),
    "put_along_axis": lambda x: opsdk.put_along_axis(x, IDX, x[:, :2] * 3, 1, "mul"),
    "take_along_axis": lambda x: opsdk.take_along_axis(x, IDX, 1),
    "index_add": lambda x: opsdk.index_add(x, opsdk.to_tensor([0, 0]), 1, x[:, :2]),
    "masked_fill": lambda x: opsdk.masked_fill(x, opsdk.to_tensor([True, False, True]), 0.5),
}


def x32():
    return opsdk.to_tensor(distinct(3, 3) + 2.0, dtype="float32", stop_gradient=False)


@pytest.mark.parametrize("name", OPS)
def test_float32_stays_float32_through_both_backward_paths(name):
    x = x32()
    y = OPS[name](x)
    assert y.dtype == "float32"
    (g,) = opsdk.grad([y], [x], create_graph=True)
    assert g.dtype == "float32"
    (gg,) = opsdk.grad([(g * g * x).sum()], [x])
    assert gg.dtype == "float32"
    (g1,) = opsdk.grad([OPS[name](x)], [x])
    assert g1.dtype == "float32"
    np.testing.assert_allclose(g1.numpy(), g.numpy(), rtol=1e-5)


@pytest.mark.parametrize("name", OPS)
def test_a_graph_that_is_never_backpropagated_dies_with_its_last_reference(name):
    gc.collect()
    gc.disable()
    try:
        y = OPS[name](x32())
        node, out = weakref.ref(y._node), weakref.ref(y)
        del y
        assert out() is None and node() is None
    finally:
        gc.enable()


@pytest.mark.parametrize("name", OPS)
def test_no_grad_records_nothing(name):
    x = x32()
    with opsdk.no_grad():
        y = OPS[name](x)
    assert y.stop_gradient and y._node is None


@pytest.mark.parametrize("module", ["cumulative", "sorting", "order_stats", "products",
                                    "nan_reduction", "diagonal", "triangular", "rearrange",
                                    "einsum", "scatter", "along_axis", "more_unary", "combined",
                                    "counting", "linalg", "angles"])
def test_docstring_examples_run(module):
    import doctest
    import importlib
    mod = importlib.import_module(f"opsdk.functional.{module}")
    result = doctest.testmod(mod, extraglobs={"opsdk": opsdk}, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_tensor_methods_call_the_functions():
    x = opsdk.to_tensor([[3.0, 1.0], [2.0, 4.0]])
    assert x.sort(0).numpy().tolist() == opsdk.sort(x, 0).numpy().tolist()
    assert x.cumsum(1).numpy().tolist() == [[3.0, 4.0], [2.0, 6.0]]
    assert x.masked_fill(opsdk.to_tensor([True, False]), 0.0).numpy()[:, 0].tolist() == [0, 0]
    assert x.index_add(opsdk.to_tensor([0]), 0, opsdk.ones([1, 2])).numpy()[0].tolist() == [4, 2]


@pytest.mark.paddle
def test_the_tensor_methods_are_those_paddle_has():
    from helpers.frameworks import import_paddle
    from opsdk.tensor_methods import methods
    paddle = import_paddle()
    names = [n for n in methods() if not n.startswith("_")]
    assert [n for n in names if not hasattr(paddle.Tensor, n)] == []
    assert all(hasattr(opsdk.Tensor, n) for n in names)
