"""Two multi ops the tests share: LLTM's cell (four inputs, two outputs, backward reading an
output) and a pair with an attribute (two inputs, two outputs), each with python, C and CUDA."""
import opsdk
from opsdk.kernels.multi import Multi


def cell_forward(m, gate_i, gate_o, gate_c, old_cell):
    new_cell = old_cell + m.sigmoid(gate_i) * m.tanh(gate_c)
    return m.tanh(new_cell) * m.sigmoid(gate_o), new_cell


def cell_backward(m, gate_i, gate_o, gate_c, new_cell, dnew_h, dnew_cell):
    i, o, c, t = m.sigmoid(gate_i), m.sigmoid(gate_o), m.tanh(gate_c), m.tanh(new_cell)
    d = dnew_cell + dnew_h * o * (1 - t * t)
    return d * c * i * (1 - i), dnew_h * t * o * (1 - o), d * i * (1 - c * c), d


CELL = Multi("tests.cell", cell_forward, cell_backward, outputs=("new_h", "new_cell")).c_bodies(
    forward="new_cell = old_cell + sigmoid(gate_i) * tanh(gate_c); new_h = tanh(new_cell) * sigmoid(gate_o)",
    backward="""
        T i = sigmoid(gate_i); T o = sigmoid(gate_o); T c = tanh(gate_c); T t = tanh(new_cell)
        T d = dnew_cell + dnew_h * o * (1 - t * t)   # through new_h and directly
        dgate_i = d * c * i * (1 - i); dgate_o = dnew_h * t * o * (1 - o)
        dgate_c = d * i * (1 - c * c); dold_cell = d
    """)


def pair_forward(m, a, b, *, alpha):
    return a + alpha * b, a * b


def pair_backward(m, a, b, dplus, dprod, *, alpha):
    return dplus + dprod * b, alpha * dplus + dprod * a


PAIR = Multi("tests.pair", pair_forward, pair_backward, outputs=("plus", "prod")).c_bodies(
    forward="plus = a + alpha * b\nprod = a * b", backward="da = dplus + dprod * b\ndb = alpha * dplus + dprod * a")


class Cell(opsdk.Function):
    @staticmethod
    def forward(ctx, gate_i, gate_o, gate_c, old_cell):
        return CELL.forward(ctx, gate_i, gate_o, gate_c, old_cell)

    @staticmethod
    def backward(ctx, dnew_h, dnew_cell):
        return CELL.backward(ctx, dnew_h, dnew_cell)


class Pair(opsdk.Function):
    @staticmethod
    def forward(ctx, a, b, alpha=0.5):
        return PAIR.forward(ctx, a, b, alpha=alpha)

    @staticmethod
    def backward(ctx, dplus, dprod):
        return PAIR.backward(ctx, dplus, dprod)
