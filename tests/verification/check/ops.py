"""Small in-test ops, correct or wrong in one precise way, for the tests of single checks."""
import numpy as np

import opsdk
from opsdk import TensorSpec

X = [TensorSpec(shape=(2, 3))]
XY = [TensorSpec(shape=(2, 3)), TensorSpec(shape=(2, 3))]


class Square(opsdk.PyLayer):
    """x**2, written with opsdk ops (differentiable to any order)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return 2 * x * dy


class SquareRaw(opsdk.PyLayer):
    """x**2 with a raw NumPy backward: first order only."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return opsdk.to_tensor(2 * x.numpy() * dy.numpy())


class SquareWrongSecond(opsdk.PyLayer):
    """x**2 whose backward detaches x: first order right, second derivative 0 instead of 2."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return 2 * x.detach() * dy


class SquareTwiceWrong(opsdk.PyLayer):
    """x**2 whose backward is twice too big (4x instead of 2x)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return 4 * x * dy


class Product(opsdk.PyLayer):
    """x * y (same shapes), honouring needs_input_grad."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, dz):
        x, y = ctx.saved_tensor()
        dx = dz * y if ctx.needs_input_grad[0] else None
        dy = dz * x if ctx.needs_input_grad[1] else None
        return dx, dy


class ProductMisreadsNeeds(opsdk.PyLayer):
    """x * y whose backward reads needs_input_grad[0] for both inputs (a copy-paste slip)."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, dz):
        x, y = ctx.saved_tensor()
        dx = dz * y if ctx.needs_input_grad[0] else None
        dy = dz * x if ctx.needs_input_grad[0] else None
        return dx, dy


class TooManyGrads(opsdk.PyLayer):
    """2x whose backward returns two gradients for its one input."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        return dy * 2, dy * 2


class SinCosNoneUnsafe(opsdk.PyLayer):
    """(sin x, cos x) with set_materialize_grads(False) but a backward that assumes both grads."""

    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return opsdk.sin(x), opsdk.cos(x)

    @staticmethod
    def backward(ctx, dsin, dcos):
        (x,) = ctx.saved_tensor()
        return dsin * opsdk.cos(x) - dcos * opsdk.sin(x)


class Stateful(opsdk.PyLayer):
    """2x whose backward scales by how often it ran: a second backward does not accumulate right."""

    @staticmethod
    def forward(ctx, x):
        ctx.calls = 0
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        ctx.calls += 1
        return dy * 2 * ctx.calls


class GraphUnderNoGrad(opsdk.PyLayer):
    """2x computed under enable_grad inside forward: under no_grad its output still has a graph."""

    @staticmethod
    def forward(ctx, x):
        with opsdk.enable_grad():
            return x * 2

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


class Raises(opsdk.PyLayer):
    """An op whose forward always raises."""

    @staticmethod
    def forward(ctx, x):
        raise RuntimeError("forward exploded")

    @staticmethod
    def backward(ctx, dy):
        return dy


class IndexOnly(opsdk.PyLayer):
    """A function of an integer tensor only: nothing to differentiate."""

    @staticmethod
    def forward(ctx, index):
        return opsdk.to_tensor(np.asarray(index.numpy(), dtype="float64"))

    @staticmethod
    def backward(ctx, dy):
        return None


class HiddenParameter(opsdk.PyLayer):
    """x * w with w made inside forward, needing a gradient: the output needs one whatever x says."""

    @staticmethod
    def forward(ctx, x):
        with opsdk.enable_grad():
            w = opsdk.ones_like(x)
            w.stop_gradient = False
            return x * w

    @staticmethod
    def backward(ctx, dy):
        return dy


def raise_deep():
    """Raise from inside this module (the op's code, for error reports)."""
    raise ValueError("deep")
