"""Recurrent layers (Paddle's paddle.nn.RNN, BiRNN, SimpleRNN, LSTM, GRU): a cell run over the
time axis, in one or both directions, stacked in layers; the cells are in rnn_cells.py, the
time loop in rnn_loop.py."""
from ..errors import (IndexOutOfRangeError, LayerArgumentError, NoKernelDTypeError,
                      OpArgumentError, ShapeError)
from ..functional.creation import full
from ..functional.shape import transpose, unsqueeze
from .container import LayerList
from .functional.common import dropout as _dropout
from .layer import Layer
from .naming import unique_name
from .rnn_cells import GRUCell, LSTMCell, SimpleRNNCell
from .functional.extension import sequence_mask
from .rnn_loop import birnn, concat_states, rnn, split_states

_BIDIRECTIONAL = ("bidirectional", "bidirect")


class RNN(Layer):
    """Runs a cell over the time axis: ``RNN(cell)(inputs, initial_states=None,
    sequence_length=None)`` -> (outputs, final_states).

    Args:
        cell: an RNNCellBase (or any layer called as ``cell(step_inputs, states)``).
        is_reverse: run from the last step to the first.
        time_major: inputs are [time, batch, ...] instead of [batch, time, ...].

    Example:
        >>> rnn = opsdk.nn.RNN(opsdk.nn.SimpleRNNCell(16, 32))
        >>> out, h = rnn(opsdk.rand([4, 23, 16]))
        >>> out.shape, h.shape
        (paddle.Size([4, 23, 32]), paddle.Size([4, 32]))
    """

    def __init__(self, cell, is_reverse=False, time_major=False):
        super().__init__()
        self.cell = cell
        self.is_reverse = is_reverse
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        return rnn(self.cell, inputs, initial_states=initial_states,
                   sequence_length=sequence_length, time_major=self.time_major,
                   is_reverse=self.is_reverse, **kwargs)


class BiRNN(Layer):
    """Runs cell_fw forward and cell_bw backward over the time axis and concatenates their
    outputs: ``BiRNN(cell_fw, cell_bw)(inputs, initial_states=None, sequence_length=None)``
    -> (outputs, (final_states_fw, final_states_bw)).

    Args:
        cell_fw, cell_bw: cells with the same input_size.
        time_major: inputs are [time, batch, ...] instead of [batch, time, ...].

    Example:
        >>> rnn = opsdk.nn.BiRNN(opsdk.nn.LSTMCell(16, 32), opsdk.nn.LSTMCell(16, 32))
        >>> out, ((h_fw, c_fw), (h_bw, c_bw)) = rnn(opsdk.rand([2, 23, 16]))
        >>> out.shape
        paddle.Size([2, 23, 64])
    """

    def __init__(self, cell_fw, cell_bw, time_major=False):
        super().__init__()
        self.cell_fw = cell_fw
        self.cell_bw = cell_bw
        if cell_fw.input_size != cell_bw.input_size:
            # Paddle's message, the missing space included
            raise OpArgumentError(f"input size of forward cell({cell_fw.input_size}) does not "
                                  f"equalsthat of backward cell({cell_bw.input_size})")
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        if isinstance(initial_states, (list, tuple)) and len(initial_states) != 2:
            raise LayerArgumentError(f"BiRNN: length of initial_states should be 2 when it is a "
                                     f"list/tuple; got: {len(initial_states)}")
        return birnn(self.cell_fw, self.cell_bw, inputs, initial_states, sequence_length,
                     self.time_major, **kwargs)


