"""Core op gradients, at ordinary and at special points (ties of maximum/minimum: item 9)."""
import numpy as np

from . import program


def _leaf(paddle, values, dtype="float32"):
    return paddle.to_tensor(np.asarray(values, dtype=dtype), stop_gradient=False)


def _grads(paddle, fn, *arrays, dtype="float32"):
    xs = [_leaf(paddle, a, dtype) for a in arrays]
    y = fn(*xs)
    y.sum().backward()
    return {"y": y, "grads": [x.grad for x in xs]}


@program(item="9")
def maximum_tie_splits_gradient(paddle):
    return _grads(paddle, paddle.maximum, [1.0, 2.0, 3.0], [1.0, 5.0, 3.0])


@program(item="9")
def minimum_tie_splits_gradient(paddle):
    return _grads(paddle, paddle.minimum, [1.0, 2.0, 3.0], [1.0, 5.0, 0.0])


@program(item="9")
def maximum_broadcast_tie(paddle):
    return _grads(paddle, paddle.maximum, [[1.0, 2.0], [0.0, 2.0]], [2.0])


@program(item="ops")
def max_reduction_ties(paddle):
    return _grads(paddle, lambda x: paddle.max(x), [1.0, 3.0, 3.0, 2.0])


@program(item="ops")
def max_axis_ties(paddle):
    return _grads(paddle, lambda x: paddle.max(x, axis=1), [[1.0, 3.0, 3.0], [4.0, 4.0, 4.0]])


@program(item="ops")
def amax_ties(paddle):
    return _grads(paddle, lambda x: paddle.amax(x, axis=1), [[1.0, 3.0, 3.0], [4.0, 4.0, 4.0]])


@program(item="ops")
def min_reduction_ties(paddle):
    return _grads(paddle, lambda x: paddle.min(x, axis=0), [[1.0, 3.0], [1.0, 2.0]])


@program(item="ops")
def abs_at_zero(paddle):
    return _grads(paddle, paddle.abs, [-1.0, 0.0, 2.0])


@program(item="ops")
def relu_at_zero(paddle):
    return _grads(paddle, paddle.nn.functional.relu, [-1.0, 0.0, 2.0])


@program(item="ops")
def clip_at_bounds(paddle):
    return _grads(paddle, lambda x: paddle.clip(x, -1.0, 1.0), [-2.0, -1.0, 0.0, 1.0, 2.0])


@program(item="ops")
def sqrt_gradient(paddle):
    return _grads(paddle, paddle.sqrt, [0.25, 1.0, 4.0])


@program(item="ops")
def pow_scalar_and_tensor_exponent(paddle):
    return _grads(paddle, lambda x, e: paddle.pow(x, e) + x ** 3, [1.0, 2.0], [2.0, 0.5])


@program(item="ops")
def divide_gradient(paddle):
    return _grads(paddle, lambda a, b: a / b, [1.0, 2.0], [4.0, -0.5])


@program(item="ops")
def exp_log_sin_cos_tanh_sigmoid(paddle):
    fn = lambda x: (paddle.exp(x) + paddle.log(x) + paddle.sin(x) + paddle.cos(x)  # noqa: E731
                    + paddle.tanh(x) + paddle.nn.functional.sigmoid(x))
    return _grads(paddle, fn, [0.5, 1.5])


@program(item="ops")
def matmul_gradients(paddle):
    a = np.arange(6, dtype="float32").reshape(2, 3) / 3
    b = np.arange(12, dtype="float32").reshape(3, 4) / 5
    return _grads(paddle, paddle.matmul, a, b)


@program(item="ops")
def matmul_transpose_flags(paddle):
    a = np.arange(6, dtype="float32").reshape(3, 2)
    b = np.arange(6, dtype="float32").reshape(3, 2)
    return _grads(paddle, lambda x, y: paddle.matmul(x, y, transpose_x=True), a, b)


@program(item="ops")
def batched_matmul_broadcast(paddle):
    a = np.arange(12, dtype="float32").reshape(2, 2, 3) / 7
    b = np.arange(6, dtype="float32").reshape(3, 2) / 3
    return _grads(paddle, paddle.matmul, a, b)


@program(item="ops")
def mean_sum_axis_keepdim(paddle):
    fn = lambda x: paddle.mean(x, axis=0, keepdim=True) * paddle.sum(x, axis=1)[0]  # noqa: E731
    return _grads(paddle, fn, [[1.0, 2.0], [3.0, 4.0]])


@program(item="ops")
def reshape_transpose_gradients(paddle):
    fn = lambda x: paddle.transpose(paddle.reshape(x, [3, 2]), [1, 0]) * paddle.to_tensor(  # noqa
        np.arange(6, dtype="float32").reshape(2, 3))
    return _grads(paddle, fn, np.arange(6, dtype="float32").reshape(2, 3))


