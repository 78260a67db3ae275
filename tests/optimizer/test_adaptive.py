"""NAdam, RAdam, Adadelta, ASGD and Rprop: several steps against Paddle 3.3.1's (coupled weight
decay, parameter groups with their own learning rate and decay, a scheduler), their state
names, and their argument checks."""
import warnings

import numpy as np
import pytest

import opsdk
from helpers.frameworks import import_paddle

RNG = np.random.default_rng(11)
W0 = RNG.standard_normal((3, 4))
B0 = RNG.standard_normal(4)
GRADS = RNG.standard_normal((7, 3, 4))
BGRADS = RNG.standard_normal((7, 4))


def _run(P, make, grouped, steps=7, dtype="float64"):
    """The parameters after each step of make(P, params) fed GRADS (through a linear loss, so
    the gradients reach .grad by backward)."""
    w = P.create_parameter([3, 4], dtype,
                           default_initializer=P.nn.initializer.Assign(W0.astype(dtype)))
    b = P.create_parameter([4], dtype,
                           default_initializer=P.nn.initializer.Assign(B0.astype(dtype)))
    params = ([{"params": [w]}, {"params": [b], "learning_rate": 0.5, "weight_decay": 0.2}]
              if grouped else [w, b])
    opt = make(P, params)
    out = []
    for k in range(steps):
        loss = (w * P.to_tensor(GRADS[k].astype(dtype))).sum() + \
            (b * P.to_tensor(BGRADS[k].astype(dtype))).sum()
        loss.backward()
        opt.step()
        opt.clear_grad()
        out.append((w.numpy().copy(), b.numpy().copy()))
    return out, opt


# Paddle passes the learning rate and the kernels' hyperparameters as float32: values exact in
# float32 make the comparison exact in float64 (others differ from Paddle's by float32 rounding,
# ~1e-8 relative, as every opsdk optimizer does)
MAKERS = {
    "NAdam": lambda P, ps: P.optimizer.NAdam(0.0625, 0.875, 0.9375, 2 ** -20, 2 ** -8,
                                             parameters=ps),
    "NAdam-decay": lambda P, ps: P.optimizer.NAdam(0.125, 0.875, 0.9375, 2 ** -20, 2 ** -6,
                                                   parameters=ps, weight_decay=0.1),
    "RAdam": lambda P, ps: P.optimizer.RAdam(0.0625, 0.875, 0.9375, 2 ** -20, parameters=ps),
    # beta2 small enough that rho_t passes 5 within the steps: both branches run
    "RAdam-rectified": lambda P, ps: P.optimizer.RAdam(0.03125, 0.75, 0.5, 2 ** -20,
                                                       parameters=ps, weight_decay=0.05),
    "Adadelta": lambda P, ps: P.optimizer.Adadelta(1.0, 2 ** -20, 0.75, parameters=ps),
    "Adadelta-decay": lambda P, ps: P.optimizer.Adadelta(0.5, 2 ** -14, 0.875, parameters=ps,
                                                         weight_decay=0.1),
    "ASGD": lambda P, ps: P.optimizer.ASGD(0.1, batch_num=3, parameters=ps),
    "ASGD-decay": lambda P, ps: P.optimizer.ASGD(0.1, batch_num=2, parameters=ps,
                                                 weight_decay=0.1),
    "ASGD-1": lambda P, ps: P.optimizer.ASGD(0.1, parameters=ps),
    "Rprop": lambda P, ps: P.optimizer.Rprop(0.01, parameters=ps),
    "Rprop-range": lambda P, ps: P.optimizer.Rprop(0.1, (0.05, 0.15), parameters=ps,
                                                   etas=(0.3, 1.5)),
    "NAdam-scheduler": lambda P, ps: P.optimizer.NAdam(
        P.optimizer.lr.StepDecay(0.125, step_size=1, gamma=0.5), 0.75, 0.5, 2 ** -20, 2 ** -4,
        parameters=ps),
}


