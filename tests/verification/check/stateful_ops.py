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


class WritesSavedOutput(opsdk.PyLayer):
    """tanh, whose backward turns the saved output into 1 - y^2 in place (the saved result
    reused as scratch, as a C++ backward calling tanh_() or mul_() on it does)."""

    @staticmethod
    def forward(ctx, x):
        y = ten(np.tanh(arr(x)))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        t = arr(y)
        t *= t
        np.subtract(1.0, t, out=t)
        return ten(arr(dy) * t)


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


def _closure_cached_relu():
    masks = {}

    class ClosureCachedRelu(opsdk.PyLayer):
        """relu whose mask is cached by shape in the closure of the factory that made it."""

        @staticmethod
        def forward(ctx, x):
            ctx.mask = masks.setdefault(arr(x).shape, arr(x) > 0)
            return ten(arr(x) * ctx.mask)

        @staticmethod
        def backward(ctx, dy):
            return ten(arr(dy) * ctx.mask)
    return ClosureCachedRelu


ClosureCachedRelu = _closure_cached_relu()


class _Workspace:
    def __init__(self):
        self.masks = {}


WORKSPACE = _Workspace()


class WorkspaceRelu(opsdk.PyLayer):
    """relu whose mask is cached by shape in a workspace object held at module level."""

    @staticmethod
    def forward(ctx, x):
        ctx.mask = WORKSPACE.masks.setdefault(arr(x).shape, arr(x) > 0)
        return ten(arr(x) * ctx.mask)

    @staticmethod
    def backward(ctx, dy):
        return ten(arr(dy) * ctx.mask)


_NORMS = {}


class NormById(opsdk.PyLayer):
    """x / ||x|| with the norm cached by the tensor's identity."""

    @staticmethod
    def forward(ctx, x):
        n = _NORMS.setdefault(id(x), float(np.sqrt((arr(x) ** 2).sum())))
        ctx.n = n
        return ten(arr(x) / n)

    @staticmethod
    def backward(ctx, dy):
        return ten(arr(dy) / ctx.n)


class SumsAxesInPlace(opsdk.PyLayer):
    """Sum over ``axes``, made non-negative in the caller's list."""

    @staticmethod
    def forward(ctx, x, axes=None):
        for i, a in enumerate(axes):
            axes[i] = a % arr(x).ndim
        ctx.axes, ctx.shape = tuple(axes), arr(x).shape
        return ten(arr(x).sum(axis=ctx.axes))

    @staticmethod
    def backward(ctx, dy):
        return ten(np.broadcast_to(np.expand_dims(arr(dy), ctx.axes), ctx.shape).copy())


class HalfFilledRelu(opsdk.PyLayer):
    """relu that fills numpy.empty_like only where x > 0."""

    @staticmethod
    def forward(ctx, x):
        a = arr(x)
        y = np.empty_like(a)
        y[a > 0] = a[a > 0]
        ctx.mask = a > 0
        return ten(y)

    @staticmethod
    def backward(ctx, dy):
        return ten(arr(dy) * ctx.mask)


_SCALES = {}


class DtypeBlindCache(opsdk.PyLayer):
    """x * s with s cached by shape only: after a float64 call, a float32 call's kernel (which
    writes x's dtype and casts only safely) refuses the cached float64 s."""

    @staticmethod
    def forward(ctx, x):
        a = arr(x)
        s = _SCALES.setdefault(a.shape, np.abs(a).mean(axis=-1, keepdims=True))
        ctx.s = s
        return ten(np.multiply(a, s, out=np.empty_like(a), casting="safe"))

    @staticmethod
    def backward(ctx, dy):
        return ten(arr(dy) * ctx.s)


_GRADIENTS = {}


class GradientBuffer(opsdk.PyLayer):
    """2x, whose backward writes into one module-level array per shape and returns it."""

    @staticmethod
    def forward(ctx, x):
        return opsdk.to_tensor(2 * x.numpy())

    @staticmethod
    def backward(ctx, dy):
        g = dy.numpy()
        out = _GRADIENTS.setdefault((g.shape, g.dtype.str), np.empty_like(g))
        np.multiply(g, 2, out=out)
        return opsdk.from_dlpack(out)
