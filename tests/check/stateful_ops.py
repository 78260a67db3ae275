"""In-test ops that keep state outside ctx or write where they should not (a module of their own:
the verifier restores and names the state of the op's modules, never of test modules)."""
import numpy as np

import opsdk

_MASKS = {}


def arr(t):
    return t._data


def ten(a):
    return opsdk.from_dlpack(a)


class ShapeCachedRelu(opsdk.PyLayer):
    """relu whose mask is cached by shape (the values of the second call are ignored)."""

    @staticmethod
    def forward(ctx, x):
        ctx.mask = _MASKS.setdefault(arr(x).shape, arr(x) > 0)
        return ten(arr(x) * ctx.mask)

    @staticmethod
    def backward(ctx, dy):
        return ten(arr(dy) * ctx.mask)


class ClassSaved(opsdk.PyLayer):
    """x**2 keeping x on the class."""

    last = None

    @staticmethod
    def forward(ctx, x):
        ClassSaved.last = arr(x).copy()
        return x * x

    @staticmethod
    def backward(ctx, dy):
        return dy * ten(2 * ClassSaved.last)


class WritesInput(opsdk.PyLayer):
    """2x computed into x itself."""

    @staticmethod
    def forward(ctx, x):
        a = arr(x)
        a *= 2
        return ten(a.copy())

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


class WritesGradient(opsdk.PyLayer):
    """2x whose backward doubles dy in place."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        g = arr(dy)
        g *= 2
        return ten(g)


class ReturnsInput(opsdk.PyLayer):
    """The identity, returning the input's memory."""

    @staticmethod
    def forward(ctx, x):
        return ten(arr(x))

    @staticmethod
    def backward(ctx, dy):
        return dy


class Twice(opsdk.PyLayer):
    """(2x, the same buffer again)."""

    @staticmethod
    def forward(ctx, x):
        y = arr(x) * 2
        return ten(y), ten(y)

    @staticmethod
    def backward(ctx, da, db):
        return (da + db) * 2


class ReshapeWrites(opsdk.PyLayer):
    """2x written through out.reshape(-1), which copies a transposed array."""

    @staticmethod
    def forward(ctx, x):
        a = arr(x)
        out = np.empty_like(a)
        out.reshape(-1)[:] = 2 * a.reshape(-1)
        return ten(out)

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


class HardcodedBeta(opsdk.PyLayer):
    """beta * x whose backward uses 2.0, the registered beta."""

    @staticmethod
    def forward(ctx, x, beta=2.0):
        return x * beta

    @staticmethod
    def backward(ctx, dy):
        return dy * 2.0


def cube(forward_scale=1.0, backward_scale=1.0, name="Cube"):
    """x**3 (times ``forward_scale``) whose backward is 3x**2 (times ``backward_scale``),
    written with opsdk ops (differentiable to any order)."""

    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x * forward_scale

    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return dy * 3 * backward_scale * x * x

    return type(name, (opsdk.PyLayer,), {"forward": staticmethod(forward),
                                          "backward": staticmethod(backward),
                                          "__module__": __name__, "__doc__": cube.__doc__})


Cube = cube()
# forward and backward agree with each other, scaled by 1.001: only a reference sees it
CubeWrongConstant = cube(1.001, 1.001, "CubeWrongConstant")
