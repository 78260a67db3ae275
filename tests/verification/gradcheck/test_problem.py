"""Which inputs are differentiated and which outputs checked."""
import pytest

import opsdk
from opsdk.errors import OpArgumentError
from opsdk.verification.gradcheck.problem import Problem


def leaf(values, dtype="float64"):
    return opsdk.to_tensor(values, dtype=dtype, stop_gradient=False)


def test_only_float_inputs_needing_grad_are_differentiated():
    idx = opsdk.to_tensor([0, 1])
    frozen = opsdk.to_tensor([1.0, 1.0])
    p = Problem(lambda x, i, c, k: x * c * k, (leaf([1.0, 2.0]), idx, frozen, 3.0))
    assert p.diff_pos == [0]
    assert p.input_labels == ["inputs[0] (shape [2], float64)"]


def test_non_float_outputs_are_not_checked():
    p = Problem(lambda x: (opsdk.argmax(x), x * 2), (leaf([1.0, 2.0]),))
    assert p.out_pos == [1] and p.output_labels == ["outputs[1] (shape [2], float64)"]


def test_rows_and_columns_concatenate_outputs_and_inputs():
    p = Problem(lambda x, y: (x * 2, y.sum()), (leaf([1.0, 2.0, 3.0]), leaf([[1.0], [2.0]])))
    assert (p.n_rows, p.n_cols) == (4, 5)
    assert p.element(0, 1, 2, 1) == ((2,), (1, 0))


def test_func_returning_no_float_tensor_is_an_error():
    with pytest.raises(OpArgumentError, match="no float Tensor"):
        Problem(lambda x: opsdk.argmax(x), (leaf([1.0, 2.0]),))


def test_func_returning_something_else_is_an_error():
    with pytest.raises(OpArgumentError, match="must return a Tensor or a tuple"):
        Problem(lambda x: 3.0, (leaf([1.0]),))


def test_func_changing_its_output_shapes_between_calls_is_an_error():
    calls = []

    def unstable(x):
        calls.append(1)
        return x if len(calls) == 1 else x[:1]

    p = Problem(unstable, (leaf([1.0, 2.0]),))
    with pytest.raises(OpArgumentError, match="outputs of other shapes"):
        p.pick_outputs(unstable(p.args[0]))


def test_custom_names_label_inputs_and_outputs():
    p = Problem(lambda a, b: a * b, (leaf([1.0]), leaf([2.0])), input_names=["x", "w"],
                output_names=["y"])
    assert p.input_names == ["x", "w"] and p.output_names == ["y"]
