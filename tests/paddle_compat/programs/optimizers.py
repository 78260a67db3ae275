"""Optimizers over several steps: SGD, Momentum, Adam, AdamW and the added Adagrad, Adamax,
RMSProp, Lamb, with weight decay, grad_clip, schedulers and parameter groups."""
import numpy as np

from ..harness import attempt
from . import program

W0 = np.asarray([[0.5, -1.0], [1.5, 0.25], [-0.75, 2.0]], dtype="float32")
B0 = np.asarray([0.1, -0.2], dtype="float32")
XS = [np.asarray([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0]], dtype="float32"),
      np.asarray([[-2.0, 1.0, 0.0], [1.0, 1.0, 1.0]], dtype="float32"),
      np.asarray([[0.3, -0.7, 2.2], [-1.2, 0.4, 0.9]], dtype="float32"),
      np.asarray([[1.1, 0.0, -0.4], [2.0, -1.5, 0.5]], dtype="float32")]


def _params(paddle):
    w = paddle.create_parameter([3, 2], "float32")
    b = paddle.create_parameter([2], "float32", is_bias=True)
    w.set_value(W0)
    b.set_value(B0)
    return w, b


def _train(paddle, make_opt, steps=4, sched=None):
    w, b = _params(paddle)
    opt = make_opt([w, b])
    lrs = []
    for x in XS[:steps]:
        y = paddle.matmul(paddle.to_tensor(x), w) + b
        loss = (y * y).mean() + paddle.sin(w).sum()
        loss.backward()
        lrs.append(opt.get_lr())
        opt.step()
        opt.clear_grad()
        if sched is not None:
            sched.step()
    return {"w": w, "b": b, "lrs": lrs}


def _case(name, **kwargs):
    def prog(paddle):
        cls = getattr(paddle.optimizer, name)
        extra = {k: (v(paddle) if callable(v) else v) for k, v in kwargs.items()}
        return _train(paddle, lambda ps: cls(parameters=ps, **extra))
    return prog


_CASES = {
    "sgd": ("SGD", {"learning_rate": 0.1}),
    "sgd_weight_decay": ("SGD", {"learning_rate": 0.1, "weight_decay": 0.05}),
    "sgd_l1_decay": ("SGD", {"learning_rate": 0.1,
                             "weight_decay": lambda p: p.regularizer.L1Decay(0.05)}),
    "momentum": ("Momentum", {"learning_rate": 0.05, "momentum": 0.9}),
    "momentum_nesterov": ("Momentum", {"learning_rate": 0.05, "momentum": 0.8,
                                       "use_nesterov": True}),
    "momentum_weight_decay": ("Momentum", {"learning_rate": 0.05, "weight_decay": 0.01}),
    "adam": ("Adam", {"learning_rate": 0.01}),
    "adam_betas_epsilon": ("Adam", {"learning_rate": 0.02, "beta1": 0.8, "beta2": 0.95,
                                    "epsilon": 1e-6}),
    "adam_weight_decay": ("Adam", {"learning_rate": 0.01, "weight_decay": 0.1}),
    "adam_l2_decay": ("Adam", {"learning_rate": 0.01,
                               "weight_decay": lambda p: p.regularizer.L2Decay(0.1)}),
    "adam_amsgrad": ("Adam", {"learning_rate": 0.01, "amsgrad": True}),
    "adamw": ("AdamW", {"learning_rate": 0.01}),
    "adamw_weight_decay": ("AdamW", {"learning_rate": 0.01, "weight_decay": 0.2}),
    "adamw_apply_decay_fun": ("AdamW", {"learning_rate": 0.01, "weight_decay": 0.2,
                                        "apply_decay_param_fun": lambda p: (lambda n: False)}),
    "adagrad": ("Adagrad", {"learning_rate": 0.1}),
    "adagrad_initial_accumulator": ("Adagrad", {"learning_rate": 0.1, "epsilon": 1e-5,
                                                "initial_accumulator_value": 0.5}),
    "adagrad_weight_decay": ("Adagrad", {"learning_rate": 0.1, "weight_decay": 0.05}),
    "adamax": ("Adamax", {"learning_rate": 0.05}),
    "adamax_betas": ("Adamax", {"learning_rate": 0.05, "beta1": 0.8, "beta2": 0.9,
                                "epsilon": 1e-6}),
    "adamax_weight_decay": ("Adamax", {"learning_rate": 0.05, "weight_decay": 0.1}),
    "rmsprop": ("RMSProp", {"learning_rate": 0.01}),
    "rmsprop_momentum": ("RMSProp", {"learning_rate": 0.01, "rho": 0.9, "momentum": 0.5}),
    "rmsprop_centered": ("RMSProp", {"learning_rate": 0.01, "centered": True,
                                     "epsilon": 1e-4}),
    "rmsprop_weight_decay": ("RMSProp", {"learning_rate": 0.01, "weight_decay": 0.1}),
    "lamb": ("Lamb", {"learning_rate": 0.05}),
    "lamb_weight_decay": ("Lamb", {"learning_rate": 0.05, "lamb_weight_decay": 0.1}),
    "lamb_exclude_fn": ("Lamb", {"learning_rate": 0.05, "lamb_weight_decay": 0.1,
                                 "exclude_from_weight_decay_fn": lambda p: (lambda t: True)}),
    "lamb_betas": ("Lamb", {"learning_rate": 0.05, "beta1": 0.8, "beta2": 0.9,
                            "epsilon": 1e-5}),
}

