"""Size samples keep CSR-style offsets consistent with the dimension they index, so a segment
op accepts its resized sample (its accumulation over a long segment is then checked)."""
import numpy as np

from opsdk.verification.check.variants.sizes import _offsets_into


def test_offsets_ending_at_the_renamed_size_are_scaled_with_it():
    scaled = _offsets_into(np.array([0, 2, 2, 5, 7], dtype=np.int64), {7: 65539})
    assert scaled[0] == 0 and scaled[-1] == 65539 and np.all(np.diff(scaled) >= 0)
    assert scaled[1] == round(2 * 65539 / 7) and scaled[2] == scaled[1]  # an empty segment stays empty


def test_other_integer_inputs_are_left_to_the_usual_drawing():
    assert _offsets_into(np.array([3, 1, 2]), {3: 9}) is None       # indices, not offsets
    assert _offsets_into(np.array([0, 2, 4]), {7: 9}) is None       # end is not the renamed size
    assert _offsets_into(np.array([0.0, 7.0]), {7: 9}) is None      # floats
