"""opsdk_nn.functional is a drop-in for the core's opsdk.nn.functional: same names, same
arguments and defaults, same results."""
import doctest
import inspect

import numpy
import pytest

import opsdk
import opsdk.nn.functional as core
from opsdk_nn import functional as F


@pytest.mark.parametrize("name", [n for n in F.__all__ if hasattr(core, n)])
def test_signature_matches_the_core_function(name):
    ours = inspect.signature(getattr(F, name)).parameters
    theirs = inspect.signature(getattr(core, name)).parameters
    assert [(p.name, p.default) for p in ours.values()] == [(p.name, p.default) for p in theirs.values()]


@pytest.mark.parametrize("name, kwargs", [("gelu", {}), ("gelu", {"approximate": True}), ("silu", {}),
                                          ("softmax", {"axis": 0}), ("log_softmax", {})])
def test_results_match_the_core_function(backend, name, kwargs):
    xa = numpy.random.default_rng(0).normal(0, 2, (3, 4))
    x1, x2 = (opsdk.to_tensor(xa, stop_gradient=False) for _ in range(2))
    y1, y2 = getattr(F, name)(x1, **kwargs), getattr(core, name)(x2, **kwargs)
    numpy.testing.assert_allclose(y1.numpy(), y2.numpy(), rtol=1e-12, atol=1e-14)
    (y1 * y1).sum().backward()
    (y2 * y2).sum().backward()
    numpy.testing.assert_allclose(x1.grad.numpy(), x2.grad.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_matches_the_core_with_ignored_rows(backend, reduction):
    rng = numpy.random.default_rng(1)
    xa, label = rng.normal(0, 2, (5, 4)), numpy.array([0, -100, 3, 1, -100])
    x1, x2 = (opsdk.to_tensor(xa, stop_gradient=False) for _ in range(2))
    y1 = F.cross_entropy(x1, opsdk.to_tensor(label), reduction=reduction)
    y2 = core.cross_entropy(x2, opsdk.to_tensor(label), reduction=reduction)
    assert y1.shape == y2.shape
    numpy.testing.assert_allclose(y1.numpy(), y2.numpy(), rtol=1e-12)
    y1.sum().backward()
    y2.sum().backward()
    numpy.testing.assert_allclose(x1.grad.numpy(), x2.grad.numpy(), rtol=1e-10, atol=1e-14)


def test_class_weights_are_refused_by_name():
    with pytest.raises(opsdk.errors.OpArgumentError, match="argument 'weight' is not supported"):
        F.cross_entropy(opsdk.to_tensor(numpy.zeros((2, 3))), opsdk.to_tensor([0, 1]),
                        weight=opsdk.to_tensor(numpy.ones(3)))


def test_docstring_examples_run(backend):
    result = doctest.testmod(F, extraglobs={"F": F, "opsdk": opsdk})
    assert result.attempted >= 9 and result.failed == 0


def test_silu_in_place_and_softmax_out_write_as_the_core_functions():
    xa = numpy.array([[-1.0, 0.5, 2.0]])
    mine, core_x = opsdk.to_tensor(xa), opsdk.to_tensor(xa)
    F.silu(mine, inplace=True)
    core.silu(core_x, inplace=True)
    numpy.testing.assert_allclose(mine.numpy(), core_x.numpy(), rtol=1e-12)
    out, core_out = opsdk.zeros([1]), opsdk.zeros([1])
    F.softmax(opsdk.to_tensor(xa), out=out)
    core.softmax(opsdk.to_tensor(xa), out=core_out)
    assert out.shape == core_out.shape == [1, 3]
    numpy.testing.assert_allclose(out.numpy(), core_out.numpy(), rtol=1e-12)
    leaf = opsdk.to_tensor(xa, stop_gradient=False)
    with pytest.raises(ValueError):  # Paddle refuses an in-place op on such a leaf
        F.silu(leaf, inplace=True)
