"""What the adversarial pack's ops share: tensors to arrays and back, a broadcast reduction,
and C kernels built from one source with a float and a double variant per function."""
import numpy as np

import opsdk
from opsdk.kernels import CSource, Kernel, c_pointer

DTYPES = ("float32", "float64")


def arr(t):
    """The array behind a Tensor (shares its memory, as kernel code gets it)."""
    return t._data


def ten(a):
    """A Tensor around an array (shares its memory)."""
    return opsdk.from_dlpack(np.ascontiguousarray(a) if a.ndim == 0 else a)


def reduce_to(g, shape):
    """Sum a broadcast gradient (array) back to ``shape``."""
    shape = tuple(shape)
    lead = g.ndim - len(shape)
    if lead:
        g = g.sum(axis=tuple(range(lead)))
    axes = tuple(i for i, s in enumerate(shape) if s == 1 and g.shape[i] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    return g


def sigmoid(z):
    """1 / (1 + exp(-z)) without overflow on either side (array maths)."""
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1 / (1 + e), e / (1 + e))


def softplus(x, beta=1.0):
    """log(1 + exp(beta x)) / beta without overflow, in x's dtype."""
    z = beta * x
    return ((np.maximum(z, 0) + np.log1p(np.exp(-np.abs(z)))) / beta).astype(x.dtype)


def suffix(a):
    return "f32" if a.dtype == np.float32 else "f64"


def c_source(file, prototypes):
    """A CSource whose cdef declares ``prototypes`` (each with {T} for float/double and {S} for
    the f32/f64 suffix) in both precisions."""
    lines = [p.format(T=t, S=s) for p in prototypes for t, s in (("float", "f32"), ("double", "f64"))]
    return CSource(file, cdef="\n".join(lines), libraries=("m",))


def unary_c(name, source, stem, python, *, params=()):
    """A Kernel ``name`` with a python implementation and a C one calling ``<stem>_<f32|f64>``
    on (x, y, n, *params)."""
    kernel = Kernel(name, dtypes=DTYPES)
    kernel.python(python)

    @kernel.c(source)
    def _(lib, ffi, x, **kw):
        y = np.empty_like(x)
        getattr(lib, f"{stem}_{suffix(x)}")(c_pointer(ffi, x), c_pointer(ffi, y, writable=True),
                                            x.size, *[kw[p] for p in params])
        return y

    return kernel


def binary_c(name, source, stem, python, *, params=()):
    """A Kernel on (x, dy) -> dx calling ``<stem>_<f32|f64>`` on (x, dy, dx, n, *params)."""
    kernel = Kernel(name, dtypes=DTYPES)
    kernel.python(python)

    @kernel.c(source)
    def _(lib, ffi, x, dy, **kw):
        dx = np.empty_like(x)
        getattr(lib, f"{stem}_{suffix(x)}")(c_pointer(ffi, x), c_pointer(ffi, dy),
                                            c_pointer(ffi, dx, writable=True), x.size,
                                            *[kw[p] for p in params])
        return dx

    return kernel


def softplus_op(class_name, fwd, bwd, beta):
    """A softplus Function, sharpness ``beta`` (default), running kernel ``fwd`` on x and ``bwd``
    on (x, dy), both given ``beta=``."""

    def forward(ctx, x, beta=beta):
        ctx.save_for_backward(x)
        ctx.beta = float(beta)
        return ten(fwd(arr(x), beta=ctx.beta))

    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return ten(bwd(arr(x), arr(dy), beta=ctx.beta))

    return type(class_name, (opsdk.PyLayer,), {
        "forward": staticmethod(forward), "backward": staticmethod(backward),
        "__module__": __name__,
        "__doc__": "log(1 + exp(beta x)) / beta, with python and C kernels."})


def kernel_op(class_name, fwd, bwd, doc):
    """A Function running kernel ``fwd`` on x and ``bwd`` on (x, dy): the shape of most ops."""

    def forward(ctx, x):
        ctx.save_for_backward(x)
        return ten(fwd(arr(x)))

    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return ten(bwd(arr(x), arr(dy)))

    return type(class_name, (opsdk.PyLayer,), {"forward": staticmethod(forward),
                                               "backward": staticmethod(backward),
                                               "__module__": __name__, "__doc__": doc})
