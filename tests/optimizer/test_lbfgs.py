"""LBFGS against Paddle 3.3.1: the parameters and losses after several step(closure) calls,
with and without the strong-Wolfe line search, a short history and tolerances that stop early;
its state and argument checks."""
import warnings

import numpy as np
import pytest

import opsdk
from helpers.frameworks import import_paddle

A0 = np.array([-1.2, 1.0, 0.5])
B0 = np.array([[0.3, -0.7], [1.1, 0.2]])


def _run(P, steps=3, **kw):
    a = P.create_parameter([3], "float64", default_initializer=P.nn.initializer.Assign(A0))
    b = P.create_parameter([2, 2], "float64", default_initializer=P.nn.initializer.Assign(B0))
    opt = P.optimizer.LBFGS(parameters=[a, b], **kw)

    def closure():
        opt.clear_grad()
        # a Rosenbrock valley in a, a quartic bowl in b, coupled
        loss = (100 * (a[1:] - a[:-1] ** 2) ** 2 + (1 - a[:-1]) ** 2).sum() + \
            ((b - 0.5) ** 4).sum() + (a[0] * b[0, 0]) ** 2
        loss.backward()
        return loss
    out = []
    for _ in range(steps):
        first = opt.step(closure)
        out.append((float(first), a.numpy().copy(), b.numpy().copy()))
    return out, opt


CASES = {
    "plain": dict(learning_rate=0.05, max_iter=5),
    "strong_wolfe": dict(line_search_fn="strong_wolfe", max_iter=8),
    "short-history": dict(line_search_fn="strong_wolfe", history_size=2, max_iter=6,
                          max_eval=9),
    "tolerances": dict(learning_rate=0.1, tolerance_change=1e-3, tolerance_grad=1e-2),
}


@pytest.mark.paddle
@pytest.mark.parametrize("name", list(CASES))
def test_steps_match_paddle(name):
    paddle = import_paddle()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want, theirs = _run(paddle, **CASES[name])
    got, ours = _run(opsdk, **CASES[name])
    for (gl, ga, gb), (wl, wa, wb) in zip(got, want):
        np.testing.assert_allclose(gl, wl, rtol=1e-10)
        np.testing.assert_allclose(ga, wa, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(gb, wb, rtol=1e-9, atol=1e-12)
    assert ours.state["func_evals"] == theirs.state["func_evals"]
    assert ours.state["n_iter"] == theirs.state["n_iter"]


def test_strong_wolfe_minimizes_a_quadratic():
    w = opsdk.create_parameter([2], "float64",
                               default_initializer=opsdk.nn.initializer.Assign([4.0, -2.0]))
    opt = opsdk.optimizer.LBFGS(parameters=[w], line_search_fn="strong_wolfe")

    def closure():
        opt.clear_grad()
        loss = ((w - opsdk.to_tensor([1.0, 3.0], dtype="float64")) ** 2 *
                opsdk.to_tensor([1.0, 10.0], dtype="float64")).sum()
        loss.backward()
        return loss
    opt.step(closure)
    np.testing.assert_allclose(w.numpy(), [1.0, 3.0], atol=1e-6)
    assert sorted(opt.state_dict()["state"]) == sorted(
        ["func_evals", "n_iter", "d", "alpha", "old_yk", "old_sk", "ro", "H_diag",
         "prev_flat_grad", "prev_loss", "al"])


def test_bad_arguments_are_named():
    w = opsdk.create_parameter([2], "float64")
    with pytest.raises(TypeError, match="LBFGS: 'parameters' must be an iterable"):
        opsdk.optimizer.LBFGS(parameters=w)
    with pytest.raises(ValueError, match="LBFGS: line_search_fn must be None or 'strong_wolfe'"):
        opsdk.optimizer.LBFGS(parameters=[w], line_search_fn="armijo")
    with pytest.raises(TypeError, match="LBFGS.step: needs a closure"):
        opsdk.optimizer.LBFGS(parameters=[w]).step(None)
