"""Recurrent cells (Paddle's paddle.nn.RNNCellBase, SimpleRNNCell, LSTMCell, GRUCell): one time
step, ``cell(inputs, states) -> (outputs, new_states)``, built from matmul, split and the
activations so that the engine differentiates them (to any order)."""
import math

from ..dtypes import get_default_dtype
from ..errors import OpArgumentError, SubclassMemberError
from ..functional.creation import full
from ..functional.elementwise import sigmoid, tanh
from ..functional.linalg import matmul
from ..functional.shape import split
from .functional.activation import relu
from .initializer import Constant, Uniform
from .layer import Layer
from .rnn_structure import flatten, map_structure


class RNNCellBase(Layer):
    """The base class of cells: a subclass defines ``forward(inputs, states)`` and
    ``state_shape`` (a shape, or a nested structure of shapes, without the batch axis).

    Example:
        >>> cell = opsdk.nn.GRUCell(3, 4)
        >>> cell.get_initial_states(opsdk.ones([2, 3])).shape
        paddle.Size([2, 4])
    """

    def get_initial_states(self, batch_ref, shape=None, dtype=None, init_value=0.0,
                           batch_dim_idx=0):
        """States filled with init_value, shaped [batch] + each shape of ``shape`` (the cell's
        ``state_shape`` by default), the batch size read from ``batch_ref`` (a Tensor or a
        nested structure of them, the first one counts) at axis ``batch_dim_idx``.

        Args:
            batch_ref: the Tensor whose axis ``batch_dim_idx`` is the batch.
            shape: a shape or nested shapes; a leading -1 stands for the batch axis.
            dtype: a dtype or nested dtypes; the cell's ``state_dtype`` or the default dtype.
            init_value: the fill value.
            batch_dim_idx: the batch axis of ``batch_ref``.

        Returns:
            A Tensor, or the nested structure of ``shape`` with Tensors for shapes.
        """
        ref = flatten(batch_ref)[0]
        shapes = self.state_shape if shape is None else shape
        try:
            dtypes = self.state_dtype if dtype is None else dtype
        except NotImplementedError:
            dtypes = get_default_dtype()
        batch = int(ref.shape[batch_dim_idx])

        def with_batch(s):
            s = list(s)
            return [batch] + (s[1:] if s and s[0] == -1 else s)

        filled = map_structure(with_batch, shapes, leaf=_is_shape)
        flat_dtypes = flatten(dtypes)
        if len(flat_dtypes) == 1:
            return map_structure(lambda s: full(s, init_value, dtype=flat_dtypes[0]), filled,
                                 leaf=_is_shape)
        return map_structure(lambda s, d: full(s, init_value, dtype=d), filled, dtypes,
                             leaf=_is_shape)

    @property
    def state_shape(self):
        """The shape(s) of the state without the batch axis; a cell must define it."""
        raise SubclassMemberError("Please add implementation for `state_shape` in the used "
                                  "cell.")

    @property
    def state_dtype(self):
        """The dtype(s) of the state; the default dtype unless a cell defines it."""
        raise SubclassMemberError("Please add implementation for `state_dtype` in the used "
                                  "cell.")


def _is_shape(s):
    """A shape (a list or tuple of ints) is a leaf of a structure of shapes."""
    return isinstance(s, (list, tuple)) and all(isinstance(d, int) for d in s)


def _check_hidden(cell, hidden_size):
    if hidden_size <= 0:
        raise OpArgumentError(f"hidden_size of {type(cell).__name__} must be greater than 0, "
                              f"but now equals to {hidden_size}")


def _weights(cell, gates, input_size, hidden_size, attrs, hh_cols=None):
    """weight_ih [gates*hidden, input], weight_hh [gates*hidden, hh_cols], bias_ih, bias_hh
    [gates*hidden], in this order, uniform in +-1/sqrt(hidden); an attr of False gives a frozen
    constant one (ones for weights, zeros for biases), as Paddle."""
    _check_hidden(cell, hidden_size)
    cell._dtype = get_default_dtype()
    std = 1.0 / math.sqrt(hidden_size)
    rows = gates * hidden_size
    specs = (("weight_ih", (rows, input_size), False), ("weight_hh", (rows, hh_cols or hidden_size),
             False), ("bias_ih", (rows,), True), ("bias_hh", (rows,), True))
    for (name, shape, is_bias), attr in zip(specs, attrs):
        if attr is False:
            p = cell.create_parameter(list(shape), None, is_bias=is_bias,
                                      default_initializer=Constant(0.0 if is_bias else 1.0))
            p.stop_gradient = True
        else:
            p = cell.create_parameter(list(shape), attr, is_bias=is_bias,
                                      default_initializer=Uniform(-std, std))
        setattr(cell, name, p)
    cell.input_size, cell.hidden_size = input_size, hidden_size


def _affine(x, weight, bias):
    """x @ weight.T (+ bias)."""
    y = matmul(x, weight, transpose_y=True)
    return y if bias is None else y + bias


