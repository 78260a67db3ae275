"""Lamb's update rule: Adam moments, decoupled decay and the layer-wise trust ratio."""
import numpy as np

import opsdk as paddle
from .stepping import make_param, run_steps


def reference_lamb(w, grads, lr, wd=0.01, b1=0.9, b2=0.999, eps=1e-6, adapt=True):
    w = np.array(w, dtype=np.float64)
    m, v = np.zeros_like(w), np.zeros_like(w)
    out = []
    for t, g in enumerate(grads, start=1):
        g = np.asarray(g)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        r = (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + eps) + wd * w
        ratio = np.linalg.norm(w) / np.linalg.norm(r) if adapt else 1.0
        w = w - lr * ratio * r
        out.append(w.copy())
    return out


def test_lamb_matches_the_reference_over_several_steps():
    grads = np.random.default_rng(6).standard_normal((5, 4))
    p = make_param([0.5, -0.5, 1.5, 0.25])
    ours = run_steps(paddle.optimizer.Lamb(learning_rate=0.05, lamb_weight_decay=0.1,
                                           parameters=[p]), p, grads)
    want = reference_lamb([0.5, -0.5, 1.5, 0.25], grads, 0.05, wd=0.1)
    np.testing.assert_allclose(np.array(ours), np.array(want), rtol=1e-12)


def test_lamb_excluded_parameter_has_no_decay_and_no_trust_ratio():
    grads = np.random.default_rng(7).standard_normal((3, 2))
    p = make_param([0.5, -1.5])
    opt = paddle.optimizer.Lamb(learning_rate=0.05, lamb_weight_decay=0.1, parameters=[p],
                                exclude_from_weight_decay_fn=lambda param: True)
    ours = run_steps(opt, p, grads)
    want = reference_lamb([0.5, -1.5], grads, 0.05, wd=0.0, adapt=False)
    np.testing.assert_allclose(np.array(ours), np.array(want), rtol=1e-12)


def test_lamb_always_adapt_uses_the_trust_ratio_without_decay():
    grads = np.random.default_rng(8).standard_normal((3, 2))
    p = make_param([0.5, -1.5])
    opt = paddle.optimizer.Lamb(learning_rate=0.05, lamb_weight_decay=0.0, parameters=[p],
                                always_adapt=True)
    ours = run_steps(opt, p, grads)
    want = reference_lamb([0.5, -1.5], grads, 0.05, wd=0.0, adapt=True)
    np.testing.assert_allclose(np.array(ours), np.array(want), rtol=1e-12)


def test_lamb_zero_parameter_takes_a_trust_ratio_of_one():
    p = make_param([0.0, 0.0])
    (w1,) = run_steps(paddle.optimizer.Lamb(learning_rate=0.1, parameters=[p]), p, [[1.0, -2.0]])
    # r = m_hat / (sqrt(v_hat) + eps) = sign(g) (up to eps); ||param|| = 0, so ratio 1
    np.testing.assert_allclose(w1, [-0.1, 0.1], rtol=1e-5)
