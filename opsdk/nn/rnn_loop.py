"""Running a cell over time (Paddle's rnn/birnn of paddle.nn.layer.rnn): one cell call per time
step, states frozen past each sequence's length, and the packing of many layers' states into
[num_layers * num_directions, batch, size] tensors and back."""
from ..errors import ShapeError
from ..functional.shape import concat, flip, reshape, stack, transpose, unstack
from .functional.extension import sequence_mask
from .rnn_structure import flatten, map_structure


def _swap_batch_time(x):
    return transpose(x, [1, 0, *range(2, len(x.shape))])


def _keep_past_end(step_mask):
    """new * mask + old * (1 - mask), the mask along the batch axis (Paddle's update)."""
    def keep(old, new):
        m = reshape(step_mask, [-1] + [1] * (len(new.shape) - 1))
        return new * m + old * (1 - m)
    return keep


def rnn(cell, inputs, initial_states=None, sequence_length=None, time_major=False,
        is_reverse=False, **kwargs):
    """Call ``cell`` once per time step of inputs ([batch, time, ...], or [time, batch, ...]
    when time_major; a Tensor or a nested structure of them); returns (outputs stacked along
    the time axis, final states). With sequence_length ([batch] ints) a sequence's states stay
    at their last valid step; its outputs past the end are still the cell's."""
    time_axis = 0 if time_major else 1
    steps = flatten(inputs)[0].shape[time_axis]
    if initial_states is None:
        initial_states = cell.get_initial_states(batch_ref=inputs,
                                                 batch_dim_idx=1 if time_major else 0)
    if not time_major:
        inputs = map_structure(_swap_batch_time, inputs)
    mask = None
    if sequence_length is not None:
        mask = transpose(sequence_mask(sequence_length, steps, flatten(inputs)[0].dtype), [1, 0])
    if is_reverse:
        inputs = map_structure(lambda x: flip(x, [0]), inputs)
        mask = None if mask is None else flip(mask, [0])
    if steps == 0:
        raise ShapeError(f"rnn: the inputs have no time steps (axis {time_axis} has size 0); "
                         f"expected: at least one step")
    per_step = map_structure(lambda x: unstack(x, axis=0), inputs)
    masks = None if mask is None else unstack(mask, axis=0)
    states, outputs = initial_states, []
    for i in range(steps):
        step_inputs = map_structure(lambda xs: xs[i], per_step, leaf=_is_steps)
        step_outputs, new_states = cell(step_inputs, states, **kwargs)
        if masks is not None:
            new_states = map_structure(_keep_past_end(masks[i]), states, new_states)
        states = new_states
        outputs.append(step_outputs)
    final_outputs = map_structure(lambda *xs: stack(list(xs), axis=time_axis), *outputs)
    if is_reverse:
        final_outputs = map_structure(lambda x: flip(x, [time_axis]), final_outputs)
    return final_outputs, states


def _is_steps(x):
    """unstack's result (a list of Tensors) is one leaf of the per-step structure."""
    return isinstance(x, list) and (not x or not isinstance(x[0], (list, tuple)))


def birnn(cell_fw, cell_bw, inputs, initial_states=None, sequence_length=None,
          time_major=False, **kwargs):
    """The forward cell over inputs and the backward cell over them reversed; outputs
    concatenated on the last axis, final states (forward's, backward's). Without initial
    states both directions start from cell_fw's (as Paddle)."""
    if initial_states is None:
        batch_axis = 1 if time_major else 0
        states_fw = cell_fw.get_initial_states(batch_ref=inputs, batch_dim_idx=batch_axis)
        states_bw = cell_fw.get_initial_states(batch_ref=inputs, batch_dim_idx=batch_axis)
    else:
        states_fw, states_bw = initial_states
    outputs_fw, states_fw = rnn(cell_fw, inputs, states_fw, sequence_length,
                                time_major=time_major, **kwargs)
    outputs_bw, states_bw = rnn(cell_bw, inputs, states_bw, sequence_length,
                                time_major=time_major, is_reverse=True, **kwargs)
    outputs = map_structure(lambda a, b: concat([a, b], -1), outputs_fw, outputs_bw)
    return outputs, (states_fw, states_bw)


def split_states(states, bidirectional=False, state_components=1):
    """[L*D, batch, size] tensor(s) -> one state per layer (per (forward, backward) pair when
    bidirectional); an LSTM's per-layer state is the pair (h, c)."""
    if state_components == 1:
        per_cell = unstack(states)
        return list(zip(per_cell[::2], per_cell[1::2])) if bidirectional else per_cell
    per_cell = list(zip(*[unstack(item) for item in states]))
    return list(zip(per_cell[::2], per_cell[1::2])) if bidirectional else per_cell


def concat_states(states, bidirectional=False, state_components=1):
    """The inverse of split_states: per-layer states stacked into [L*D, batch, size]."""
    flat = flatten(states)
    if state_components == 1:
        return stack(flat)
    return tuple(stack(flat[i::state_components]) for i in range(state_components))
