"""opsdk ops as Paddle PyLayers: forward and gradients (second order) agree with opsdk."""
import pytest

import opsdk

from .pack import per_op

paddle = pytest.importorskip("paddle", reason="paddle is not installed (pip install opsdk[paddle])")
pytestmark = pytest.mark.paddle

from opsdk.verification.frameworks import render, verify  # noqa: E402


@pytest.mark.parametrize("name", per_op())
def test_op_agrees_with_opsdk_forward_gradients_and_a_numeric_gradient(name):
    outcomes = verify("paddle", [opsdk.ops.get(name)])
    assert {"forward", "gradients", "second order", "numeric gradient"} <= {o.check for o in outcomes}
    assert all(o.passed for o in outcomes), render(outcomes, quiet=True)


def test_integer_labels_get_no_gradient_and_logits_do():
    import numpy as np

    ce = opsdk.interop.paddle.op("nn.cross_entropy")
    logits = paddle.to_tensor(np.random.default_rng(0).standard_normal((4, 3)))
    logits.stop_gradient = False
    labels = paddle.to_tensor(np.array([0, 2, 1, 0]))
    ce(logits, labels).backward()
    assert logits.grad is not None and labels.grad is None


def test_int64_output_is_not_differentiable():
    import numpy as np

    f = opsdk.interop.paddle.op("interoptest.masked_scale")
    x = paddle.to_tensor(np.linspace(-1, 1, 6))
    x.stop_gradient = False
    y, count = f(x, paddle.to_tensor(np.array([True, False] * 3)), scale=3.0)
    assert int(count) == 3 and count.stop_gradient and not y.stop_gradient


def _swish_pair(seed=0):
    """(x for the exported op, an equal x for the same maths in Paddle ops, the two functions)."""
    import numpy as np

    swish = opsdk.interop.paddle.op("example.swish")
    data = np.random.default_rng(seed).standard_normal(8)
    x, ref = paddle.to_tensor(data), paddle.to_tensor(data)
    x.stop_gradient = ref.stop_gradient = False
    return x, ref, (lambda t: swish(t, beta=1.5)), (lambda t: t * paddle.nn.functional.sigmoid(1.5 * t))


def test_grad_of_sum_with_create_graph_then_a_second_grad_gives_the_second_derivative():
    x, ref, f, g = _swish_pair()
    got, want = [], []
    for fn, t, out in ((f, x, got), (g, ref, want)):
        (first,) = paddle.grad(fn(t).sum(), t, create_graph=True)   # implicit all-ones seed
        (second,) = paddle.grad(first.sum(), t, create_graph=True)
        (third,) = paddle.grad(second.sum(), t)
        out.extend(v.numpy() for v in (first, second, third))
    for a, b in zip(got, want):
        assert a.shape == b.shape
        assert abs(a - b).max() < 1e-12


def test_backward_after_a_create_graph_grad_of_sum_accumulates_the_second_derivative():
    x, ref, f, g = _swish_pair(1)
    for fn, t in ((f, x), (g, ref)):
        (first,) = paddle.grad(fn(t).sum(), t, create_graph=True)
        first.sum().backward()
    assert abs(x.grad.numpy() - ref.grad.numpy()).max() < 1e-12


def test_grad_for_one_input_while_another_needs_a_gradient_too():
    import numpy as np

    ln = opsdk.interop.paddle.op("nn.layer_norm")
    rng = np.random.default_rng(2)
    x, w, b = (paddle.to_tensor(rng.standard_normal(s)) for s in ((4, 6), (6,), (6,)))
    for t in (x, w, b):
        t.stop_gradient = False
    loss = (ln(x, w, b, normalized_shape=[6]) ** 2).sum()
    ref = (paddle.nn.functional.layer_norm(x, [6], w, b) ** 2).sum()
    (gw,) = paddle.grad(loss, w, retain_graph=True)          # x and b need gradients too
    (rw,) = paddle.grad(ref, w)
    assert abs(gw.numpy() - rw.numpy()).max() < 1e-10
    assert x.grad is None and w.grad is None and b.grad is None  # paddle.grad leaves .grad alone


def test_gradient_of_a_later_input_when_the_first_needs_none():
    import numpy as np

    f = opsdk.interop.paddle.op("interoptest.masked_scale")
    rng = np.random.default_rng(3)
    x = paddle.to_tensor(rng.standard_normal((3, 4)))           # stop_gradient=True
    mask = paddle.to_tensor(rng.uniform(size=(3, 4)) > 0.5)
    offset = paddle.to_tensor(rng.standard_normal(5))
    offset.stop_gradient = False
    y, _ = f(x, mask, offset, scale=0.5, idx=[1, 3])
    (g,) = paddle.grad(y.sum(), offset)
    np.testing.assert_array_equal(g.numpy(), [0.0, 12.0, 0.0, 12.0, 0.0])
