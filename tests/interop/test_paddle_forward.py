"""Forward mode of exported ops in Paddle: paddle.incubate.autograd.jvp and
paddle.autograd.hessian (Paddle's double-vjp construction over the exported PyLayer's gradient
levels) equal the native maths; an op whose second order is unknown is refused naming it."""
import numpy as np
import pytest

import opsdk

paddle = pytest.importorskip("paddle", reason="the paddle interop needs PaddlePaddle 3.3.1")
pytestmark = pytest.mark.paddle


def _ref(t):
    return t * paddle.nn.functional.sigmoid(1.5 * t)


def test_incubate_jvp_and_hessian_equal_the_native_maths():
    swish = opsdk.interop.paddle.op("example.swish")
    x, v = paddle.to_tensor(np.linspace(-2.0, 2.0, 4)), paddle.to_tensor(np.arange(4.0))
    got = paddle.incubate.autograd.jvp(lambda t: swish(t, beta=1.5), x, v)[1]
    np.testing.assert_allclose(got.numpy(), paddle.incubate.autograd.jvp(_ref, x, v)[1].numpy(),
                               rtol=1e-13, atol=1e-15)
    xx = paddle.to_tensor(np.linspace(-2.0, 2.0, 4), stop_gradient=False)
    np.testing.assert_allclose(paddle.autograd.hessian(swish(xx, beta=1.5).sum(), xx)[:].numpy(),
                               paddle.autograd.hessian(_ref(xx).sum(), xx)[:].numpy(),
                               rtol=1e-13, atol=1e-15)


def test_a_first_order_kernel_op_is_refused_naming_it():
    # Paddle's jvp is its double-vjp construction: the exported PyLayer's level 2 asks the
    # kernel op's second derivative too, which is unknown (its own jvp does not give it)
    cube = opsdk.interop.paddle.op("interoptest.kernel_cube")
    x = paddle.to_tensor(np.array([0.5, 1.0]))
    with pytest.raises(OSError, match="DoubleBackwardError: 'KernelCube' is first-order only"):
        paddle.incubate.autograd.jvp(lambda t: cube(t, scale=2.0), x)
