"""chamfer: an op with several inputs and outputs, the cell update of LLTM (an LSTM-like layer).

    i = sigmoid(gate_i), o = sigmoid(gate_o), c = tanh(gate_c)      (the gates)
    new_cell = old_cell + i * c,   new_h = tanh(new_cell) * o

A kernel takes several arrays and returns a tuple: ``forward(gate_i, gate_o, gate_c, old_cell)
-> (new_h, new_cell)`` and ``backward(gate_i, gate_o, gate_c, old_cell, d_h, d_cell) -> (d_gate_i,
d_gate_o, d_gate_c, d_old_cell)``, each in python, C (chamfer.c), CUDA (chamfer.cu). Array work that is not
elementwise (LLTM's ``gates = concat(old_h, x) @ W + b``) belongs outside the kernels, in opsdk ops
around the Function, where the engine differentiates it: see ``lltm_step`` below. ``ctx`` keeps
only what backward needs (the inputs; anything else is recomputed from them).
"""
import opsdk
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable
from opsdk.errors import OpArgumentError
from opsdk.kernels import CSource, CudaSource, Kernel, array_of, tensor_of
from opsdk.kernels.elementwise import maths_of

NAMES = ("gate_i", "gate_o", "gate_c", "old_cell")
forward = Kernel("realops.chamfer_forward")
backward = Kernel("realops.chamfer_backward")


@forward.python
def _(gate_i, gate_o, gate_c, old_cell):
    m = maths_of(gate_i)
    new_cell = old_cell + m.sigmoid(gate_i) * m.tanh(gate_c)
    return m.tanh(new_cell) * m.sigmoid(gate_o), new_cell


@backward.python
def _(gate_i, gate_o, gate_c, old_cell, d_h, d_cell):
    m = maths_of(gate_i)
    i, o, c = m.sigmoid(gate_i), m.sigmoid(gate_o), m.tanh(gate_c)
    t = m.tanh(old_cell + i * c)
    d_total = d_cell + d_h * o * (1 - t * t)  # new_cell reaches the loss directly and through new_h
    return d_total * c * i * (1 - i), d_h * t * o * (1 - o), d_total * i * (1 - c * c), d_total


# C: chamfer_forward_f32 / _f64 and chamfer_backward_f32 / _f64 in chamfer.c, called as declared there
_C = CSource("chamfer.c", openmp=True, extra_compile_args=("-O3", "-fno-math-errno", "-fno-trapping-math"))
forward.c(_C, "chamfer_forward")
backward.c(_C, "chamfer_backward")
_CUDA = CudaSource("chamfer.cu")
forward.cuda(_CUDA, "chamfer_forward")
backward.cuda(_CUDA, "chamfer_backward")


class Chamfer(opsdk.Function):
    """The LLTM cell update: (new_h, new_cell) from the gates' pre-activations and the old cell.

    Example:
        >>> gates = [opsdk.randn([2, 8], dtype="float64") for _ in range(4)]
        >>> new_h, new_cell = Chamfer.apply(*gates)
    """

    _opsdk_qualname = "realops.chamfer"

    @staticmethod
    def forward(ctx, gate_i, gate_o, gate_c, old_cell):
        tensors = (gate_i, gate_o, gate_c, old_cell)
        for name, t in zip(NAMES[1:], tensors[1:]):  # elementwise kernels: one shape, one dtype
            if t.shape != gate_i.shape or t.dtype != gate_i.dtype:
                raise OpArgumentError(f"realops.chamfer: argument '{name}' must match 'gate_i'; expected: "
                                      f"{gate_i.shape} {gate_i.dtype}; got: {t.shape} {t.dtype}")
        ctx.save_for_backward(*tensors)
        new_h, new_cell = forward(*(array_of(t) for t in tensors))
        return tensor_of(new_h), tensor_of(new_cell)

    @staticmethod
    @once_differentiable  # a raw kernel: a second order through it is refused, naming the op
    def backward(ctx, d_h, d_cell):
        saved = [array_of(t) for t in ctx.saved_tensor()]
        like = saved[0]
        grads = [array_of(g).astype(like.dtype, copy=False) for g in (d_h, d_cell)]
        return tuple(tensor_of(g) for g in backward(*saved, *grads))


def lltm_step(x, old_h, old_cell, weight, bias):
    """One LLTM step: the gates' matmul in opsdk ops (differentiated by the engine), then the cell.

    weight is [features + state, 3 * state], bias [3 * state]; returns (new_h, new_cell).
    """
    gates = opsdk.matmul(opsdk.concat([old_h, x], axis=1), weight) + bias
    gate_i, gate_o, gate_c = opsdk.split(gates, 3, axis=1)
    return Chamfer.apply(gate_i, gate_o, gate_c, old_cell)


def reference(gate_i, gate_o, gate_c, old_cell):
    """The cell in core opsdk ops: `opsdk check` compares the kernels' outputs and gradients with its autograd."""
    new_cell = old_cell + opsdk.sigmoid(gate_i) * opsdk.tanh(gate_c)
    return opsdk.tanh(new_cell) * opsdk.sigmoid(gate_o), new_cell


def register_op(register):
    """Register chamfer: its name, and the inputs `opsdk check` and the pack's tests verify it on."""
    register(Chamfer, name="chamfer",
             inputs=[TensorSpec(shape=(3, 8), domain=(-2.0, 2.0)) for _ in NAMES],
             dtypes=("float32", "float64"), kernels=(forward, backward), reference=reference)
