"""JAX's own checks on an exported op: check_grads under jit, vmap against a loop, forward,
forward mode (jacfwd against jacrev under jit)."""
import contextlib

import numpy as np

from .outcome import Recorder, attribute_cases, float64_cases, opsdk_reference
from .torch_checks import forward_mode


@contextlib.contextmanager
def float64_enabled(jax):
    """JAX in float64 for the duration (check_grads' finite differences need it)."""
    before = jax.config.read("jax_enable_x64")
    jax.config.update("jax_enable_x64", True)
    try:
        yield
    finally:
        jax.config.update("jax_enable_x64", before)


def verify_jax(info):
    """Every JAX check on every float64 sample of the op: a list of Outcome."""
    import jax
    from jax.test_util import check_grads

    from ...interop.jax import op as jax_op

    fn = jax_op(info.qualname)
    exported = fn.exported
    record = Recorder(info.qualname, "jax")

    with float64_enabled(jax):
        # forward mode also on the first sample at the moved attributes (whole Jacobians: only there)
        moved = attribute_cases(exported) if forward_mode(info) else []
        for index, arrays, attrs in float64_cases(exported) + moved:
            values = [None if a is None else jax.numpy.asarray(a) for a in arrays]
            floats = [i for i, a in enumerate(arrays) if a is not None and a.dtype.kind == "f"]

            def of_floats(*xs, values=values, floats=floats, attrs=attrs):
                full = list(values)
                for i, x in zip(floats, xs):
                    full[i] = x
                return fn(*full, **attrs)

            inputs = [values[i] for i in floats]

            def forward(arrays=arrays, attrs=attrs, inputs=inputs):
                got = jax.jit(of_floats)(*inputs)
                got = got if isinstance(got, tuple) else (got,)
                want, _ = opsdk_reference(exported, arrays, attrs)
                for g, w in zip(got, want):
                    np.testing.assert_allclose(np.asarray(g), w, rtol=1e-12, atol=1e-12)

            def grads(inputs=inputs):
                order = 2 if info.double_backward else 1
                check_grads(jax.jit(of_floats), inputs, order=order, modes=["rev"])

            def vmap(inputs=inputs):
                batch = jax.numpy.stack([inputs[0], inputs[0] * 0.5 + 0.25])
                mapped = jax.vmap(lambda x: of_floats(x, *inputs[1:]))(batch)
                loop = [of_floats(b, *inputs[1:]) for b in batch]
                mapped = mapped if isinstance(mapped, tuple) else (mapped,)
                loop = [r if isinstance(r, tuple) else (r,) for r in loop]
                for j, m in enumerate(mapped):
                    np.testing.assert_allclose(np.asarray(m), np.stack([r[j] for r in loop]),
                                               rtol=1e-12, atol=1e-12)

            def jacfwd(inputs=inputs):
                # forward mode (the op's jvp, or its double backward) against reverse mode
                def float_outputs(*xs):
                    out = of_floats(*xs)
                    outs = out if isinstance(out, tuple) else (out,)
                    return tuple(o for o in outs if np.dtype(o.dtype).kind == "f")

                argnums = tuple(range(len(inputs)))
                fwd = jax.jit(jax.jacfwd(float_outputs, argnums=argnums))(*inputs)
                rev = jax.jit(jax.jacrev(float_outputs, argnums=argnums))(*inputs)
                for a, b in zip(jax.tree_util.tree_leaves(fwd), jax.tree_util.tree_leaves(rev)):
                    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-10,
                                               atol=1e-12)

            if not isinstance(index, int):  # a moved attribute: forward mode alone
                record("jacfwd[jit]", index, jacfwd)
                continue
            record("forward", index, forward)
            record("check_grads[jit]", index, grads)
            record("vmap", index, vmap)
            if index == 0 and forward_mode(info):  # one sample: a whole Jacobian each way
                record("jacfwd[jit]", index, jacfwd)
    return record.outcomes