@program(item="ops")
def concat_split_stack(paddle):
    def fn(a, b):
        c = paddle.concat([a, b * 2], axis=0)
        p, q = paddle.split(c, 2, axis=0)
        return paddle.stack([p, q * q], axis=0)
    return _grads(paddle, fn, [[1.0, 2.0]], [[3.0, 4.0]])


@program(item="ops")
def squeeze_unsqueeze_expand(paddle):
    fn = lambda x: paddle.expand(paddle.unsqueeze(paddle.squeeze(x, 0), 1), [2, 3])  # noqa
    return _grads(paddle, fn, [[1.0, 2.0]])


@program(item="ops")
def gather_repeated_indices(paddle):
    fn = lambda x: paddle.gather(x, paddle.to_tensor([0, 2, 0]))  # noqa: E731
    return _grads(paddle, fn, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])


@program(item="ops")
def index_select_axis1(paddle):
    fn = lambda x: paddle.index_select(x, paddle.to_tensor([1, 1]), axis=1)  # noqa: E731
    return _grads(paddle, fn, [[1.0, 2.0], [3.0, 4.0]])


@program(item="ops")
def slicing_and_indexing_gradients(paddle):
    fn = lambda x: x[0, 1:] * 2 + x[1, ::2]  # noqa: E731
    return _grads(paddle, fn, np.arange(6, dtype="float32").reshape(2, 3))


@program(item="ops")
def where_gradient(paddle):
    fn = lambda a, b: paddle.where(a > b, a * a, b * 3)  # noqa: E731
    return _grads(paddle, fn, [1.0, 5.0, 2.0], [2.0, 1.0, 2.0])


@program(item="ops")
def softmax_log_softmax(paddle):
    F = paddle.nn.functional
    fn = lambda x: F.softmax(x, axis=-1) * paddle.to_tensor([1.0, 2.0, 3.0]) + F.log_softmax(x)
    return _grads(paddle, fn, [[0.1, 0.2, 0.7], [1.0, -1.0, 0.0]])


@program(item="ops")
def gelu_both_forms(paddle):
    F = paddle.nn.functional
    fn = lambda x: F.gelu(x) + F.gelu(x, approximate=True)  # noqa: E731
    return _grads(paddle, fn, [-1.0, 0.0, 0.5, 2.0])


@program(item="ops")
def leaky_relu_silu(paddle):
    F = paddle.nn.functional
    fn = lambda x: F.leaky_relu(x, 0.1) + F.silu(x)  # noqa: E731
    return _grads(paddle, fn, [-1.0, 0.0, 0.5, 2.0])


@program(item="ops")
def logsumexp_and_norm(paddle):
    fn = lambda x: paddle.logsumexp(x, axis=1) + paddle.norm(x, p=2, axis=1)  # noqa: E731
    return _grads(paddle, fn, [[1.0, 2.0, 3.0], [0.5, -0.5, 2.0]])


@program(item="ops")
def var_std(paddle):
    fn = lambda x: paddle.var(x, axis=1) + paddle.std(x)  # noqa: E731
    return _grads(paddle, fn, [[1.0, 2.0, 4.0], [0.5, -0.5, 2.0]])


@program(item="ops")
def cast_round_trip_gradient(paddle):
    fn = lambda x: paddle.cast(paddle.cast(x, "float64") * 2, "float32")  # noqa: E731
    return _grads(paddle, fn, [1.0, 2.0])


@program(item="ops")
def dtype_promotion_float32_times_float64_scalar(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    y = paddle.to_tensor([1.0, 2.0], dtype="float64")
    return {"scalar": x * 2.5, "int_tensor_plus_float": paddle.to_tensor([1, 2]) + 0.5,
            "mixed": attempt_mixed(paddle, x, y)}


def attempt_mixed(paddle, x, y):
    from ..harness import attempt
    return attempt(lambda: x + y)


@program(item="ops")
def floor_divide_and_remainder_ints(paddle):
    a = paddle.to_tensor([7, -7, 9])
    b = paddle.to_tensor([2, 2, -4])
    return {"fd": paddle.floor_divide(a, b), "rem": paddle.remainder(a, b)}


@program(item="ops")
def cumsum_prod_gradient(paddle):
    return _grads(paddle, lambda x: paddle.cumsum(x, axis=0) * paddle.prod(x),
                  [1.0, 2.0, 3.0])


@program(item="ops")
def flatten_tile_flip(paddle):
    fn = lambda x: paddle.flip(paddle.tile(paddle.flatten(x), [2]), [0]) * paddle.arange(  # noqa
        8, dtype="float32")
    return _grads(paddle, fn, [[1.0, 2.0], [3.0, 4.0]])
