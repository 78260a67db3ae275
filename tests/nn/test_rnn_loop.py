"""The time loop and state packing of recurrent layers (opsdk/nn/rnn_loop.py)."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import ShapeError
from opsdk.nn.rnn_loop import concat_states, rnn, split_states


@pytest.mark.parametrize("bidirectional, components", [(False, 1), (True, 1), (False, 2),
                                                       (True, 2)])
def test_split_and_concat_states_are_inverse(bidirectional, components):
    packed = [opsdk.to_tensor(np.arange(4 * 2 * 3.0).reshape(4, 2, 3) + 100 * k)
              for k in range(components)]
    states = packed[0] if components == 1 else tuple(packed)
    per_layer = split_states(states, bidirectional, components)
    assert len(per_layer) == (2 if bidirectional else 4)
    back = concat_states(per_layer, bidirectional, components)
    for a, b in zip(back if components > 1 else [back], packed):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    if bidirectional and components == 2:
        (h_fw, c_fw), (h_bw, c_bw) = per_layer[1]
        assert h_bw.numpy()[0, 0] == 3 * 6 and c_fw.numpy()[0, 0] == 100 + 2 * 6


def test_a_cell_of_nested_inputs_and_the_states_past_the_end():
    class Adder(opsdk.nn.RNNCellBase):
        """state += a + b; output the state (a cell over a pair of inputs)."""
        state_shape = (2,)

        def forward(self, inputs, states):
            a, b = inputs
            new = states + a + b
            return new, new

    a = opsdk.ones([2, 3, 2])
    b = opsdk.ones([2, 3, 2])
    out, final = rnn(Adder(), (a, b), sequence_length=opsdk.to_tensor(np.array([3, 1])))
    assert out.numpy()[:, :, 0].tolist() == [[2, 4, 6], [2, 4, 4]]
    assert final.numpy()[:, 0].tolist() == [6, 2]
    out, final = rnn(Adder(), (a, b), is_reverse=True, time_major=True)
    assert out.shape == [2, 3, 2] and out.numpy()[:, 0, 0].tolist() == [4, 2]


def test_no_time_steps_is_refused():
    with pytest.raises(ShapeError, match="no time steps"):
        rnn(opsdk.nn.GRUCell(2, 2), opsdk.ones([2, 0, 2]))
