"""Programs of views and in-place writes in grad mode, against PyTorch (which reroutes the
gradients of views after an in-place write, as opsdk does; Paddle leaves them stale).

Each program: a leaf x, y = f(x), some views of y (slices, an int index, reshape, transpose,
views of views), then random in-place writes (op_ methods, x[idx] = v) into y or a view, then
a weighted sum of y and the views. Values and x's gradient must match torch; where torch
refuses (a saved tensor was modified), opsdk must refuse too, with its own error.
"""
import numpy as np
import pytest
from hypothesis import given, strategies as st

pytest.importorskip("torch", reason="the view/in-place programs compare against PyTorch")

from opsdk.errors import OpsdkError  # noqa: E402

from . import frameworks  # noqa: E402
from .conftest import fuzz_settings  # noqa: E402
from .harness import assert_close  # noqa: E402

pytestmark = pytest.mark.torch

VIEWS = {
    "row": lambda y: y[1], "slice": lambda y: y[0:2], "cols": lambda y: y[:, 1:],
    "step": lambda y: y[::2], "reshape": lambda y: y.reshape([2, 6]),
    "transpose": lambda y: y.transpose([1, 0]) if hasattr(y, "permute") is False else None,
    "elem": lambda y: y[2, 3],
}
STARTS = {
    "mul": lambda m, x: x * 1.5, "exp": lambda m, x: m.exp(x), "tanh": lambda m, x: m.tanh(x),
    "square": lambda m, x: x * x,
}


def _transpose(fw, t):
    return t.permute(1, 0) if fw.name == "torch" else t.transpose([1, 0])


def _view(fw, kind, y):
    if kind == "transpose":
        return _transpose(fw, y)
    return VIEWS[kind](y)


def _write(fw, kind, target, x, k):
    """One in-place write into target (constants, or values that depend on x)."""
    m = fw.module
    if kind == "add_const":
        target.add_(m.to_tensor(np.asarray(0.5 + k, dtype="float64")) if fw.name == "torch"
                    else 0.5 + k)
    elif kind == "mul_const":
        target.mul_(1.0 + k) if fw.name == "torch" else target.multiply_(1.0 + k)
    elif kind == "mul_x":
        w = x.reshape([-1])[: 1]  # a tensor that needs grad, broadcast over target
        target.mul_(w) if fw.name == "torch" else target.multiply_(w)
    elif kind == "tanh":
        target.tanh_()
    elif kind == "set_const":
        target[0] = 7.0 + k
    elif kind == "set_x":
        target[0] = x.reshape([-1])[k % 12] * 3.0
    elif kind == "zero":
        target.zero_()


def run(fw, start, views, writes, weights):
    x = fw.tensor(np.arange(12, dtype="float64").reshape(3, 4) / 7.0 - 0.6, True)
    try:
        y = STARTS[start](fw.module, x)
        made = {}
        for name in views:
            base = made.get("slice", y) if name == "elem2" else y
            made[name] = _view(fw, name if name != "elem2" else "row", base)
        for step, (where, kind) in enumerate(writes):
            target = y if where == "base" else made[where]
            if target.ndim == 0 and kind.startswith("set"):
                kind = "add_const"
            _write(fw, kind, target, x, step)
        outs = [y] + [made[n] for n in views]
        total = None
        for o, w in zip(outs, weights):
            term = (o * w).sum()
            total = term if total is None else total + term
        values = [fw.array(o) for o in outs]
        fw.backward([total], [fw.tensor(np.asarray(1.0), False)])
        return None, values, fw.array(x.grad) if x.grad is not None else None
    except Exception as e:
        return e, None, None


@fuzz_settings(factor=10)
@given(data=st.data())
def test_views_and_in_place_writes_match_torch(data):
    start = data.draw(st.sampled_from(sorted(STARTS)), label="start")
    views = data.draw(st.lists(st.sampled_from(["row", "slice", "cols", "step", "reshape",
                                                "transpose", "elem", "elem2"]),
                               max_size=3, unique=True), label="views")
    targets = ["base"] + views
    writes = data.draw(st.lists(st.tuples(st.sampled_from(targets), st.sampled_from(
        ["add_const", "mul_const", "mul_x", "tanh", "set_const", "set_x", "zero"])),
        min_size=1, max_size=3), label="writes")
    weights = [1.0 + 0.5 * i for i in range(len(views) + 1)]
    case = f"start={start} views={views} writes={writes}"
    err, vals, grad = run(frameworks.get("opsdk"), start, views, writes, weights)
    terr, tvals, tgrad = run(frameworks.get("torch"), start, views, writes, weights)
    if err is not None:
        assert isinstance(err, OpsdkError), f"{case}: internal error {err!r}"
        return  # a clear refusal is always allowed (opsdk may be stricter than torch)
    assert terr is None, f"{case}: torch refused ({terr}), opsdk returned an answer"
    for k, (a, b) in enumerate(zip(vals, tvals)):
        assert_close(a, b, f"{case}: value {k}", "float64")
    assert_close(grad, tgrad, f"{case}: x.grad", "float64")
