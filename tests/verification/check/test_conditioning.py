"""The conditioning comparisons allow for: large for an ill-conditioned op, no larger than the
magnitude for a well-conditioned one."""
import numpy as np

from opsdk import TensorSpec
from opsdk.verification.check.conditioning import conditioning_run
from opsdk.verification.check.context import CheckContext
from opsdk.verification.check.drawing import draw_samples
from opsdk.verification.check.selection import select_ops

from .adversarial_outsider.pack import module
from .ops import Square


def _context(pack, function, **options):
    pack("condpack", lambda register: register(function, name="op", **options))
    (op,), _ = select_ops(["condpack.op"])
    sample = next(s for s in draw_samples(op, "float32") if s.kind == "own")
    return CheckContext(op, "python", "float32", sample)


def test_a_standardisation_of_nearly_constant_rows_is_hundreds_of_times_its_magnitude(pack):
    ctx = _context(pack, module("good").Standardize, samples=module("good")._nearly_constant)
    kappa = conditioning_run(ctx, ctx.sample, backward=False)
    y = ctx.run(dtype="float64", backward=False).outputs[0]
    assert np.median(kappa.outputs[0] / (np.abs(y) + 1)) > 100


def test_a_square_is_conditioned_like_its_magnitude(pack):
    ctx = _context(pack, Square, inputs=[TensorSpec(shape=(3, 4), domain=(0.5, 2.0))])
    kappa = conditioning_run(ctx, ctx.sample)
    y = ctx.run(dtype="float64", backward=False).outputs[0]
    # y = x^2 moves by 2 y per unit of relative change in x
    assert np.allclose(kappa.outputs[0], 2 * y, rtol=1e-3)
