"""example.swish: x * sigmoid(beta * x), the SiLU activation for beta = 1.

The maths is written once per language. In Python, ``value`` (f), ``grad`` (df/dx) and ``grad2``
(df/dx and d2f/dx2) with ``m``, the maths of NumPy, CuPy and opsdk Tensors: they are the python
kernels, and ``value`` on Tensors is the reference `opsdk check` differentiates. In C, the same
three as scalar bodies (``T`` the float type), one source for both compiled languages: the SDK
writes from them the float32/float64 C loops (vectorized, threaded above 65536 elements) and
the CUDA grid-stride kernels. ``Elementwise`` does the rest: checks, broadcasting, the kernel for
the arrays' device, and a gradient that is an op of its own, so every order works.
"""
import opsdk
from opsdk.kernels.elementwise import Elementwise


def value(m, x, *, beta):
    return x * m.sigmoid(beta * x)


def grad(m, x, *, beta):
    s = m.sigmoid(beta * x)
    return (s * (1 + beta * x * (1 - s)),)


def grad2(m, x, *, beta):
    s = m.sigmoid(beta * x)
    return grad(m, x, beta=beta), ((beta * s * (1 - s) * (2 + beta * x * (1 - 2 * s)),),)


OP = Elementwise("example.swish", value, grad, grad2).c_bodies(
    value="x * sigmoid(beta * x)",
    grad="T s = sigmoid(beta * x); return s * (1 + beta * x * (1 - s));",
    grad2="T s = sigmoid(beta * x); return beta * s * (1 - s) * (2 + beta * x * (1 - 2 * s));")


class Swish(opsdk.Function):
    """Swish, elementwise: x * sigmoid(beta * x) (SiLU for beta = 1)."""

    @staticmethod
    def forward(ctx, x, beta=1.0):
        return OP.forward(ctx, x, beta=beta)

    @staticmethod
    def backward(ctx, dy):
        return OP.backward(ctx, dy)

    jvp = staticmethod(OP.jvp)  # forward mode, from the same grad kernel


def swish(x, beta=1.0):
    """Swish, elementwise: x * sigmoid(beta * x); differentiable to any order.

    Args:
        x: a float Tensor, on the CPU or a GPU.
        beta: a number; beta = 1 gives SiLU.

    Returns:
        A Tensor of x's shape, dtype and place.

    Example:
        >>> swish(opsdk.to_tensor([0.0, 1.0], dtype="float64"), beta=1.0).numpy()
        array([0.        , 0.73105858])
    """
    return Swish.apply(x, beta)


def register_op(register):
    """Register example.swish: its Function, verification inputs and kernels."""
    register(Swish, name="swish",
             inputs=[opsdk.TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))],
             attrs={"beta": 1.5},
             dtypes=("float32", "float64"),
             double_backward=True,
             kernels=OP.kernels,
             reference=OP.reference)
