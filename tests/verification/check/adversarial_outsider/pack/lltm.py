"""LLTM, the recurrent cell of PyTorch's C++ extension tutorial, with numpy kernels."""
import numpy

import opsdk
from opsdk import TensorSpec

from ._arrays import array_of, tensor_of

F = ("float32", "float64")


def _sigmoid(z):
    return 1 / (1 + numpy.exp(-z))


def _elu(z):
    return numpy.where(z > 0, z, numpy.expm1(numpy.minimum(z, 0)))


def _d_elu(z):
    return numpy.where(z > 0, 1.0, numpy.exp(numpy.minimum(z, 0))).astype(z.dtype)


def lltm_forward(x, w, b, old_h, old_cell):
    X = numpy.concatenate([old_h, x], axis=1)
    gate_weights = X @ w.T + b
    g0, g1, g2 = numpy.split(gate_weights, 3, axis=1)
    input_gate, output_gate, candidate = _sigmoid(g0), _sigmoid(g1), _elu(g2)
    new_cell = old_cell + candidate * input_gate
    new_h = numpy.tanh(new_cell) * output_gate
    return new_h, new_cell, (X, gate_weights, input_gate, output_gate, candidate)


def lltm_backward(grad_h, grad_cell, new_cell, w, saved, old_cell_bug=False):
    X, gate_weights, input_gate, output_gate, candidate = saved
    state = new_cell.shape[1]
    t = numpy.tanh(new_cell)
    d_output_gate = t * grad_h
    d_new_cell = (1 - t * t) * output_gate * grad_h + grad_cell
    d_old_cell = d_new_cell * input_gate if old_cell_bug else d_new_cell
    d_candidate = input_gate * d_new_cell
    d_input_gate = candidate * d_new_cell
    g0, g1, g2 = numpy.split(gate_weights, 3, axis=1)
    d_input_gate = d_input_gate * _sigmoid(g0) * (1 - _sigmoid(g0))
    d_output_gate = d_output_gate * _sigmoid(g1) * (1 - _sigmoid(g1))
    d_candidate = d_candidate * _d_elu(g2)
    d_gates = numpy.concatenate([d_input_gate, d_output_gate, d_candidate], axis=1)
    d_w = d_gates.T @ X
    d_b = d_gates.sum(axis=0)
    d_X = d_gates @ w
    return d_X[:, state:], d_w, d_b, d_X[:, :state], d_old_cell


def _lltm_function(name, old_cell_bug):
    def forward(ctx, x, w, b, old_h, old_cell):
        arrays = [array_of(t) for t in (x, w, b, old_h, old_cell)]
        new_h, new_cell, saved = lltm_forward(*arrays)
        ctx.arrays = (new_cell, arrays[1], saved)
        return tensor_of(new_h), tensor_of(new_cell)

    def backward(ctx, grad_h, grad_cell):
        new_cell, w, saved = ctx.arrays
        grads = lltm_backward(array_of(grad_h), array_of(grad_cell), new_cell, w, saved,
                              old_cell_bug=old_cell_bug)
        return tuple(tensor_of(g.astype(new_cell.dtype, copy=False)) for g in grads)

    return type(name, (opsdk.Function,), {
        "forward": staticmethod(forward), "backward": staticmethod(backward),
        "__doc__": "LLTM cell: (input, weights, bias, old_h, old_cell) -> (new_h, new_cell)."})


Lltm = _lltm_function("Lltm", old_cell_bug=False)
LltmOldCell = _lltm_function("LltmOldCell", old_cell_bug=True)

_INPUTS = [TensorSpec(shape=(3, 4), domain=(-1.0, 1.0)),      # input: batch 3, features 4
           TensorSpec(shape=(6, 6), domain=(-0.7, 0.7)),      # weights: 3 * state 2, features + state
           TensorSpec(shape=(6,), domain=(-0.5, 0.5)),        # bias
           TensorSpec(shape=(3, 2), domain=(-1.0, 1.0)),      # old_h
           TensorSpec(shape=(3, 2), domain=(-1.0, 1.0))]      # old_cell


def register(register):
    register(Lltm, name="lltm", inputs=_INPUTS, dtypes=F)
    register(LltmOldCell, name="lltm_old_cell", inputs=_INPUTS, dtypes=F)
