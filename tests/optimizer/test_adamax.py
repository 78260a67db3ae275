"""Adamax's update rule (Paddle's epsilon placement), by hand."""
import numpy as np

import opsdk as paddle
from .stepping import make_param, run_steps


def reference_adamax(w, grads, lr, b1=0.9, b2=0.999, eps=1e-8, wd=0.0):
    w = np.array(w, dtype=np.float64)
    m = np.zeros_like(w)
    u = np.zeros_like(w)
    out = []
    for t, g in enumerate(grads, start=1):
        g = np.asarray(g) + wd * w
        m = b1 * m + (1 - b1) * g
        u = np.maximum(b2 * u + eps, np.abs(g))
        w = w - lr / (1 - b1 ** t) * m / u
        out.append(w.copy())
    return out


def test_adamax_first_step_moves_each_element_by_the_learning_rate():
    p = make_param([1.0, -2.0])
    (w1,) = run_steps(paddle.optimizer.Adamax(learning_rate=0.01, parameters=[p]), p,
                      [[3.0, -0.5]])
    np.testing.assert_allclose(w1, [0.99, -1.99], rtol=1e-9)


def test_adamax_matches_the_reference_over_several_steps():
    grads = np.random.default_rng(4).standard_normal((6, 3))
    p = make_param([0.5, -0.5, 1.5])
    opt = paddle.optimizer.Adamax(learning_rate=0.02, beta1=0.8, beta2=0.9, epsilon=1e-4,
                                  parameters=[p], weight_decay=0.05)
    ours = run_steps(opt, p, grads)
    want = reference_adamax([0.5, -0.5, 1.5], grads, 0.02, 0.8, 0.9, 1e-4, 0.05)
    np.testing.assert_allclose(np.array(ours), np.array(want), rtol=1e-12)


def test_adamax_state_dict_names_paddles_accumulators():
    p = make_param([1.0])
    p.name = "w"
    opt = paddle.optimizer.Adamax(learning_rate=0.1, parameters=[p])
    run_steps(opt, p, [[2.0]])
    sd = opt.state_dict()
    assert sorted(sd) == ["w_beta1_pow_acc_0", "w_inf_norm_0", "w_moment_0"]
    # as Paddle: the power starts at beta1 and has advanced once
    np.testing.assert_allclose(sd["w_beta1_pow_acc_0"].numpy(), [0.81])