for _name, (_cls, _kw) in _CASES.items():
    _fn = _case(_cls, **_kw)
    _fn.__name__ = f"optimizer_{_name}"
    program(item="names" if _cls in ("Adagrad", "Adamax", "RMSProp", "Lamb") else "optimizer",
            rtol=2e-5, atol=2e-6)(_fn)


def _clipped(paddle, cls_name, clip, **kw):
    cls = getattr(paddle.optimizer, cls_name)
    return _train(paddle, lambda ps: cls(parameters=ps, grad_clip=clip(paddle), **kw))


@program(item="names", rtol=2e-5, atol=2e-6)
def optimizer_new_ones_with_global_norm_clip(paddle):
    out = {}
    for name, kw in (("Adagrad", {"learning_rate": 0.1}), ("Adamax", {"learning_rate": 0.05}),
                     ("RMSProp", {"learning_rate": 0.01}), ("Lamb", {"learning_rate": 0.05})):
        out[name] = _clipped(paddle, name, lambda p: p.nn.ClipGradByGlobalNorm(0.5), **kw)
    return out


@program(item="names", rtol=2e-5, atol=2e-6)
def optimizer_new_ones_with_value_clip(paddle):
    out = {}
    for name, kw in (("Adagrad", {"learning_rate": 0.1}), ("Adamax", {"learning_rate": 0.05}),
                     ("RMSProp", {"learning_rate": 0.01}), ("Lamb", {"learning_rate": 0.05})):
        out[name] = _clipped(paddle, name, lambda p: p.nn.ClipGradByValue(0.3), **kw)
    return out


@program(item="names", rtol=2e-5, atol=2e-6)
def optimizer_new_ones_with_step_decay(paddle):
    out = {}
    for name in ("Adagrad", "Adamax", "RMSProp", "Lamb", "Adam", "SGD"):
        sched = paddle.optimizer.lr.StepDecay(0.05, step_size=2, gamma=0.5)
        cls = getattr(paddle.optimizer, name)
        out[name] = _train(paddle, lambda ps: cls(learning_rate=sched, parameters=ps),
                           sched=sched)
    return out


@program(item="names", rtol=2e-5, atol=2e-6)
def optimizer_new_ones_with_cosine_decay(paddle):
    out = {}
    for name in ("Adagrad", "Adamax", "RMSProp", "Lamb"):
        sched = paddle.optimizer.lr.CosineAnnealingDecay(0.05, T_max=3)
        cls = getattr(paddle.optimizer, name)
        out[name] = _train(paddle, lambda ps: cls(learning_rate=sched, parameters=ps),
                           sched=sched)
    return out


