from opsdk.verification.check.checks.wrapped import as_function
from opsdk.verification.check.context import CheckContext
from opsdk.verification.check.drawing import draw_samples
from opsdk.verification.check.selection import select_ops


def test_function_of_the_differentiable_inputs_only(good_results):
    from fixtures.packs import registered

    with registered("good_pack", "goodpack"):
        (op,), _ = select_ops(["goodpack.pick"])
        sample = draw_samples(op, "float64")[0]
        func, inputs = as_function(CheckContext(op, "python", "float64", sample))
        assert len(inputs) == 1 and inputs[0].shape == [3, 2]   # x, not the index
        assert func(*inputs).shape == [4, 2]
