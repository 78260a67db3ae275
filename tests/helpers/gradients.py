"""Compare opsdk's first- and second-order gradients with the central-difference oracle."""
import numpy as np

import opsdk

from .numeric import numeric_vjp, numeric_vjp_vjp
from .samples import signed


def _outputs(y):
    return list(y) if isinstance(y, (list, tuple)) else [y]


def _numpy_fn(fn):
    """fn over Tensors as a float64 NumPy function, for the oracle (no graph recorded)."""
    def f(*arrays):
        with opsdk.no_grad():
            ys = _outputs(fn(*[opsdk.to_tensor(a, dtype="float64") for a in arrays]))
        return [y.numpy().astype(np.float64) for y in ys]
    return f


def _leaves(arrays):
    return [opsdk.to_tensor(a, dtype="float64", stop_gradient=False) for a in arrays]


def _dense(grads, leaves):
    """None (input unused) means a zero gradient."""
    return [np.zeros(t.shape) if g is None else g.numpy() for g, t in zip(grads, leaves)]


def assert_first_order(fn, arrays, seed=0, rtol=1e-6, atol=1e-7):
    """opsdk's vector-Jacobian product of fn equals the numeric one, for a random cotangent.

    Args:
        fn: Tensors -> Tensor (or list of Tensors), written with opsdk ops.
        arrays: float64 NumPy inputs (kept away from kinks by the caller).
    """
    rng = np.random.default_rng(seed)
    leaves = _leaves(arrays)
    ys = _outputs(fn(*leaves))
    vs = [signed(*y.shape, seed=rng) for y in ys]
    grads = opsdk.grad(ys, leaves, grad_outputs=[opsdk.to_tensor(v) for v in vs],
                       allow_unused=True)
    for g, t in zip(grads, leaves):
        if g is not None:
            assert g.dtype == t.dtype and g.shape == t.shape, (g.dtype, g.shape, t.shape)
    expected = numeric_vjp(_numpy_fn(fn), arrays, np.concatenate([v.ravel() for v in vs]))
    for k, (got, want) in enumerate(zip(_dense(grads, leaves), expected)):
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol,
                                   err_msg=f"first-order gradient of input {k}")


def assert_second_order(fn, arrays, seed=0, rtol=1e-5, atol=1e-6):
    """The gradient of <u, opsdk.grad(fn, create_graph=True)> equals the nested numeric one."""
    rng = np.random.default_rng(seed)
    leaves = _leaves(arrays)
    ys = _outputs(fn(*leaves))
    vs = [signed(*y.shape, seed=rng) for y in ys]
    firsts = opsdk.grad(ys, leaves, grad_outputs=[opsdk.to_tensor(v) for v in vs],
                        create_graph=True, allow_unused=True)
    us = [signed(*np.shape(a), seed=rng) for a in arrays]
    # a first-order gradient that does not depend on the inputs (a linear op) has none; the
    # others are folded into one scalar, so this checks the ops, not multi-output backward
    live = [(g * opsdk.to_tensor(u)).sum() for g, u in zip(firsts, us)
            if g is not None and not g.stop_gradient]
    if live:
        seconds = opsdk.grad(sum(live[1:], live[0]), leaves, allow_unused=True)
    else:
        seconds = [None] * len(leaves)
    expected = numeric_vjp_vjp(_numpy_fn(fn), arrays,
                               np.concatenate([v.ravel() for v in vs]), us)
    for k, (got, want) in enumerate(zip(_dense(seconds, leaves), expected)):
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol,
                                   err_msg=f"second-order gradient of input {k}")


def assert_gradients(fn, arrays, seed=0):
    """First and second order, both against the oracle."""
    assert_first_order(fn, arrays, seed)
    assert_second_order(fn, arrays, seed)
