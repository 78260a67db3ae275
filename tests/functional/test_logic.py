"""where on a GPU tensor: its gradient rule, recorded under create_graph, keeps the condition on the GPU."""
import numpy as np

import opsdk


def test_where_differentiates_twice_on_a_gpu_tensor():
    # the CUDA simulator stands in for CuPy (a GPU test runs the same code on a real one)
    from helpers.simulator import simulated_cupy

    data = np.array([-1.0, 2.0, -3.0, 4.0])
    with simulated_cupy():
        x = opsdk.to_tensor(data, stop_gradient=False).cuda()
        y = opsdk.where(x > 0, x * x, -x)
        (g,) = opsdk.grad([y.sum()], [x], create_graph=True)
        (gg,) = opsdk.grad([g.sum()], [x])
        assert g.place.is_gpu_place()
        np.testing.assert_array_equal(g.numpy(), [-1.0, 4.0, -1.0, 8.0])
        np.testing.assert_array_equal(gg.numpy(), [0.0, 2.0, 0.0, 2.0])


def test_allclose_and_isclose_refuse_two_dtypes_as_paddle():
    import pytest
    from helpers.frameworks import assert_raises_as_paddle
    for op in ("allclose", "isclose"):
        assert_raises_as_paddle(lambda P: getattr(P, op)(
            P.ones([2]), P.ones([2], dtype="float64")), ValueError)
        assert_raises_as_paddle(lambda P: getattr(P, op)(
            P.ones([2]), P.to_tensor([1, 2])), ValueError)
    with pytest.raises(opsdk.errors.DTypeError, match="allclose: arguments 'x' and 'y'"):
        opsdk.allclose(opsdk.ones([2]), opsdk.ones([2], dtype="float64"))
    assert bool(opsdk.allclose(opsdk.ones([2], dtype="int64"), opsdk.ones([2], dtype="int64")))
