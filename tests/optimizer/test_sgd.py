"""SGD's update rule, by hand."""
import numpy as np

import opsdk as paddle
from .stepping import make_param, run_steps


def test_sgd_first_steps_are_param_minus_lr_times_grad():
    p = make_param([1.0, 2.0])
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[p])
    w1, w2 = run_steps(opt, p, [[0.5, -1.0], [2.0, 0.0]])
    np.testing.assert_allclose(w1, [0.95, 2.1])
    np.testing.assert_allclose(w2, [0.75, 2.1])


def test_sgd_default_learning_rate_is_paddles_0_001():
    p = make_param([1.0])
    opt = paddle.optimizer.SGD(parameters=[p])
    assert opt.get_lr() == 0.001
    np.testing.assert_allclose(run_steps(opt, p, [[1.0]])[0], [0.999])


def test_sgd_weight_decay_float_adds_l2_to_the_gradient():
    p = make_param([2.0])
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[p], weight_decay=0.5)
    np.testing.assert_allclose(run_steps(opt, p, [[1.0]])[0], [2.0 - 0.1 * (1.0 + 0.5 * 2.0)])


def test_seed001_sgd_drives_w_to_3():
    w = paddle.create_parameter(shape=[1], dtype="float32",
                                default_initializer=paddle.nn.initializer.Constant(0.0))
    optimizer = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w])
    seen = []
    for step in range(10):
        loss = (w - 3.0) ** 2
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        seen.append(float(w.item()))
    np.testing.assert_allclose(seen[:2], [0.6, 1.08], rtol=1e-6)
    np.testing.assert_allclose(seen[-1], 3 * (1 - 0.8 ** 10), rtol=1e-6)


def test_sgd_matches_torch_over_several_steps(torch):
    rng = np.random.default_rng(0)
    grads = rng.standard_normal((4, 3))
    p = make_param([0.5, -1.0, 2.0])
    ours = run_steps(paddle.optimizer.SGD(learning_rate=0.05, parameters=[p],
                                          weight_decay=0.1), p, grads)
    tp = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
    topt = torch.optim.SGD([tp], lr=0.05, weight_decay=0.1)
    for g in grads:
        tp.grad = torch.tensor(g)
        topt.step()
    np.testing.assert_allclose(ours[-1], tp.detach().numpy(), rtol=1e-12)
