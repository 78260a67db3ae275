"""opsdk ops as Paddle PyLayers: forward and gradients (second order) agree with opsdk."""
import pytest

import opsdk

from .pack import FIRST_PARTY

paddle = pytest.importorskip("paddle", reason="paddle is not installed (pip install opsdk[paddle])")
pytestmark = pytest.mark.paddle

from opsdk.interop.verify import render, verify  # noqa: E402


@pytest.mark.parametrize("name", FIRST_PARTY + ("interoptest.masked_scale",))
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
