"""What a gradient check works on: the function, its inputs and outputs, and flat index maps.

The Jacobian of all outputs w.r.t. all differentiated inputs is one matrix: row r is one element
of one output (outputs concatenated, flattened), column c one element of one input.
"""
import numpy as np

from ...autograd import grad_mode
from ...errors import OpArgumentError
from ...tensor import Tensor


def to_numpy(a):
    """A host NumPy copy-or-view of a NumPy or CuPy array."""
    return a if type(a) is np.ndarray else a.get()


def as_tuple(result):
    """(func's result as a tuple, whether it was a single Tensor)."""
    if isinstance(result, Tensor):
        return (result,), True
    if isinstance(result, (tuple, list)):
        return tuple(result), False
    raise OpArgumentError(f"gradcheck: func must return a Tensor or a tuple of Tensors; "
                          f"got: {type(result).__name__}")


def _equal(a, b):
    return (a == b) | (a != a) & (b != b)


def _offsets(sizes):
    slices, start = [], 0
    for size in sizes:
        slices.append(slice(start, start + int(size)))
        start += int(size)
    return slices


def _describe(label, data):
    return f"{label} (shape {list(data.shape)}, {data.dtype})"


class Problem:
    """func(*args) with the differentiated inputs and the float outputs picked out."""

    def __init__(self, func, inputs, input_names=None, output_names=None):
        self.func = func
        self.args = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
        self.diff_pos = [i for i, a in enumerate(self.args)
                         if isinstance(a, Tensor) and a._req and a.array.dtype.kind == "f"]
        if not self.diff_pos:
            raise OpArgumentError("gradcheck: no input to differentiate; expected: at least one "
                                  "float Tensor input with stop_gradient=False; got: "
                                  f"{[type(a).__name__ for a in self.args]}")
        self.diff = [self.args[i] for i in self.diff_pos]
        before = [t.array.copy() for t in self.diff]
        with grad_mode.enable_grad():
            result = func(*self.args)
        # (position in diff, elements changed) for inputs func wrote into
        self.written = [(j, int((~_equal(t.array, b)).sum()))
                        for j, (t, b) in enumerate(zip(self.diff, before))
                        if not bool(_equal(t.array, b).all())]
        outs, self.single = as_tuple(result)
        self.out_pos = [i for i, o in enumerate(outs)
                        if isinstance(o, Tensor) and o.array.dtype.kind == "f"]
        if not self.out_pos:
            raise OpArgumentError("gradcheck: func returned no float Tensor; expected: a float "
                                  "Tensor or a tuple holding some")
        self.outputs = [outs[i] for i in self.out_pos]
        self.cols = _offsets([t.array.size for t in self.diff])
        self.rows = _offsets([o.array.size for o in self.outputs])
        self.n_cols = self.cols[-1].stop
        self.n_rows = self.rows[-1].stop
        names = input_names or [f"inputs[{i}]" for i in range(len(self.args))]
        out_names = output_names or (["output"] if self.single else
                                     [f"outputs[{i}]" for i in range(len(outs))])
        self.input_names = [names[i] for i in self.diff_pos]
        self.output_names = [out_names[i] for i in self.out_pos]

    # labels are only read by reports: built on demand
    @property
    def input_labels(self):
        return [_describe(n, t.array) for n, t in zip(self.input_names, self.diff)]

    @property
    def output_labels(self):
        return [_describe(n, o.array) for n, o in zip(self.output_names, self.outputs)]

    def pick_outputs(self, result):
        """The checked outputs of another call of func (same positions)."""
        outs, _ = as_tuple(result)
        try:
            picked = [outs[i] for i in self.out_pos]
        except IndexError:
            picked = None
        if picked is None or any(tuple(p.array.shape) != tuple(o.array.shape)
                                 for p, o in zip(picked, self.outputs)):
            raise OpArgumentError("gradcheck: func returned outputs of other shapes when called "
                                  "again; expected: the same outputs for perturbed inputs; got: "
                                  f"{[list(getattr(o, 'shape', [])) for o in outs]}")
        return picked

    def element(self, k, j, flat_row, flat_col):
        """Index tuples into output k and input j for a flat element pair of their block."""
        out_idx = np.unravel_index(flat_row, self.outputs[k].array.shape)
        in_idx = np.unravel_index(flat_col, self.diff[j].array.shape)
        return tuple(int(i) for i in out_idx), tuple(int(i) for i in in_idx)

    def block_dtypes(self, k, j):
        """The dtypes the analytic gradient of block (output k, input j) went through."""
        return self.outputs[k].array.dtype, self.diff[j].array.dtype

    def input_values(self, j):
        """Input j as a flat float64 NumPy array (for hints about where errors sit)."""
        return to_numpy(self.diff[j].array).astype(np.float64).ravel()
