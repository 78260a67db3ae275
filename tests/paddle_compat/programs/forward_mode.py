"""paddle.autograd.jacobian / hessian (batch_axis) and paddle.incubate.autograd's jvp, vjp,
Jacobian and Hessian (issue 25): values, shapes, flags and errors agree with Paddle."""
import numpy as np

from ..harness import attempt
from . import program


def _leaf(paddle, values, dtype="float64"):
    return paddle.to_tensor(np.asarray(values, dtype=dtype), stop_gradient=False)


@program(item="25")
def jacobian_of_vector_function(paddle):
    x = _leaf(paddle, [0.5, -1.0, 2.0])
    y = paddle.tanh(x) * x
    J = paddle.autograd.jacobian(y, x)
    return {"shape": list(J.shape), "whole": J[:], "row": J[1], "column": J[:, 2],
            "block": J[0:2, 1:3]}


@program(item="25")
def jacobian_of_tuples(paddle):
    x1 = _leaf(paddle, [1.0, 2.0])
    x2 = _leaf(paddle, [3.0, -1.0, 0.5])
    y1 = x1 * x1.sum()
    y2 = paddle.exp(x2) * x2.sum() + (x1 * x1).sum()
    J = paddle.autograd.jacobian((y1, y2), (x1, x2))
    return {"j00": J[0][0][:], "j01": J[0][1][:], "j10": J[1][0][:], "j11": J[1][1][:],
            "shape": list(J[1][0].shape)}


@program(item="25")
def jacobian_batch_axis_0(paddle):
    x = _leaf(paddle, np.arange(6.0).reshape(3, 2) / 4)
    y = paddle.sin(x) * x[:, 0:1]
    J = paddle.autograd.jacobian(y, x, batch_axis=0)
    return {"shape": list(J.shape), "whole": J[:], "batch1": J[1], "bad_axis":
            attempt(paddle.autograd.jacobian, y, x, batch_axis=1)}


@program(item="25")
def jacobian_scalar_output(paddle):
    x = _leaf(paddle, [1.0, 2.0, 3.0])
    y = (x * x).sum()
    J = paddle.autograd.jacobian(y, x)
    return {"shape": list(J.shape), "whole": J[:], "one": J[1]}


@program(item="25")
def hessian_of_scalar(paddle):
    x = _leaf(paddle, [0.3, -0.7, 1.1])
    y = (paddle.sin(x) * x * x).sum()
    H = paddle.autograd.hessian(y, x)
    return {"shape": list(H.shape), "whole": H[:], "row": H[2], "type": type(H).__name__,
            "too_many": attempt(lambda: paddle.autograd.hessian(x * x, x))}


@program(item="25")
def hessian_of_two_inputs(paddle):
    x1 = _leaf(paddle, [1.0, 2.0])
    x2 = _leaf(paddle, [0.5, -0.5, 1.5])
    y = (x1 * x1).sum() * (paddle.exp(x2)).sum()
    H = paddle.autograd.hessian(y, (x1, x2))
    return {"h00": H[0][0][:], "h01": H[0][1][:], "h10": H[1][0][:], "h11": H[1][1][:]}


@program(item="25")
def hessian_batch_axis_0(paddle):
    x = _leaf(paddle, np.arange(6.0).reshape(3, 2) / 5)
    y = (x * x * x).sum(axis=1)
    H = paddle.autograd.hessian(y, x, batch_axis=0)
    return {"shape": list(H.shape), "whole": H[:]}


@program(item="25")
def incubate_jvp_and_vjp(paddle):
    x = paddle.to_tensor(np.array([0.5, 1.5, -2.0]))
    v = paddle.to_tensor(np.array([1.0, -1.0, 0.5]))
    f = lambda t: paddle.tanh(t) * t * t  # noqa: E731
    ys, jv = paddle.incubate.autograd.jvp(f, x, v)
    _, jones = paddle.incubate.autograd.jvp(f, x)
    _, vj = paddle.incubate.autograd.vjp(f, x, v)
    return {"ys": ys, "jv": jv, "jones": jones, "vj": vj}


@program(item="25")
def incubate_jvp_of_two_inputs_two_outputs(paddle):
    a = paddle.to_tensor(np.array([1.0, 2.0]))
    b = paddle.to_tensor(np.array([0.5, -1.0]))

    def f(x, y):
        return x * y, paddle.exp(x) + y * y

    ys, jv = paddle.incubate.autograd.jvp(f, [a, b], [paddle.ones_like(a), b])
    _, vj = paddle.incubate.autograd.vjp(f, [a, b], [a, b])
    return {"ys": list(ys), "jv": list(jv), "vj": list(vj),
            "bad_v": attempt(paddle.incubate.autograd.jvp, f, [a, b], [a])}


@program(item="25")
def incubate_jacobian_and_hessian(paddle):
    x = paddle.to_tensor(np.array([0.2, 0.4, 0.6]))
    J = paddle.incubate.autograd.Jacobian(lambda t: paddle.sin(t) * t.sum(), x)
    H = paddle.incubate.autograd.Hessian(lambda t: (t * t * paddle.exp(t)).sum(), x)
    xb = paddle.to_tensor(np.arange(6.0).reshape(2, 3) / 6)
    Jb = paddle.incubate.autograd.Jacobian(lambda t: t * t, xb, is_batched=True)
    return {"J": J[:], "Jshape": list(J.shape), "Jrow": J[1], "H": H[:],
            "Hshape": list(H.shape), "Jb": Jb[:], "Jbshape": list(Jb.shape)}


@program(item="25")
def jvp_of_jvp_second_derivative(paddle):
    x = paddle.to_tensor(np.array([0.3, 0.9]))
    v = paddle.to_tensor(np.array([1.0, 2.0]))

    def first(t):
        return paddle.incubate.autograd.jvp(lambda s: s * s * s * t.sum(), t, v)[1]

    _, second = paddle.incubate.autograd.jvp(first, x, v)
    return {"second": second}
