"""opsdk ops as JAX functions: ``opsdk.interop.jax.op(name)``.

Each call is a ``jax.custom_jvp`` function whose primal runs the op's kernels on the host
through ``jax.pure_callback``, so ``jax.jit``, ``jax.vmap`` (the callback's
``vmap_method="sequential"``: one kernel call per batch element, right for every op) and
``jax.grad`` work, and so does sharding: XLA runs the callback on each device's shard where the
op is elementwise along the sharded axis, or gathers first. Its tangent is a primitive computed
by opsdk's forward mode (the op's own jvp, or its double backward), whose transpose is the op's
gradient level 1, itself a custom_jvp function over level 2, and so on
(``opsdk.interop.levels``, ``opsdk.interop.jax_forward``): ``jax.jvp``, ``jacfwd``, ``grad``,
``jacrev`` and ``hessian`` work, second order where the op's backward is differentiable
(``double_backward=True``) or its jvp is written with opsdk ops.

pure_callback hands the kernels NumPy arrays on the host; on a GPU that means a copy to the host
and back (the CUDA kernels would need JAX's FFI, which this adapter does not use).
"""
from ._require import require

jax = require("jax")

import numpy as np  # noqa: E402

from . import direct  # noqa: E402
from .exported import Exported, freeze  # noqa: E402
from .levels import Levels  # noqa: E402

_OPS = {}


def _is_array(value):
    return isinstance(value, (jax.Array, np.ndarray)) or hasattr(value, "aval")


def _is_float(x):
    return np.dtype(x.dtype).kind == "f"


class JaxOp:
    """One opsdk op as a JAX function: ``f(*tensors, **attrs)`` on ``jax.Array``s."""

    def __init__(self, exported):
        self.exported = exported
        self.opsdk_op = exported.info
        self.__name__ = exported.info.name
        self.__doc__ = exported.info.doc
        self._calls = {}

    def __call__(self, *args, **kwargs):
        sig = self.exported.signature
        tensors, attrs = sig.bind(args, kwargs, _is_array)
        layout = tuple(t is not None for t in tensors)
        key = (layout, freeze(attrs))
        call = self._calls.get(key)
        if call is None:
            call = self._calls[key] = _Call(self.exported, layout, attrs)
        present = [jax.numpy.asarray(t) for t in tensors if t is not None]
        outs = call.level(0)(*present)
        return outs[0] if self.exported.single else tuple(outs)

    def __repr__(self):
        return f"<opsdk.interop.jax op {self.exported.qualname}>"


class _Call:
    """The custom_vjp functions of one call layout (which tensors are present) and attrs."""

    def __init__(self, exported, layout, attrs):
        self.exported = exported
        self.layout = layout
        self.attrs = attrs
        self.levels = exported.levels(attrs)
        self.n_present = sum(layout)
        self._fns = {}

    def _split(self, args):
        """(the op's tensors with None where absent, the cotangents)."""
        it = iter(args[:self.n_present])
        tensors = [next(it) if here else None for here in self.layout]
        return tensors, list(args[self.n_present:])

    def _result_shapes(self, k, args):
        tensors, cotangents = self._split(args)
        if k == 0:
            metas = [None if t is None else (tuple(t.shape), np.dtype(t.dtype)) for t in tensors]
            # without jax_enable_x64 an int64 (float64) output comes back as int32 (float32)
            return [jax.ShapeDtypeStruct(s, jax.dtypes.canonicalize_dtype(d))
                    for s, d in self.exported.output_meta(metas, self.attrs)]
        floats = [t for t in tensors if t is not None and _is_float(t)]
        counts = Levels.cotangent_counts(k, len(floats), self._n_float_outputs(tensors))
        like = floats + cotangents[:sum(counts[:-1])]
        return [jax.ShapeDtypeStruct(t.shape, t.dtype) for t in like]

    def _n_float_outputs(self, tensors):
        metas = [None if t is None else (tuple(t.shape), np.dtype(t.dtype)) for t in tensors]
        return len(self.exported.float_outputs(metas, self.attrs))

    def _host(self, k, shapes):
        def callback(*arrays):
            ins = direct.wrap_inputs([np.asarray(a) for a in arrays], [False] * len(arrays))
            tensors, cotangents = self._split(ins)
            if k == 0:
                args, kwargs = self.exported.signature.call(tensors, self.attrs)
                outs = direct.forward(self.exported.info.function, self.exported.qualname,
                                      args, kwargs).outputs
                self.exported.check_outputs(len(outs))
            else:
                outs = self.levels.level(k, tensors, cotangents)
            return tuple(np.asarray(o.array, dtype=s.dtype).reshape(s.shape)
                         for o, s in zip(outs, shapes))
        return callback

    def _primal(self, k, args):
        shapes = self._result_shapes(k, args)
        return tuple(jax.pure_callback(self._host(k, shapes), tuple(shapes), *args,
                                       vmap_method="sequential"))

    def level(self, k):
        """Level k as a custom_jvp function of the present tensors and the cotangents: its
        tangent is the primitive of interop.jax_forward, whose transpose is level k+1."""
        if k in self._fns:
            return self._fns[k]

        @jax.custom_jvp
        def fn(*args):
            return self._primal(k, args)

        def fn_jvp(primals, tangents):
            from .jax_forward import tangent

            # through fn, not the bare callback: a transform above differentiates it too
            out = fn(*primals)
            floats = [t for a, t in zip(primals, tangents) if _is_float(a)]
            got = iter(tangent(self, k, primals, floats))
            return out, tuple(next(got) if _is_float(o) else
                              np.zeros(o.shape, dtype=jax.dtypes.float0) for o in out)

        fn.defjvp(fn_jvp)
        self._fns[k] = fn
        return fn


def op(name):
    """The registered opsdk op ``name`` as a JAX function.

    Args:
        name: ``'pack.op'`` (or a short name one pack registers), e.g. ``'example.swish'``.

    Returns:
        A callable on ``jax.Array``s (tensors positional, attributes as keywords; several
        outputs as a tuple) that works under ``jax.jit``, ``jax.vmap`` and ``jax.grad``.

    Raises:
        FrameworkNotInstalledError: JAX is not installed (``pip install opsdk[jax]``).
        OpNotFoundError: no such op.

    Example::

        swish = opsdk.interop.jax.op("example.swish")
        x = jax.numpy.linspace(-2.0, 2.0, 8)
        jax.jit(jax.grad(lambda x: swish(x, beta=1.5).sum()))(x)
    """
    from ..packs.lookup import get

    info = get(name)
    if info.qualname not in _OPS:
        _OPS[info.qualname] = JaxOp(Exported(info))
    return _OPS[info.qualname]


__all__ = ["op", "JaxOp"]