class RNNBase(LayerList):
    """The stacked, optionally bidirectional network of SimpleRNN, LSTM and GRU: one RNN (or
    BiRNN) per layer, a list of them; its parameters are also its own attributes
    weight_ih_l{k}, weight_hh_l{k}, bias_ih_l{k}, bias_hh_l{k} (``_reverse`` for the backward
    direction), listed first by ``parameters()`` and ``state_dict()``.

    ``forward(inputs, initial_states=None, sequence_length=None)`` -> (outputs, final_states),
    the states [num_layers * num_directions, batch, size] (a pair (h, c) for LSTM); with
    sequence_length, outputs past a sequence's end are zeros and its states are those of its
    last step. Dropout (upscale_in_train) is applied to the inputs of layers after the first,
    in training only.
    """

    def __init__(self, mode, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.dropout = dropout
        self.num_directions = 2 if direction in _BIDIRECTIONAL else 1
        self.time_major = time_major
        self.num_layers = num_layers
        self.state_components = 2 if mode == "LSTM" else 1
        self.proj_size = proj_size
        kwargs = {"weight_ih_attr": weight_ih_attr, "weight_hh_attr": weight_hh_attr,
                  "bias_ih_attr": bias_ih_attr, "bias_hh_attr": bias_hh_attr}
        if mode == "LSTM":
            cell_class = LSTMCell
            kwargs["proj_size"] = proj_size
        elif mode == "GRU":
            cell_class = GRUCell
        else:
            cell_class = SimpleRNNCell
            kwargs["activation"] = "relu" if mode == "RNN_RELU" else "tanh"
        self._build(cell_class, direction, kwargs)
        self._name_parameters(bias_ih_attr, bias_hh_attr)

    def _build(self, cell_class, direction, kwargs):
        # the first layer is built whatever num_layers says (as Paddle; with num_layers < 1
        # the call then fails for want of states)
        deeper_size = self.proj_size or self.hidden_size
        layers = max(self.num_layers, 1)
        if direction == "forward":
            for k in range(layers):
                size = self.input_size if k == 0 else deeper_size
                self.append(RNN(cell_class(size, self.hidden_size, **kwargs), False,
                                self.time_major))
        elif direction in _BIDIRECTIONAL:
            for k in range(layers):
                size = self.input_size if k == 0 else 2 * deeper_size
                self.append(BiRNN(cell_class(size, self.hidden_size, **kwargs),
                                  cell_class(size, self.hidden_size, **kwargs), self.time_major))
        else:
            raise OpArgumentError(f"direction should be forward or bidirect (or bidirectional), "
                                  f"received direction = {direction}")

    def _name_parameters(self, bias_ih_attr, bias_hh_attr):
        """Paddle's names, paired with the cells' parameters in order: four per cell when
        nothing is missing; with a bias_*_attr of False (the frozen bias still exists) or a
        projection, the names shift along the parameters exactly as in Paddle."""
        params = self.parameters()
        # the fused path (Paddle's cuDNN/CPU rnn kernel) is taken with exactly four per cell
        self.could_use_cudnn = len(params) == self.num_layers * 4 * self.num_directions
        names = []
        for k in range(self.num_layers):
            for d in range(self.num_directions):
                suffix = "_reverse" if d == 1 else ""
                names += [f"weight_ih_l{k}{suffix}", f"weight_hh_l{k}{suffix}"]
                if bias_ih_attr is not False:
                    names.append(f"bias_ih_l{k}{suffix}")
                if bias_hh_attr is not False:
                    names.append(f"bias_hh_l{k}{suffix}")
        for name, param in zip(names, params):
            setattr(self, name, param)
        self.flatten_parameters()

    def flatten_parameters(self):
        """Paddle packs the weights into one buffer for its fused kernel here; opsdk runs the
        cells on the parameters themselves, so this only takes the parameter name the buffer
        takes in Paddle (later parameters are then named as there)."""
        if self.could_use_cudnn:
            unique_name(f"{self._full_name}.w")

    def forward(self, inputs, initial_states=None, sequence_length=None):
        fused = self.could_use_cudnn
        if fused:
            self._check_fused_inputs(inputs, initial_states, sequence_length)
        batch_axis = 1 if self.time_major else 0
        if initial_states is None:
            sizes = ([self.proj_size or self.hidden_size], [self.hidden_size])
            lead = [self.num_layers * self.num_directions, int(inputs.shape[batch_axis])]
            initial_states = tuple(full(lead + sizes[i], 0, dtype=inputs.dtype)
                                   for i in range(self.state_components))
            if self.state_components == 1:
                initial_states = initial_states[0]
        elif self.state_components == 1 and isinstance(initial_states, (list, tuple)):
            initial_states = initial_states[0]
        states = split_states(initial_states, self.num_directions == 2, self.state_components)
        if len(states) < len(self):
            raise IndexOutOfRangeError(f"{type(self).__name__}: num_layers must be at least 1; "
                                       f"got: {self.num_layers}")
        final_states = []
        for k, layer in enumerate(self):
            if k > 0:
                inputs = _dropout(inputs, self.dropout, training=self.training,
                                  mode="upscale_in_train")
            outputs, final_state = layer(inputs, states[k], sequence_length)
            final_states.append(final_state)
            inputs = outputs
        if fused and sequence_length is not None:
            # the fused kernel writes zeros past each sequence's end
            mask = sequence_mask(sequence_length, outputs.shape[1 - batch_axis], outputs.dtype)
            if self.time_major:
                mask = transpose(mask, [1, 0])
            outputs = outputs * unsqueeze(mask, -1)
        return outputs, concat_states(final_states, self.num_directions == 2,
                                      self.state_components)

    def _check_fused_inputs(self, inputs, initial_states, sequence_length):
        """The checks of Paddle's fused rnn kernel (ValueErrors there)."""
        name = type(self).__name__
        if len(inputs.shape) != 3:
            raise ShapeError(f"{name}: inputs must be 3-D ([batch, time, input_size], or "
                             f"[time, batch, input_size] when time_major); got: shape "
                             f"{list(inputs.shape)}")
        if inputs.shape[-1] != self.input_size:
            raise ShapeError(f"{name}: the inputs' last axis must be input_size; expected: "
                             f"{self.input_size}; got: {inputs.shape[-1]}")
        weight = self.weight_ih_l0
        if "float" not in str(inputs.dtype):
            raise NoKernelDTypeError(f"{name}: the inputs must be float32 or float64 (Paddle has "
                                     f"no rnn kernel for others); got: {inputs.dtype}")
        if inputs.dtype != weight.dtype:
            raise OpArgumentError(f"{name}: the inputs' dtype must be the parameters'; expected: "
                                  f"{weight.dtype}; got: {inputs.dtype}")
        batch = inputs.shape[1 if self.time_major else 0]
        if sequence_length is not None and list(sequence_length.shape) != [batch]:
            raise ShapeError(f"{name}: sequence_length must be [batch]; expected: [{batch}]; "
                             f"got: {list(sequence_length.shape)}")
        if initial_states is None:
            return
        states = (initial_states if isinstance(initial_states, (list, tuple))
                  else [initial_states])
        if len(states) != self.state_components:
            raise ShapeError(f"{name}: initial_states must hold {self.state_components} "
                             f"tensor(s); got: {len(states)}")
        sizes = [self.proj_size or self.hidden_size, self.hidden_size]
        for i, s in enumerate(states):
            want = [self.num_layers * self.num_directions, batch, sizes[i]]
            if list(s.shape) != want:
                raise ShapeError(f"{name}: initial state {i} must be [num_layers * "
                                 f"num_directions, batch, hidden_size]; expected: {want}; "
                                 f"got: {list(s.shape)}")
            if s.dtype != inputs.dtype:
                raise OpArgumentError(f"{name}: initial state {i} must have the inputs' dtype; "
                                      f"expected: {inputs.dtype}; got: {s.dtype}")

    def extra_repr(self):
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.time_major is not False:
            text += f", time_major={self.time_major}"
        if self.dropout != 0:
            text += f", dropout={self.dropout}"
        return text


class SimpleRNN(RNNBase):
    """A stacked Elman network: h_t = act(x_t @ W_ih.T + b_ih + h_{t-1} @ W_hh.T + b_hh).

    Args:
        input_size, hidden_size: the sizes of the inputs' last axis and of the state.
        num_layers: the number of stacked layers.
        direction: 'forward', or 'bidirect' / 'bidirectional'.
        time_major: inputs are [time, batch, input_size] instead of [batch, time, input_size].
        dropout: the dropout rate on the inputs of each layer after the first (training only).
        activation: 'tanh' or 'relu'.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr: as SimpleRNNCell's.

    Returns (of a call ``(inputs, initial_states=None, sequence_length=None)``):
        (outputs [batch, time, num_directions * hidden_size], h [num_layers *
        num_directions, batch, hidden_size]).

    Example:
        >>> out, h = opsdk.nn.SimpleRNN(16, 32, 2)(opsdk.randn([4, 23, 16]))
        >>> out.shape, h.shape
        (paddle.Size([4, 23, 32]), paddle.Size([2, 4, 32]))
    """

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, activation="tanh", weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        if activation not in ("tanh", "relu"):
            raise OpArgumentError(f"Unknown activation '{activation}'")
        self.__dict__["activation"] = activation
        super().__init__("RNN_TANH" if activation == "tanh" else "RNN_RELU", input_size,
                         hidden_size, num_layers, direction, time_major, dropout,
                         weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, 0)


class LSTM(RNNBase):
    """A stacked LSTM (LSTMCell's gates i, f, g, o), optionally with a projection of h.

    Args:
        input_size, hidden_size, num_layers, direction, time_major, dropout: as SimpleRNN's.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr: as LSTMCell's.
        proj_size: 0, or the size h is projected to (the outputs' and h's last axis).

    Returns (of a call ``(inputs, initial_states=None, sequence_length=None)``, the states
    a pair (h, c)):
        (outputs [batch, time, num_directions * (proj_size or hidden_size)], (h, c)), h
        [num_layers * num_directions, batch, proj_size or hidden_size], c [..., hidden_size].

    Example:
        >>> out, (h, c) = opsdk.nn.LSTM(16, 32, 2)(opsdk.randn([4, 23, 16]))
        >>> out.shape, c.shape
        (paddle.Size([4, 23, 32]), paddle.Size([2, 4, 32]))
    """

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0, name=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr,
                         proj_size)


class GRU(RNNBase):
    """A stacked GRU (GRUCell's step: the reset gate applied after the hidden product).

    Args:
        input_size, hidden_size, num_layers, direction, time_major, dropout: as SimpleRNN's.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr: as GRUCell's.

    Returns (of a call ``(inputs, initial_states=None, sequence_length=None)``):
        (outputs [batch, time, num_directions * hidden_size], h [num_layers *
        num_directions, batch, hidden_size]).

    Example:
        >>> out, h = opsdk.nn.GRU(16, 32, 2)(opsdk.randn([4, 23, 16]))
        >>> out.shape, h.shape
        (paddle.Size([4, 23, 32]), paddle.Size([2, 4, 32]))
    """

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, 0)
