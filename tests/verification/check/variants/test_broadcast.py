import numpy as np

from opsdk.verification.check.samples import CaseSample, TensorSlot
from opsdk.verification.check.variants.broadcast import broadcast_variants, broadcasting_inputs


class _Op:
    sample_fn = None
    inputs = ()

    class function:
        @staticmethod
        def forward(ctx, x, y):
            return x


def _sample(*shapes):
    slots = tuple(TensorSlot(np.arange(float(np.prod(s))).reshape(s) + 1, True) for s in shapes)
    return CaseSample("sample 0", slots, {}, [0])


def test_an_elementwise_op_broadcasts_every_input_on_every_backend():
    assert broadcasting_inputs(_sample((3, 4), (3, 4)), [(3, 4)]) == [(0, True, None),
                                                                      (1, True, None)]


def test_a_bias_is_a_parameter_a_row_an_operand_neither_on_compiled_backends():
    assert broadcasting_inputs(_sample((3, 4), (4,)), [(3, 4)]) == [(1, False, None)]
    assert broadcasting_inputs(_sample((3, 4), (1, 4)), [(3, 4)]) == [(1, False, (3, 4))]


def test_a_matmul_like_op_gets_no_broadcast_sample():
    assert broadcasting_inputs(_sample((3, 4), (4, 2)), [(3, 2)]) == []


def test_a_row_operand_also_gets_a_column_which_an_axis_0_reduction_gets_wrong(monkeypatch):
    from opsdk.verification.check.variants import broadcast

    monkeypatch.setattr(broadcast, "trial", lambda op, s: [np.zeros((3, 4))])
    labels = [v.label for v in broadcast_variants(_Op, _sample((3, 4), (1, 4)),
                                                  [np.zeros((3, 4))], full=True)]
    assert labels == ["sample 0, broadcast y[3, 1] (axis 1 size 1)",
                      "sample 0, broadcast y[] (0-d)", "sample 0, broadcast y[1, 1] (all ones)"]


def test_a_variant_the_op_refuses_or_that_changes_the_output_is_dropped(monkeypatch):
    from opsdk.verification.check.variants import broadcast

    monkeypatch.setattr(broadcast, "trial", lambda op, s: None)
    assert broadcast_variants(_Op, _sample((3, 4), (3, 4)), [np.zeros((3, 4))], True) == []
    monkeypatch.setattr(broadcast, "trial", lambda op, s: [np.zeros((1, 4))])
    assert broadcast_variants(_Op, _sample((3, 4), (3, 4)), [np.zeros((3, 4))], True) == []
