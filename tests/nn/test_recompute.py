"""recompute: same gradients as without it, lower peak memory, RNG replay."""
import tracemalloc

import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import BackwardError, InplaceModifiedError, OpsdkWarning
from opsdk.nn import Dropout, GELU, Linear, Sequential, Tanh


def _block(width=16, p=0.0):
    return Sequential(Linear(width, width), Tanh(), Dropout(p), Linear(width, width), GELU())


def _grads(blocks, x, use_recompute, seed=None):
    for b in blocks:
        b.clear_gradients(set_to_zero=False)
    x.clear_gradient(set_to_zero=False)
    if seed is not None:
        paddle.seed(seed)
    h = x
    for b in blocks:
        h = paddle.recompute(b, h) if use_recompute else b(h)
    (h * h).mean().backward()
    return [p.grad.numpy().copy() for b in blocks for p in b.parameters()] + [x.grad.numpy()]


def _input(shape=(8, 16)):
    x = paddle.randn(list(shape), dtype="float64")
    x.stop_gradient = False
    return x


def test_recompute_gives_identical_parameter_and_input_gradients():
    paddle.seed(1)
    blocks = [_block().to(dtype="float64") for _ in range(3)]
    x = _input()
    for a, b in zip(_grads(blocks, x, False), _grads(blocks, x, True)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


def test_recompute_replays_the_random_state_so_dropout_masks_match():
    paddle.seed(2)
    blocks = [_block(p=0.5).to(dtype="float64") for _ in range(2)]
    x = _input()
    plain = _grads(blocks, x, False, seed=7)
    again = _grads(blocks, x, True, seed=7)
    for a, b in zip(plain, again):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


def _peak_bytes(blocks, x, use_recompute):
    """Peak bytes allocated by one forward + backward, gradient buffers already allocated.

    The gradients are not cleared: they accumulate into the buffers the warm-up allocated
    (after clear_gradients the next backward gives each parameter a new gradient, as Paddle
    does, which would count the gradients themselves in the peak)."""
    tracemalloc.start()
    h = x
    for b in blocks:
        h = paddle.recompute(b, h) if use_recompute else b(h)
    (h * h).mean().backward()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def test_recompute_lowers_the_peak_memory_of_a_deep_chain():
    paddle.seed(3)
    blocks = [Sequential(Linear(128, 128), Tanh(), Linear(128, 128), Tanh(), Linear(128, 128),
                         paddle.nn.ReLU()) for _ in range(24)]
    x = paddle.randn([128, 128])
    x.stop_gradient = False
    _peak_bytes(blocks, x, False)       # warm up: allocates the gradient buffers
    plain = _peak_bytes(blocks, x, False)
    ckpt = _peak_bytes(blocks, x, True)
    # each block keeps several activations without recompute; with it, only the 24 block
    # inputs plus one block's activations during its recomputation
    assert ckpt < 0.5 * plain, (ckpt, plain)


def test_recompute_returns_a_tuple_for_a_tuple_function():
    lin = Linear(4, 4)
    x = paddle.randn([2, 4])
    x.stop_gradient = False
    a, b = paddle.recompute(lambda t: (lin(t), t * 2.0), x)
    (a.sum() + b.sum()).backward()
    assert lin.weight.grad is not None
    want = np.broadcast_to(lin.weight.numpy().sum(axis=1) + 2.0, (2, 4))
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-5)


def test_recompute_passes_keyword_arguments_to_the_function():
    x = paddle.ones([2], stop_gradient=False)
    y = paddle.recompute(lambda t, scale=1.0: t * scale, x, scale=3.0)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_recompute_without_an_input_needing_grad_warns_and_runs_normally():
    lin = Linear(2, 2)
    with pytest.warns(OpsdkWarning, match="no input of the block needs a gradient"):
        y = paddle.recompute(lin, paddle.ones([1, 2]))
    y.sum().backward()
    assert lin.weight.grad is not None


def test_recompute_under_no_grad_just_runs_the_function():
    x = paddle.ones([2], stop_gradient=False)
    with paddle.no_grad():
        y = paddle.recompute(lambda t: t * 2.0, x)
    assert y.stop_gradient


def test_recompute_refuses_double_backward_naming_recompute():
    x = paddle.ones([2], stop_gradient=False)
    y = paddle.recompute(lambda t: t * t, x)
    with pytest.raises(BackwardError, match="recompute.*create_graph"):
        paddle.grad(y.sum(), x, create_graph=True)


def test_recompute_detects_an_input_modified_in_place_before_backward():
    x = paddle.ones([2], stop_gradient=False)
    h = x * 1.0
    y = paddle.recompute(lambda t: t * t, h)
    with paddle.no_grad():
        h += 1.0
    with pytest.raises(InplaceModifiedError):
        y.sum().backward()


def test_recompute_sequential_matches_the_plain_sequential():
    paddle.seed(4)
    model = Sequential(*[Linear(6, 6) for _ in range(4)]).to(dtype="float64")
    x = _input((3, 6))
    model(x).sum().backward()
    plain = [p.grad.numpy().copy() for p in model.parameters()]
    model.clear_gradients(set_to_zero=False)
    from opsdk.nn import recompute_sequential
    recompute_sequential({"segments": 2}, model, x).sum().backward()
    for a, p in zip(plain, model.parameters()):
        np.testing.assert_allclose(a, p.grad.numpy(), rtol=1e-12)