@pytest.mark.paddle
@pytest.mark.parametrize("name", ["NAdam", "RAdam", "Adadelta"])
def test_inexact_hyperparameters_differ_from_paddle_by_float32_rounding_only(name):
    paddle = import_paddle()
    make = {"NAdam": lambda P, ps: P.optimizer.NAdam(0.05, 0.9, 0.999, 1e-8, 0.004,
                                                     parameters=ps, weight_decay=0.1),
            "RAdam": lambda P, ps: P.optimizer.RAdam(0.05, 0.8, 0.6, parameters=ps),
            "Adadelta": lambda P, ps: P.optimizer.Adadelta(0.3, 1e-6, 0.9, parameters=ps)}[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want, _ = _run(paddle, make, True)
    got, _ = _run(opsdk, make, True)
    for (gw, gb), (ww, wb) in zip(got, want):
        np.testing.assert_allclose(gw, ww, rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(gb, wb, rtol=1e-6, atol=1e-9)


@pytest.mark.paddle
@pytest.mark.parametrize("grouped", [False, True], ids=["one-group", "groups"])
@pytest.mark.parametrize("name", list(MAKERS))
def test_steps_match_paddle(name, grouped):
    paddle = import_paddle()
    make = MAKERS[name]
    if name.endswith("scheduler"):
        def make(P, ps, inner=MAKERS[name]):  # noqa: E306 (the scheduler steps with the optimizer)
            opt = inner(P, ps)
            step = opt.step

            def stepped():
                step()
                opt._learning_rate.step()
            opt.step = stepped
            return opt
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want, _ = _run(paddle, make, grouped)
    got, _ = _run(opsdk, make, grouped)
    for k, ((gw, gb), (ww, wb)) in enumerate(zip(got, want)):
        np.testing.assert_allclose(gw, ww, rtol=1e-10, atol=1e-12, err_msg=f"w, step {k + 1}")
        np.testing.assert_allclose(gb, wb, rtol=1e-10, atol=1e-12, err_msg=f"b, step {k + 1}")


@pytest.mark.paddle
@pytest.mark.parametrize("name", ["NAdam", "RAdam-rectified", "Adadelta", "Rprop"])
def test_float32_steps_match_paddle(name):
    paddle = import_paddle()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want, _ = _run(paddle, MAKERS[name], False, dtype="float32")
    got, _ = _run(opsdk, MAKERS[name], False, dtype="float32")
    assert got[-1][0].dtype == np.float32
    for (gw, gb), (ww, wb) in zip(got, want):
        np.testing.assert_allclose(gw, ww, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(gb, wb, rtol=1e-5, atol=1e-6)


@pytest.mark.paddle
@pytest.mark.parametrize("name", ["NAdam", "RAdam", "Adadelta", "ASGD", "Rprop"])
def test_state_dict_keys_are_paddles(name):
    paddle = import_paddle()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, theirs = _run(paddle, MAKERS[name], False, steps=2)
        want = theirs.state_dict()
    _, ours = _run(opsdk, MAKERS[name], False, steps=2)
    got = ours.state_dict()

    def by_position(opt, keys):  # parameter names differ between the two runs
        names = [p.name for p in opt._parameter_list]
        return sorted((names.index(n), k[len(n):]) for k in keys for n in names
                      if k.startswith(n + "_"))
    assert by_position(ours, got) == by_position(theirs, want)
    assert len(by_position(ours, got)) == len(got)


def test_rprop_ignores_later_learning_rates_as_paddle():
    w = opsdk.create_parameter([2], "float64",
                               default_initializer=opsdk.nn.initializer.Assign([1.0, 1.0]))
    opt = opsdk.optimizer.Rprop(0.1, parameters=[w])
    opt.set_lr(0.5)
    w.grad = opsdk.to_tensor([1.0, -1.0], dtype="float64")
    opt.step()
    np.testing.assert_allclose(w.numpy(), [0.9, 1.1])


def test_bad_arguments_are_named():
    w = opsdk.create_parameter([2], "float64")
    with pytest.raises(ValueError, match=r"NAdam: beta1 must lie in \[0, 1\)"):
        opsdk.optimizer.NAdam(beta1=1.0, parameters=[w])
    with pytest.raises(ValueError, match="NAdam: momentum_decay must be >= 0"):
        opsdk.optimizer.NAdam(momentum_decay=-1.0, parameters=[w])
    with pytest.raises(ValueError, match="RAdam: epsilon must be >= 0"):
        opsdk.optimizer.RAdam(epsilon=-1.0, parameters=[w])
    with pytest.raises(ValueError, match="ASGD: batch_num must be greater than 0"):
        opsdk.optimizer.ASGD(batch_num=0, parameters=[w])
    with pytest.raises(ValueError, match="Rprop: expected: 0 < learning_rate_range"):
        opsdk.optimizer.Rprop(1.0, (1e-5, 0.5), parameters=[w])
    with pytest.raises(ValueError, match="Rprop: expected: 0 < etas"):
        opsdk.optimizer.Rprop(parameters=[w], etas=(0.5, 0.9))
    with pytest.raises(ValueError, match="Adadelta: rho is not set"):
        opsdk.optimizer.Adadelta(rho=None, parameters=[w])
