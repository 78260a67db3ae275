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
