"""softmax and log_softmax over the last axis of [rows, n], as ``Rows`` ops: the maths once in Python
(the python kernels) and once as the statements of one row (the SDK writes the C and CUDA kernels).

``SOFTMAX``: ``nn.softmax_forward(x) -> y``, ``nn.softmax_backward(y, dy) -> dx``; ``LOG_SOFTMAX``
the same for log_softmax. Backward reads the forward's output, never x. The row's max makes
every exp's argument <= 0 (no overflow), which the statements say as ``exp(-abs(...))`` (the
SDK's float32 exp for arguments that are never positive: no overflow side); log_softmax's
backward reads y <= 0 from forward and writes exp(-abs(y)) in both languages, so the python
kernel computes the same as the C and CUDA ones on any input (opsdk check feeds others too).
A row holding NaN has a NaN max, so NaN everywhere.
``axis=True``: the kernels also take x viewed as [outer, n, inner] for another axis, in place.
"""
from opsdk.kernels.rows import Rows


def _softmax(m, x):
    e = m.exp(x - m.row_max(x))
    return e / m.row_sum(e)


def _softmax_grad(m, y, dy):
    return y * (dy - m.row_sum(dy * y))


SOFTMAX = Rows("nn.softmax", _softmax, _softmax_grad, axis=True).c_bodies(
    forward="""
        max top = x
        each e = exp(-abs(x - top))           # once: the sum's pass keeps it in y for the last pass
        sum s = e
        T inv = 1 / s
        y = e * inv
    """,
    backward="""
        sum dot = dy * y
        dx = y * (dy - dot)
    """)


def _log_softmax(m, x):
    shifted = x - m.row_max(x)
    return shifted - m.log(m.row_sum(m.exp(shifted)))


def _log_softmax_grad(m, y, dy):
    return dy - m.exp(-m.abs(y)) * m.row_sum(dy)


LOG_SOFTMAX = Rows("nn.log_softmax", _log_softmax, _log_softmax_grad, axis=True).c_bodies(
    forward="""
        max top = x
        sum s = exp(-abs(x - top))
        T ls = log(s)
        y = (x - top) - ls                    # x - top first: large logits stay exact
    """,
    backward="""
        sum s = dy
        dx = dy - exp(-abs(y)) * s
    """)
