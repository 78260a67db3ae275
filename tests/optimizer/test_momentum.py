"""Momentum's update rule, by hand."""
import numpy as np

import opsdk as paddle
from .stepping import make_param, run_steps


def test_momentum_first_two_steps():
    p = make_param([1.0])
    opt = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=[p])
    w1, w2 = run_steps(opt, p, [[1.0], [1.0]])
    # v1 = 1 -> w1 = 1 - 0.1; v2 = 0.9 + 1 = 1.9 -> w2 = 0.9 - 0.19
    np.testing.assert_allclose(w1, [0.9])
    np.testing.assert_allclose(w2, [0.71])


def test_momentum_nesterov_adds_momentum_times_velocity_to_the_gradient():
    p = make_param([1.0])
    opt = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=[p],
                                    use_nesterov=True)
    w1, w2 = run_steps(opt, p, [[1.0], [1.0]])
    np.testing.assert_allclose(w1, [1.0 - 0.1 * (1 + 0.9 * 1)])
    np.testing.assert_allclose(w2, w1 - 0.1 * (1 + 0.9 * 1.9))


def test_momentum_defaults_are_paddles():
    opt = paddle.optimizer.Momentum(parameters=[make_param([0.0])])
    assert opt.get_lr() == 0.001 and opt._momentum == 0.9 and not opt._use_nesterov


def test_momentum_rescale_grad_multiplies_the_gradient_first():
    p = make_param([1.0])
    opt = paddle.optimizer.Momentum(learning_rate=0.1, parameters=[p], rescale_grad=0.5)
    np.testing.assert_allclose(run_steps(opt, p, [[2.0]])[0], [0.9])


def test_momentum_matches_torch_sgd_with_momentum(torch):
    rng = np.random.default_rng(1)
    grads = rng.standard_normal((5, 3))
    for nesterov in (False, True):
        p = make_param([0.5, -1.0, 2.0])
        ours = run_steps(paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.8,
                                                   parameters=[p], use_nesterov=nesterov),
                         p, grads)
        tp = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
        topt = torch.optim.SGD([tp], lr=0.05, momentum=0.8, nesterov=nesterov)
        for g in grads:
            tp.grad = torch.tensor(g)
            topt.step()
        np.testing.assert_allclose(ours[-1], tp.detach().numpy(), rtol=1e-12)
