"""Adam's update rule, by hand (Paddle's form equals the bias-corrected textbook form)."""
import math

import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import OpArgumentError
from .stepping import make_param, run_steps


def textbook_adam(w, grads, lr, b1=0.9, b2=0.999, eps=1e-8, wd=0.0):
    w = np.array(w, dtype=np.float64)
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    out = []
    for t, g in enumerate(grads, start=1):
        g = np.asarray(g) + wd * w
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        m_hat, v_hat = m / (1 - b1 ** t), v / (1 - b2 ** t)
        w = w - lr * m_hat / (np.sqrt(v_hat) + eps)
        out.append(w.copy())
    return out


def test_adam_first_step_moves_each_element_by_the_learning_rate():
    p = make_param([1.0, -2.0])
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=[p])
    (w1,) = run_steps(opt, p, [[2.0, -0.5]])
    # m_hat = g, v_hat = g^2: the first step is lr * g / (|g| + eps)
    np.testing.assert_allclose(w1, [1.0 - 0.01, -2.0 + 0.01], rtol=1e-7)


def test_adam_second_step_by_hand():
    p = make_param([1.0])
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=[p])
    w1, w2 = run_steps(opt, p, [[1.0], [3.0]])
    m2 = 0.9 * 0.1 + 0.1 * 3.0
    v2 = 0.999 * 0.001 + 0.001 * 9.0
    lr_t = 0.1 * math.sqrt(1 - 0.999 ** 2) / (1 - 0.9 ** 2)
    want = w1 - lr_t * m2 / (math.sqrt(v2) + 1e-8 * math.sqrt(1 - 0.999 ** 2))
    np.testing.assert_allclose(w2, want, rtol=1e-12)


def test_adam_matches_the_textbook_form_over_several_steps():
    rng = np.random.default_rng(2)
    grads = rng.standard_normal((6, 4))
    p = make_param([0.1, 0.2, -0.3, 0.4])
    ours = run_steps(paddle.optimizer.Adam(learning_rate=0.02, beta1=0.8, beta2=0.99,
                                           parameters=[p]), p, grads)
    want = textbook_adam([0.1, 0.2, -0.3, 0.4], grads, 0.02, b1=0.8, b2=0.99)
    np.testing.assert_allclose(ours[-1], want[-1], rtol=1e-10)


def test_adam_weight_decay_is_l2_added_to_the_gradient():
    rng = np.random.default_rng(3)
    grads = rng.standard_normal((3, 2))
    p = make_param([1.0, -1.0])
    ours = run_steps(paddle.optimizer.Adam(learning_rate=0.05, parameters=[p],
                                           weight_decay=0.1), p, grads)
    want = textbook_adam([1.0, -1.0], grads, 0.05, wd=0.1)
    np.testing.assert_allclose(ours[-1], want[-1], rtol=1e-10)


def test_adam_defaults_are_paddles():
    opt = paddle.optimizer.Adam(parameters=[make_param([0.0])])
    assert (opt.get_lr(), opt._beta1, opt._beta2, opt._epsilon) == (0.001, 0.9, 0.999, 1e-8)
    assert opt._lazy_mode is False


def test_adam_accepts_tensor_betas():
    opt = paddle.optimizer.Adam(parameters=[make_param([0.0])], beta1=paddle.to_tensor(0.5))
    assert opt._beta1 == 0.5


def test_adam_rejects_beta_outside_zero_one():
    with pytest.raises(OpArgumentError, match=r"beta2 must lie in \[0, 1\)"):
        paddle.optimizer.Adam(parameters=[make_param([0.0])], beta2=1.0)


def test_adam_amsgrad_uses_the_running_max_of_v(torch):
    grads = [[3.0], [0.1], [0.1]]
    p = make_param([1.0])
    ours = run_steps(paddle.optimizer.Adam(learning_rate=0.1, parameters=[p], amsgrad=True),
                     p, grads)
    tp = torch.tensor([1.0], dtype=torch.float64, requires_grad=True)
    topt = torch.optim.Adam([tp], lr=0.1, amsgrad=True)
    for g in grads:
        tp.grad = torch.tensor(g, dtype=torch.float64)
        topt.step()
    np.testing.assert_allclose(ours[-1], tp.detach().numpy(), rtol=1e-6)


def test_adam_matches_torch_over_several_steps(torch):
    rng = np.random.default_rng(4)
    grads = rng.standard_normal((8, 5))
    init = rng.standard_normal(5)
    p = make_param(init)
    ours = run_steps(paddle.optimizer.Adam(learning_rate=0.01, parameters=[p],
                                           weight_decay=0.01), p, grads)
    tp = torch.tensor(init, requires_grad=True)
    topt = torch.optim.Adam([tp], lr=0.01, weight_decay=0.01)
    for g in grads:
        tp.grad = torch.tensor(g)
        topt.step()
    np.testing.assert_allclose(ours[-1], tp.detach().numpy(), rtol=1e-10)
