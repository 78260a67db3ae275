"""Helpers for optimizer tests: parameters with chosen gradients."""
import numpy as np

import opsdk as paddle


def make_param(values, dtype="float64"):
    return paddle.create_parameter(
        [len(values)], dtype, default_initializer=paddle.nn.initializer.Assign(values))


def run_steps(opt, param, grads):
    """Set param.grad to each gradient in turn and step; returns the values after each step."""
    out = []
    for g in grads:
        param.grad = paddle.to_tensor(np.asarray(g, dtype=param.dtype))
        opt.step()
        out.append(param.numpy().copy())
    return out
