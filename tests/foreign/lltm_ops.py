"""The LLTM C++ extension (tests/foreign/lltm_cpp.py) declared as a foreign op: what its author
writes to verify it (``opsdk check --op foreign.lltm_ops:lltm`` from tests/). Importing this
compiles nothing: the extension builds on the op's first call.

BUGS: the same op with each planted C++ backward bug, with the check that must catch it and the
words its report must hold (the cause named).
"""
import torch

import opsdk
from opsdk import TensorSpec

from .lltm_cpp import lltm_function

# batch 3, 3 input features, state size 2: weights [3 * state, state + features]
INPUTS = [TensorSpec(shape=(3, 3)), TensorSpec(shape=(6, 5)), TensorSpec(shape=(1, 6)),
          TensorSpec(shape=(3, 2)), TensorSpec(shape=(3, 2))]


def lltm_reference(input, weights, bias, old_h, old_cell):
    """The tutorial's pure-Python LLTM, in torch ops."""
    gates = torch.addmm(bias, torch.cat([old_h, input], dim=1), weights.t()).chunk(3, dim=1)
    new_cell = old_cell + torch.nn.functional.elu(gates[2]) * torch.sigmoid(gates[0])
    return torch.tanh(new_cell) * torch.sigmoid(gates[1]), new_cell


def declare(bug=None):
    return opsdk.foreign_op(lltm_function(bug).apply, framework="torch",
                            name="cpp.lltm" if bug is None else f"cpp.lltm_{bug}",
                            inputs=INPUTS, dtypes=["float64"], reference=lltm_reference,
                            devices=("cpu",))  # the tutorial's extension has a CPU kernel only


lltm = declare()

BUGS = [
    (declare("tanh_term"), "gradcheck", "w.r.t. old_cell"),
    (declare("grad_cell_dropped"), "gradcheck", "output 1"),
    # torch's version counter names it when the retained graph is used again (the Jacobian's
    # next row); opsdk's isolation check does not look at outputs after backward
    (declare("saved_written"), "gradcheck", "modified by an inplace operation"),
    (declare("bias_mean"), "gradcheck", "w.r.t. bias"),
]

# opsdk check --op foreign.lltm_ops:BUGGY (from tests/) exits 1
BUGGY = [op for op, _, _ in BUGS]
