"""Bad and unusual input never crashes opsdk from deep inside NumPy: every core op either
answers or raises an opsdk error (a clear message). Runs everywhere (no reference needed)."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

from . import frameworks
from .conftest import fuzz_settings
from .harness import check_no_internal_error, evaluate
from .ops import OPS

BAD = {"axis": [7, -9, 1.5, [0, 0], "x"], "perm": [[0, 0], [5], []], "shape": [[7], [-2, 3], [0, -1, -1]],
       "num": [0, 7, -1], "index": [(9,), (0, 0, 0, 0, 0), ([7],)], "reps": [[-1], []],
       "p": [-1, "nuc", 0.5], "to": ["int64", "bool", "complex64", "nope"], "s": [None, "a"],
       "lo": [3.0], "hi": [-3.0], "keepdim": [2], "unbiased": [None], "mask": [np.ones(1, bool)],
       "indices": [np.zeros((1,), np.int64)], "cond": [np.ones((5, 5), bool)],
       "transpose_x": [True], "transpose_y": [True]}


@pytest.mark.parametrize("op", OPS, ids=str)
@fuzz_settings(factor=3)
@given(data=st.data())
def test_op_answers_or_raises_an_opsdk_error(op, data):
    arrays, diff, attrs, dtype = op.draw(data)
    how = data.draw(st.sampled_from(["dtype", "attr", "shape", "none"]), label="how")
    if how == "dtype":
        new = data.draw(st.sampled_from(["int64", "int32", "bool", "float16", "uint8"]),
                        label="new dtype")
        k = data.draw(st.integers(0, len(arrays) - 1), label="which")
        with np.errstate(all="ignore"):
            arrays[k] = np.nan_to_num(arrays[k]).astype(new)
        diff = [d and a.dtype.kind == "f" for d, a in zip(diff, arrays)]
    elif how == "attr" and attrs:
        key = data.draw(st.sampled_from(sorted(attrs)), label="key")
        if key in BAD:
            attrs = dict(attrs, **{key: data.draw(st.sampled_from(BAD[key]), label="bad")})
    elif how == "shape" and len(arrays) > 1:
        arrays[1] = np.ones((5,) + arrays[1].shape, arrays[1].dtype)
    with np.errstate(all="ignore"):
        out = evaluate(frameworks.get("opsdk"), op.fn, arrays, diff, attrs, 0, True)
    check_no_internal_error(out, f"{op.name}({[a.dtype for a in arrays]}, "
                                 f"{[list(a.shape) for a in arrays]}, {attrs})")
