"""RMSProp's update rule (Paddle's: epsilon inside the square root), by hand."""
import numpy as np
import pytest

import opsdk as paddle
from .stepping import make_param, run_steps


def reference_rmsprop(w, grads, lr, rho=0.95, eps=1e-6, momentum=0.0, centered=False):
    w = np.array(w, dtype=np.float64)
    ms, mg, mom = np.zeros_like(w), np.zeros_like(w), np.zeros_like(w)
    out = []
    for g in grads:
        g = np.asarray(g)
        ms = rho * ms + (1 - rho) * g * g
        mg = rho * mg + (1 - rho) * g
        denom = ms - mg * mg if centered else ms
        mom = momentum * mom + lr * g / np.sqrt(denom + eps)
        w = w - mom
        out.append(w.copy())
    return out


@pytest.mark.parametrize("kw", [{}, {"momentum": 0.7}, {"centered": True, "epsilon": 1e-4},
                                {"rho": 0.5, "momentum": 0.3, "centered": True}])
def test_rmsprop_matches_the_reference_over_several_steps(kw):
    grads = np.random.default_rng(5).standard_normal((6, 3))
    p = make_param([0.5, -0.5, 1.5])
    ours = run_steps(paddle.optimizer.RMSProp(learning_rate=0.01, parameters=[p], **kw), p,
                     grads)
    want = reference_rmsprop([0.5, -0.5, 1.5], grads, 0.01, kw.get("rho", 0.95),
                             kw.get("epsilon", 1e-6), kw.get("momentum", 0.0),
                             kw.get("centered", False))
    np.testing.assert_allclose(np.array(ours), np.array(want), rtol=1e-12)


def test_rmsprop_state_dict_names_paddles_accumulators():
    p = make_param([1.0])
    p.name = "w"
    opt = paddle.optimizer.RMSProp(learning_rate=0.1, parameters=[p])
    run_steps(opt, p, [[2.0]])
    assert sorted(opt.state_dict()) == ["w_mean_grad_0", "w_mean_square_0", "w_momentum_0"]
