"""Learning-rate schedulers (paddle.optimizer.lr): the rates over the first steps."""
from ..harness import attempt
from . import program


def _rates(sched, steps=8, metrics=None):
    out = []
    for i in range(steps):
        out.append(sched())
        if metrics is None:
            sched.step()
        else:
            sched.step(metrics[i])
    return out


def _sched_case(name, builder, steps=8):
    def prog(paddle):
        lr = paddle.optimizer.lr
        if not hasattr(lr, builder[0]):
            return {"rates": "missing"}
        return {"rates": _rates(getattr(lr, builder[0])(**builder[1](paddle)), steps)}
    prog.__name__ = f"lr_{name}"
    return program(item="lr")(prog)


_CASES = {
    "step_decay": ("StepDecay", lambda p: dict(learning_rate=0.5, step_size=3, gamma=0.1)),
    "multi_step_decay": ("MultiStepDecay", lambda p: dict(learning_rate=0.5,
                                                          milestones=[2, 5], gamma=0.5)),
    "exponential_decay": ("ExponentialDecay", lambda p: dict(learning_rate=0.5, gamma=0.9)),
    "cosine_annealing": ("CosineAnnealingDecay", lambda p: dict(learning_rate=0.5, T_max=4,
                                                                eta_min=0.01)),
    "natural_exp_decay": ("NaturalExpDecay", lambda p: dict(learning_rate=0.5, gamma=0.1)),
    "inverse_time_decay": ("InverseTimeDecay", lambda p: dict(learning_rate=0.5, gamma=0.1)),
    "polynomial_decay": ("PolynomialDecay", lambda p: dict(learning_rate=0.5, decay_steps=5,
                                                           end_lr=0.01, power=2.0)),
    "polynomial_decay_cycle": ("PolynomialDecay", lambda p: dict(
        learning_rate=0.5, decay_steps=3, end_lr=0.0, power=1.0, cycle=True)),
    "piecewise_decay": ("PiecewiseDecay", lambda p: dict(boundaries=[2, 4],
                                                         values=[0.1, 0.05, 0.01])),
    "lambda_decay": ("LambdaDecay", lambda p: dict(learning_rate=0.5,
                                                   lr_lambda=lambda e: 0.9 ** e)),
    "multiplicative_decay": ("MultiplicativeDecay", lambda p: dict(
        learning_rate=0.5, lr_lambda=lambda e: 0.8)),
    "noam_decay": ("NoamDecay", lambda p: dict(d_model=64, warmup_steps=3,
                                               learning_rate=1.0)),
    "linear_warmup_float": ("LinearWarmup", lambda p: dict(learning_rate=0.5,
                                                          warmup_steps=4, start_lr=0.0,
                                                          end_lr=0.5)),
    "linear_warmup_scheduler": ("LinearWarmup", lambda p: dict(
        learning_rate=p.optimizer.lr.StepDecay(0.5, step_size=2, gamma=0.5),
        warmup_steps=3, start_lr=0.1, end_lr=0.5)),
    "linear_lr": ("LinearLR", lambda p: dict(learning_rate=0.5, total_steps=5,
                                             start_factor=0.2, end_factor=1.0)),
    "cosine_warm_restarts": ("CosineAnnealingWarmRestarts", lambda p: dict(
        learning_rate=0.5, T_0=3, T_mult=2, eta_min=0.0)),
    "one_cycle": ("OneCycleLR", lambda p: dict(max_learning_rate=1.0, total_steps=8)),
    "cyclic": ("CyclicLR", lambda p: dict(base_learning_rate=0.1, max_learning_rate=1.0,
                                          step_size_up=2)),
}

for _name, _builder in _CASES.items():
    _sched_case(_name, _builder)


@program(item="lr")
def lr_reduce_on_plateau(paddle):
    lr = paddle.optimizer.lr
    if not hasattr(lr, "ReduceOnPlateau"):
        return {"rates": "missing"}
    sched = lr.ReduceOnPlateau(learning_rate=1.0, factor=0.5, patience=1, cooldown=1)
    return {"rates": _rates(sched, 8, metrics=[5.0, 4.0, 4.0, 4.0, 4.0, 4.0, 3.0, 3.0])}


@program(item="lr")
def lr_step_with_epoch_argument(paddle):
    sched = paddle.optimizer.lr.StepDecay(0.5, step_size=2, gamma=0.1)
    sched.step(5)
    a = sched()
    sched.step()
    return {"after_jump": a, "next": sched(), "last_epoch": sched.last_epoch}


@program(item="lr")
def lr_state_dict_round_trip(paddle):
    a = paddle.optimizer.lr.ExponentialDecay(0.5, gamma=0.9)
    for _ in range(3):
        a.step()
    b = paddle.optimizer.lr.ExponentialDecay(0.5, gamma=0.9)
    b.set_state_dict(a.state_dict())
    return {"last_epoch": b.last_epoch, "lr": b(), "keys": sorted(a.state_dict())}


@program(item="lr")
def lr_bad_arguments(paddle):
    lr = paddle.optimizer.lr
    return {"step_size": attempt(lambda: lr.StepDecay(0.5, step_size=0.5) and None),
            "gamma": attempt(lambda: lr.StepDecay(0.5, step_size=2, gamma=1.5) and None)}
