"""Run one op the same way in opsdk and in real Paddle (or PyTorch) and compare the results.

opsdk mirrors Paddle's API, so a case is written once as ``fn(P, *tensors)`` and called with
``P = opsdk`` and ``P = paddle``. Values, dtypes, shapes and first-order gradients (for one
fixed cotangent per float output) must agree.
"""
import warnings

import numpy as np
import pytest

import opsdk


def import_paddle():
    """Paddle, or skip the test (it is an optional oracle)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pytest.importorskip("paddle", reason="compares against PaddlePaddle 3.3.1")


def import_torch():
    return pytest.importorskip("torch", reason="compares against PyTorch")


def _as_list(y):
    return list(y) if isinstance(y, (list, tuple)) else [y]


def cotangent(shape, k=0):
    """A fixed, non-symmetric cotangent (distinct entries, so misrouted gradients show)."""
    n = int(np.prod(shape, dtype=np.int64))
    return (np.arange(1, n + 1, dtype=np.float64).reshape(shape) * 0.5 + k) / max(n, 1)


def _dtype_name(t):
    return str(t.dtype).replace("paddle.", "").replace("torch.", "")


def run(lib, fn, arrays, dtypes, diff):
    """(outputs as arrays, dtype names, gradients of the ``diff`` inputs) in framework lib."""
    to = opsdk.to_tensor if lib is opsdk else lib.to_tensor
    ts = [to(np.asarray(a), dtype=dt) for a, dt in zip(arrays, dtypes)]
    for i in diff:
        ts[i].stop_gradient = False
    outs = _as_list(fn(lib, *ts))
    values = [o.numpy() for o in outs]
    names = [_dtype_name(o) for o in outs]
    grads = None
    float_outs = [(k, o) for k, o in enumerate(outs) if names[k].startswith("float")
                  and not o.stop_gradient]
    if diff and float_outs:
        cts = [to(cotangent(o.shape, k), dtype=names[k]) for k, o in float_outs]
        gs = lib.grad([o for _, o in float_outs], [ts[i] for i in diff], cts, allow_unused=True)
        grads = [np.zeros(np.shape(arrays[i])) if g is None else g.numpy()
                 for g, i in zip(gs, diff)]
    return values, names, grads


def assert_same_as_paddle(fn, arrays, dtypes=None, diff=(0,), rtol=1e-6, atol=1e-9,
                          grad_rtol=None):
    """fn(opsdk, ...) and fn(paddle, ...) give the same values, dtypes, shapes and gradients."""
    paddle = import_paddle()
    dtypes = dtypes or ["float64"] * len(arrays)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = run(paddle, fn, arrays, dtypes, diff)
    got = run(opsdk, fn, arrays, dtypes, diff)
    assert_results_match(got, want, rtol, atol, grad_rtol)


def assert_raises_as_paddle(fn, builtin=None):
    """fn(paddle) raises, and fn(opsdk) raises an opsdk error that is also an instance of the
    built-in class Paddle's exception is (its most specific one), so ``except`` code written for
    Paddle still works. ``builtin``, when given, is the built-in class Paddle must raise.
    Returns opsdk's exception."""
    paddle = import_paddle()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(builtin or Exception) as theirs:
            fn(paddle)
    family = builtin or next(c for c in type(theirs.value).__mro__ if c.__module__ == "builtins")
    with pytest.raises(opsdk.errors.OpsdkError) as ours:
        fn(opsdk)
    assert isinstance(ours.value, family), (
        f"Paddle raised {type(theirs.value).__name__} ({family.__name__}); opsdk "
        f"{type(ours.value).__name__}: {ours.value}")
    return ours.value


def assert_results_match(got, want, rtol=1e-6, atol=1e-9, grad_rtol=None):
    (gv, gn, gg), (wv, wn, wg) = got, want
    assert len(gv) == len(wv), f"{len(gv)} outputs, the reference has {len(wv)}"
    assert gn == wn, f"dtypes {gn}, the reference gives {wn}"
    for k, (a, b) in enumerate(zip(gv, wv)):
        assert a.shape == b.shape, f"output {k}: shape {a.shape}, the reference {b.shape}"
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=f"output {k}")
    assert (gg is None) == (wg is None), "one side has gradients, the other not"
    for k, (a, b) in enumerate(zip(gg or [], wg or [])):
        np.testing.assert_allclose(a, b, rtol=grad_rtol or rtol, atol=atol, equal_nan=True,
                                   err_msg=f"gradient of input {k}")


def opsdk_grads(fn, arrays, dtypes=None, diff=(0,)):
    """run() for opsdk alone (for comparisons with torch, written as fn(opsdk, ...))."""
    return run(opsdk, fn, arrays, dtypes or ["float64"] * len(arrays), diff)


def torch_grads(fn, arrays, diff=(0,)):
    """Values and gradients of fn(*torch tensors) for the cotangents run() uses."""
    torch = import_torch()
    ts = [torch.tensor(np.asarray(a)) for a in arrays]
    for i in diff:
        ts[i].requires_grad_(True)
    outs = _as_list(fn(*ts))
    floats = [(k, o) for k, o in enumerate(outs) if o.dtype.is_floating_point]
    gs = torch.autograd.grad([o for _, o in floats], [ts[i] for i in diff],
                             [torch.tensor(cotangent(tuple(o.shape), k), dtype=o.dtype)
                              for k, o in floats], allow_unused=True)
    grads = [np.zeros(np.shape(arrays[i])) if g is None else g.numpy() for g, i in zip(gs, diff)]
    return [o.detach().numpy() for o in outs], grads


def assert_same_as_torch(opsdk_fn, torch_fn, arrays, diff=(0,), rtol=1e-7, atol=1e-10):
    """Values and first-order gradients of opsdk_fn(opsdk, ...) equal torch_fn(...)'s."""
    tv, tg = torch_grads(torch_fn, arrays, diff)
    gv, _, gg = opsdk_grads(opsdk_fn, arrays, diff=diff)
    for k, (a, b) in enumerate(zip(gv, tv)):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=f"output {k}")
    for k, (a, b) in enumerate(zip(gg, tg)):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=f"gradient of input {k}")


def int_tensor(v):
    """An int64 index tensor."""
    return opsdk.to_tensor(np.asarray(v, dtype=np.int64))


def grads_for_arange(fn, *arrays):
    """opsdk gradients (as lists) of fn's output for the cotangent 1, 2, 3, ... (float64)."""
    ts = [opsdk.to_tensor(np.asarray(a, "float64"), dtype="float64", stop_gradient=False)
          for a in arrays]
    y = fn(*ts)
    g = np.arange(1.0, y.size + 1).reshape(y.shape)
    return [r.numpy().tolist() for r in opsdk.grad([y], ts, [opsdk.to_tensor(g, "float64")])]


def paddle_cases(cases):
    """A test, parametrized over ``cases`` ({id: (fn, arrays)}), that each case's values,
    dtypes and gradients (of every input) are Paddle's. Assign it to a ``test_*`` name."""
    @pytest.mark.paddle
    @pytest.mark.parametrize("case", cases)
    def test(case):
        fn, arrays = cases[case]
        assert_same_as_paddle(fn, arrays, diff=tuple(range(len(arrays))))
    return test
