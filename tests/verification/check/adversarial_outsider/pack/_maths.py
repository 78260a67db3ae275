"""Array maths several of the pack's ops share (their bugs are elsewhere)."""
import numpy


def softplus(a):
    """log(1 + exp(a)) that never overflows."""
    return numpy.maximum(a, 0) + numpy.log1p(numpy.exp(-numpy.abs(a)))


def sigmoid(a):
    """1 / (1 + exp(-a)); exp only ever sees -|a|."""
    e = numpy.exp(-numpy.abs(a))
    return numpy.where(a >= 0, 1 / (1 + e), e / (1 + e))


def softmax(x):
    """Softmax over the last axis."""
    e = numpy.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def softmax_grad(y, dy):
    """The gradient of softmax over the last axis, from its output."""
    return y * (dy - (y * dy).sum(axis=-1, keepdims=True))


def scatter_rows(idx, g, rows):
    """The gradient of w[idx] for w of ``rows`` rows: g summed into the rows idx picked."""
    dw = numpy.zeros((rows,) + g.shape[1:], dtype=g.dtype)
    numpy.add.at(dw, idx, g)
    return dw


def row_max(a):
    """(max, argmax) over the last axis (the first maximum at ties)."""
    arg = a.argmax(axis=-1)
    return numpy.take_along_axis(a, arg[..., None], axis=-1)[..., 0], arg


def to_row_max(shape, arg, g):
    """The gradient of row_max: g at the maximum of each row, 0 elsewhere."""
    dx = numpy.zeros(shape, dtype=g.dtype)
    numpy.put_along_axis(dx, arg[..., None], g[..., None], axis=-1)
    return dx