@program(item="names", rtol=2e-5, atol=2e-6)
def optimizer_new_ones_param_groups(paddle):
    out = {}
    for name in ("Adagrad", "Adamax", "RMSProp", "Lamb"):
        cls = getattr(paddle.optimizer, name)
        out[name] = _train(paddle, lambda ps: cls(
            learning_rate=0.05,
            parameters=[{"params": [ps[0]], "learning_rate": 0.5}, {"params": [ps[1]]}]))
    return out


@program(item="names", rtol=2e-5, atol=2e-6)
def optimizer_new_ones_state_dict_keys(paddle):
    out = {}
    for i, (name, kw) in enumerate((("Adagrad", {}), ("Adamax", {}), ("RMSProp", {}),
                                    ("Lamb", {}), ("RMSProp", {"centered": True}))):
        w = paddle.create_parameter([2], "float32", name=f"p_{name.lower()}_{i}")
        opt = getattr(paddle.optimizer, name)(learning_rate=0.1, parameters=[w], **kw)
        (w * w).sum().backward()
        opt.step()
        key = name + ("_centered" if kw else "")
        out[key] = sorted(k.replace(w.name, "P") for k in opt.state_dict())
    return out


@program(item="optimizer")
def optimizer_param_groups_lr_multiplier(paddle):
    return _train(paddle, lambda ps: paddle.optimizer.SGD(
        learning_rate=0.1, parameters=[{"params": [ps[0]], "learning_rate": 0.1},
                                       {"params": [ps[1]], "weight_decay": 0.5}]))


@program(item="optimizer")
def optimizer_param_attr_learning_rate(paddle):
    lin = paddle.nn.Linear(3, 2, weight_attr=paddle.ParamAttr(learning_rate=0.1))
    lin.weight.set_value(W0)
    lin.bias.set_value(B0)
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=lin.parameters())
    lin(paddle.to_tensor(XS[0])).sum().backward()
    opt.step()
    return {"w": lin.weight, "b": lin.bias}


@program(item="optimizer")
def optimizer_set_lr_and_get_lr(paddle):
    w, b = _params(paddle)
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=[w, b])
    opt.set_lr(0.01)
    sched = paddle.optimizer.lr.ExponentialDecay(0.1, gamma=0.5)
    opt2 = paddle.optimizer.Adam(learning_rate=sched, parameters=[w, b])
    return {"lr": opt.get_lr(), "set_lr_on_scheduler": attempt(lambda: opt2.set_lr(0.2))}


@program(item="optimizer")
def optimizer_skips_stop_gradient_param(paddle):
    w, b = _params(paddle)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w, b])
    y = paddle.matmul(paddle.to_tensor(XS[0]), w) + b
    y.sum().backward()
    b.stop_gradient = True
    opt.step()
    return {"w": w, "b": b}


@program(item="optimizer")
def optimizer_tensor_parameters_is_type_error(paddle):
    x = paddle.zeros([2, 3])
    return {"out": attempt(lambda: paddle.optimizer.Adam(learning_rate=0.1, parameters=x)
                           and None)}


@program(item="optimizer")
def optimizer_minimize_returns_params_grads(paddle):
    w, b = _params(paddle)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w, b])
    loss = (paddle.matmul(paddle.to_tensor(XS[0]), w) + b).sum()
    loss.backward()
    _, pg = opt.minimize(loss)
    return {"n": len(pg), "w": w}


@program(item="optimizer")
def optimizer_step_leaves_grad_and_leaf(paddle):
    w, b = _params(paddle)
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=[w, b])
    (paddle.matmul(paddle.to_tensor(XS[0]), w) + b).sum().backward()
    opt.step()
    return {"w_leaf": w.is_leaf, "w_sg": w.stop_gradient, "grad": w.grad}


@program(item="optimizer")
def optimizer_adam_state_dict_keys(paddle):
    w = paddle.create_parameter([2], "float32", name="p_adam")
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=[w])
    (w * w).sum().backward()
    opt.step()
    return {"keys": sorted(opt.state_dict())}
