"""AdamW's decoupled weight decay, by hand."""
import numpy as np

import opsdk as paddle
from .stepping import make_param, run_steps


def test_adamw_first_step_decays_then_applies_adam():
    p = make_param([1.0])
    opt = paddle.optimizer.AdamW(learning_rate=0.1, parameters=[p], weight_decay=0.01)
    (w1,) = run_steps(opt, p, [[2.0]])
    np.testing.assert_allclose(w1, [1.0 * (1 - 0.1 * 0.01) - 0.1], rtol=1e-7)


def test_adamw_default_weight_decay_is_0_01():
    assert paddle.optimizer.AdamW(parameters=[make_param([0.0])])._coeff == 0.01


def test_adamw_apply_decay_param_fun_skips_the_decay_by_name():
    p = make_param([1.0])
    opt = paddle.optimizer.AdamW(learning_rate=0.1, parameters=[p], weight_decay=0.5,
                                 apply_decay_param_fun=lambda name: False)
    np.testing.assert_allclose(run_steps(opt, p, [[2.0]])[0], [0.9], rtol=1e-7)


def test_adamw_lr_ratio_scales_the_learning_rate_per_parameter():
    p = make_param([1.0])
    opt = paddle.optimizer.AdamW(learning_rate=0.1, parameters=[p], weight_decay=0.0,
                                 lr_ratio=lambda param: 0.5)
    np.testing.assert_allclose(run_steps(opt, p, [[2.0]])[0], [0.95], rtol=1e-7)


def test_adamw_decay_never_enters_the_gradient_clip():
    p = make_param([100.0])
    opt = paddle.optimizer.AdamW(learning_rate=0.1, parameters=[p], weight_decay=0.1,
                                 grad_clip=paddle.nn.ClipGradByValue(1.0))
    np.testing.assert_allclose(run_steps(opt, p, [[0.5]])[0], [100.0 * 0.99 - 0.1], rtol=1e-7)


def test_adamw_matches_torch_over_several_steps(torch):
    rng = np.random.default_rng(5)
    grads = rng.standard_normal((8, 4))
    init = rng.standard_normal(4)
    p = make_param(init)
    ours = run_steps(paddle.optimizer.AdamW(learning_rate=0.01, parameters=[p],
                                            weight_decay=0.05), p, grads)
    tp = torch.tensor(init, requires_grad=True)
    topt = torch.optim.AdamW([tp], lr=0.01, weight_decay=0.05)
    for g in grads:
        tp.grad = torch.tensor(g)
        topt.step()
    np.testing.assert_allclose(ours[-1], tp.detach().numpy(), rtol=1e-7)