class SimpleRNNCell(RNNCellBase):
    """h' = act(x @ weight_ih.T + bias_ih + h @ weight_hh.T + bias_hh), act tanh or relu.

    Args:
        input_size, hidden_size: the sizes of x's last axis and of the state.
        activation: 'tanh' (default) or 'relu'.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr: ParamAttr or initializer
            (uniform in +-1/sqrt(hidden_size) by default); False for a frozen constant.

    Returns (of a call ``cell(inputs, states=None)``):
        (h', h'), each [batch, hidden_size].

    Example:
        >>> out, h = opsdk.nn.SimpleRNNCell(3, 4)(opsdk.ones([2, 3]))
        >>> out.shape
        paddle.Size([2, 4])
    """

    def __init__(self, input_size, hidden_size, activation="tanh", weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__()
        _weights(self, 1, input_size, hidden_size,
                 (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr))
        if activation not in ("tanh", "relu"):
            raise OpArgumentError(f"activation for SimpleRNNCell should be tanh or relu, but "
                                  f"get {activation}")
        self.activation = activation
        self._activation_fn = tanh if activation == "tanh" else relu

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        h = self._activation_fn(_affine(inputs, self.weight_ih, self.bias_ih)
                                + _affine(states, self.weight_hh, self.bias_hh))
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def extra_repr(self):
        act = "" if self.activation == "tanh" else f", activation={self.activation}"
        return f"{self.input_size}, {self.hidden_size}{act}"


class LSTMCell(RNNCellBase):
    """The LSTM step with Paddle's gate order i, f, g, o:
    gates = x @ weight_ih.T + bias_ih + h @ weight_hh.T + bias_hh;
    c' = sigmoid(f) * c + sigmoid(i) * tanh(g); h' = sigmoid(o) * tanh(c'), then
    h' = h' @ weight_ho when proj_size > 0.

    Args:
        input_size, hidden_size: the sizes of x's last axis and of the cell state.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr: ParamAttr or initializer
            (uniform in +-1/sqrt(hidden_size) by default); False for a frozen constant.
        proj_size: 0, or the size h' is projected to (weight_ho [hidden_size, proj_size]).

    Returns (of a call ``cell(inputs, states=None)``, states = (h, c)):
        (h', (h', c')).

    Example:
        >>> out, (h, c) = opsdk.nn.LSTMCell(3, 4)(opsdk.ones([2, 3]))
        >>> c.shape
        paddle.Size([2, 4])
    """

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0, name=None):
        super().__init__()
        _check_hidden(self, hidden_size)
        if proj_size < 0:
            # Paddle's message names hidden_size's value
            raise OpArgumentError(f"proj_size of LSTMCell must be greater than 0, but now "
                                  f"equals to {hidden_size}")
        if proj_size >= hidden_size:
            raise OpArgumentError("proj_size must be smaller than hidden_size")
        _weights(self, 4, input_size, hidden_size,
                 (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr), proj_size)
        self.proj_size = proj_size
        if proj_size > 0:
            std = 1.0 / math.sqrt(hidden_size)
            # Paddle creates the projection with weight_hh_attr (False: no projection weight)
            self.weight_ho = None if weight_hh_attr is False else self.create_parameter(
                [hidden_size, proj_size], weight_hh_attr, default_initializer=Uniform(-std, std))

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        pre_hidden, pre_cell = states
        gates = _affine(inputs, self.weight_ih, self.bias_ih) + matmul(
            pre_hidden, self.weight_hh, transpose_y=True)
        if self.bias_hh is not None:
            gates = gates + self.bias_hh
        i, f, g, o = split(gates, 4, axis=-1)
        c = sigmoid(f) * pre_cell + sigmoid(i) * tanh(g)
        h = sigmoid(o) * tanh(c)
        if self.proj_size > 0:
            h = matmul(h, self.weight_ho)
        return h, (h, c)

    @property
    def state_shape(self):
        """((hidden_size,), (proj_size or hidden_size,)): Paddle's order, which puts the
        projected size on the second (cell) state."""
        return ((self.hidden_size,), (self.proj_size or self.hidden_size,))

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}"


class GRUCell(RNNCellBase):
    """The GRU step with the reset gate applied after the hidden product (Paddle's, cuDNN's):
    r = sigmoid(x_r + h_r), z = sigmoid(x_z + h_z), c = tanh(x_c + r * h_c),
    h' = (h - c) * z + c, where [x_r, x_z, x_c] = x @ weight_ih.T + bias_ih and
    [h_r, h_z, h_c] = h @ weight_hh.T + bias_hh.

    Args:
        input_size, hidden_size: the sizes of x's last axis and of the state.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr: ParamAttr or initializer
            (uniform in +-1/sqrt(hidden_size) by default); False for a frozen constant.

    Returns (of a call ``cell(inputs, states=None)``):
        (h', h').

    Example:
        >>> out, h = opsdk.nn.GRUCell(3, 4)(opsdk.ones([2, 3]))
        >>> h.shape
        paddle.Size([2, 4])
    """

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__()
        _weights(self, 3, input_size, hidden_size,
                 (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr))

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        x_r, x_z, x_c = split(_affine(inputs, self.weight_ih, self.bias_ih), 3, axis=1)
        h_r, h_z, h_c = split(_affine(states, self.weight_hh, self.bias_hh), 3, axis=1)
        r = sigmoid(x_r + h_r)
        z = sigmoid(x_z + h_z)
        c = tanh(x_c + r * h_c)
        h = (states - c) * z + c
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}"
