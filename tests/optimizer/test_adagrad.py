"""Adagrad's update rule, by hand and against PyTorch (same formula)."""
import numpy as np
import pytest

import opsdk as paddle
from .stepping import make_param, run_steps


def reference_adagrad(w, grads, lr, eps=1e-6, init=0.0, wd=0.0):
    w = np.array(w, dtype=np.float64)
    moment = np.full_like(w, init)
    out = []
    for g in grads:
        g = np.asarray(g) + wd * w
        moment = moment + g * g
        w = w - lr * g / (np.sqrt(moment) + eps)
        out.append(w.copy())
    return out


def test_adagrad_first_step_moves_each_element_by_the_learning_rate():
    p = make_param([1.0, -2.0])
    (w1,) = run_steps(paddle.optimizer.Adagrad(learning_rate=0.1, parameters=[p]), p,
                      [[4.0, -0.5]])
    np.testing.assert_allclose(w1, [0.9, -1.9], rtol=1e-5)


@pytest.mark.parametrize("kw", [{}, {"epsilon": 1e-3, "initial_accumulator_value": 0.5},
                                {"weight_decay": 0.1}])
def test_adagrad_matches_the_reference_over_several_steps(kw):
    grads = np.random.default_rng(0).standard_normal((5, 3))
    p = make_param([0.5, -0.5, 1.5])
    ours = run_steps(paddle.optimizer.Adagrad(learning_rate=0.05, parameters=[p], **kw), p,
                     grads)
    want = reference_adagrad([0.5, -0.5, 1.5], grads, 0.05, kw.get("epsilon", 1e-6),
                             kw.get("initial_accumulator_value", 0.0), kw.get("weight_decay", 0))
    np.testing.assert_allclose(np.array(ours), np.array(want), rtol=1e-12)


def test_adagrad_matches_torch(torch):
    grads = np.random.default_rng(1).standard_normal((4, 3))
    p = make_param([0.5, -0.5, 1.5])
    ours = run_steps(paddle.optimizer.Adagrad(learning_rate=0.1, epsilon=1e-10, parameters=[p]),
                     p, grads)
    t = torch.tensor([0.5, -0.5, 1.5], dtype=torch.float64, requires_grad=True)
    opt = torch.optim.Adagrad([t], lr=0.1, eps=1e-10)
    for g in grads:
        t.grad = torch.tensor(g)
        opt.step()
    np.testing.assert_allclose(ours[-1], t.detach().numpy(), rtol=1e-12)


def test_adagrad_state_dict_holds_the_moment():
    p = make_param([1.0])
    p.name = "w"
    opt = paddle.optimizer.Adagrad(learning_rate=0.1, parameters=[p])
    run_steps(opt, p, [[2.0]])
    assert sorted(opt.state_dict()) == ["w_moment_0"]
    np.testing.assert_allclose(opt.state_dict()["w_moment_0"].numpy(), [4.0])
