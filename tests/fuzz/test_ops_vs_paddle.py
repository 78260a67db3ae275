"""Every core op against PaddlePaddle 3.3.1 on inputs hypothesis draws: values, dtypes, first
order through Tensor.backward and opsdk.grad, second order.

PyTorch is the reference where Paddle has no second order, where its answer is a known wrong
number (ops.py, paddle_wrong), and at inf/nan/-0.0 inputs where Paddle's float kernels differ
from its own float64 ones (then opsdk must match PyTorch).
"""
import os
import sys

import numpy as np
import pytest
from hypothesis import given, strategies as st

pytest.importorskip("paddle", reason="the differential fuzz suite needs PaddlePaddle 3.3.1 "
                                     "(pip install paddlepaddle==3.3.1)")

from . import frameworks  # noqa: E402
from .conftest import fuzz_settings  # noqa: E402
from .harness import compare, compare_either, compare_second_order, evaluate  # noqa: E402
from .ops import OPS  # noqa: E402

pytestmark = pytest.mark.paddle
STAGES = ("values", "grad", "backward", "second order")


def _case(op, arrays, attrs, dtype):
    return (f"{op.name}(shapes={[list(a.shape) for a in arrays]}, dtype={dtype}, "
            f"attrs={attrs}, values={[a.tolist() for a in arrays]})")


def _special(arrays):
    """Inputs holding inf, nan or -0.0 (where frameworks' float kernels disagree)."""
    return any(a.dtype.kind == "f" and (not np.isfinite(a).all() or np.signbit(a[a == 0]).any())
               for a in arrays)


def _torch():
    try:
        return frameworks.get("torch")
    except ImportError:
        return None


@pytest.mark.parametrize("op", OPS, ids=str)
@fuzz_settings()
@given(data=st.data())
def test_op_matches_paddle(op, data):
    arrays, diff, attrs, dtype = op.draw(data)
    seed = data.draw(st.integers(0, 2 ** 31), label="cotangents")
    shapes = [a.shape for a, d in zip(arrays, diff) if d]
    case = _case(op, arrays, attrs, dtype)
    wrong = set(op.paddle_wrong(arrays, attrs))
    stages = [s for s in STAGES if s not in wrong]
    fn = op.fn
    with np.errstate(all="ignore"):
        ours = evaluate(frameworks.get("opsdk"), fn, arrays, diff, attrs, seed, True)
    torch_fw = _torch()
    ref = None
    if torch_fw is not None and (wrong or not op.second or _special(arrays)):
        with np.errstate(all="ignore"):
            ref = evaluate(torch_fw, op.torch or fn, arrays, diff, attrs, seed, True)
    if stages:  # Paddle is not called where it is wrong throughout: it may crash there
        if os.environ.get("OPSDK_FUZZ_TRACE"):  # the last line shown names a case that crashed
            print(case, file=sys.stderr, flush=True)
        with np.errstate(all="ignore"):
            theirs = evaluate(frameworks.get("paddle"), fn, arrays, diff, attrs, seed, op.second)
        try:
            compare(ours, theirs, case, dtype, op.scale, shapes, stages)
        except AssertionError:
            if ref is None or ref.error is not None or not _special(arrays):
                raise
            # at special values Paddle's float32 kernels differ from its float64 ones
            # (sqrt(inf) is nan in float32), and inf/nan flow differently through second
            # order: opsdk must match PyTorch throughout, or one of the two element by element
            try:
                compare(ours, ref, case + " (vs torch at special values)", dtype, op.scale,
                        shapes)
            except AssertionError:
                compare_either(ours, theirs, ref, case, dtype, op.scale)
    if ref is not None and ref.error is None:
        # torch is the reference here only because Paddle has no answer: at special inputs a
        # nan on either side is not held against opsdk (the two disagree on how nan flows)
        lenient = _special(arrays)
        if wrong - {"second order"}:
            compare(ours, ref, case + " (vs torch)", dtype, op.scale, shapes,
                    sorted(wrong - {"second order"}), lenient)
        if "second order" in wrong or not op.second:
            compare_second_order(ours, ref, case, dtype, op.scale, lenient)
