"""Result dtypes and raise-or-not of binary ops and float functions against Paddle 3.3.1, for
every pair of dtypes, 0-d and n-d operands and Python numbers (Paddle's type promotion)."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

pytest.importorskip("paddle", reason="the differential fuzz suite needs PaddlePaddle 3.3.1 "
                                     "(pip install paddlepaddle==3.3.1)")

from . import frameworks  # noqa: E402
from .conftest import fuzz_settings  # noqa: E402
from .harness import assert_close, check_no_internal_error, evaluate, paddle_lacks_it  # noqa

pytestmark = pytest.mark.paddle

DTYPES = ["bool", "int32", "int64", "float16", "float32", "float64"]
BINARY = {
    "add": lambda m, x, y: x + y, "subtract": lambda m, x, y: x - y,
    "multiply": lambda m, x, y: x * y, "divide": lambda m, x, y: x / y,
    "pow": lambda m, x, y: x ** y, "maximum": lambda m, x, y: m.maximum(x, y),
    "minimum": lambda m, x, y: m.minimum(x, y), "remainder": lambda m, x, y: x % y,
    "floor_divide": lambda m, x, y: x // y, "equal": lambda m, x, y: x == y,
    "less_than": lambda m, x, y: x < y,
}
SCALARS = [True, 2, -3, 1.5, 0.5]
UNARY = {name: (lambda n: lambda m, x: getattr(m, n)(x))(name) for name in
         ["exp", "log", "sqrt", "tanh", "sin", "abs", "neg", "sign", "floor", "round", "square"]}
UNARY["sigmoid"] = lambda m, x: m.nn.functional.sigmoid(x)
UNARY["mean"] = lambda m, x: m.mean(x)
UNARY["sum"] = lambda m, x: m.sum(x)


def _array(data, dtype, zero_d):
    shape = () if zero_d else (2,)
    if dtype == "bool":
        return np.asarray(data.draw(st.lists(st.booleans(), min_size=2, max_size=2),
                                    label="b")[:1 if zero_d else 2], dtype=bool).reshape(shape)
    vals = data.draw(st.lists(st.integers(1, 4), min_size=2, max_size=2), label="v")
    return np.asarray(vals[:1 if zero_d else 2], dtype=dtype).reshape(shape)


def _check(ours, theirs, case):
    check_no_internal_error(ours, case)
    if "s=True" in case or "s=False" in case or ("0-d" in case and "//" in case) or \
            ("divide" in case and case.count("bool") == 2):
        # Paddle takes a Python bool beside a bool or 0-d tensor as a [1] tensor (bool / True
        # is a bool), a 0-d tensor // a number has shape [1] there, and Paddle divides bools
        # as integers: opsdk takes
        # bools as the numbers they are (bool / bool is float32)
        return
    if theirs.error is not None:
        if paddle_lacks_it(theirs) or "RuntimeError" in type(theirs.error).__name__ or \
                "must be Tensor" in str(theirs.error):
            # no kernel for this dtype in Paddle's CPU build, or a Python number where Paddle
            # wants a Tensor (opsdk takes numbers everywhere): nothing to compare
            return
        if "division by zero" in str(theirs.error) and "bool" in case.split(")")[1]:
            return  # Paddle divides bools as integers (True / False is an error there)
        assert ours.error is not None, (f"{case}: Paddle raised {type(theirs.error).__name__}: "
                                        f"{str(theirs.error)[:200]}; opsdk gave {ours.dtypes}")
        # Paddle raises TypeError for dtypes that do not combine: so must opsdk
        if isinstance(theirs.error, TypeError):
            assert isinstance(ours.error, TypeError), f"{case}: {ours.error!r}"
        return
    assert ours.error is None, f"{case}: opsdk raised {ours.error!r}; Paddle gave {theirs.dtypes}"
    assert ours.dtypes == theirs.dtypes, f"{case}: dtypes {ours.dtypes} vs {theirs.dtypes}"
    for a, b in zip(ours.values, theirs.values):
        assert_close(a, b, f"{case}: values", str(a.dtype))


@pytest.mark.parametrize("op", sorted(BINARY))
@fuzz_settings()
@given(data=st.data())
def test_binary_dtype_matches_paddle(op, data):
    dx, dy = (data.draw(st.sampled_from(DTYPES), label=k) for k in "xy")
    zx, zy = (data.draw(st.booleans(), label=k) for k in ("x0d", "y0d"))
    fn = BINARY[op]
    s = None
    if data.draw(st.booleans(), label="scalar"):
        s = data.draw(st.sampled_from(SCALARS), label="s")
        reflected = data.draw(st.booleans(), label="reflected")
        arrays = [_array(data, dx, zx)]
        call = (lambda m, x: fn(m, s, x)) if reflected else (lambda m, x: fn(m, x, s))
        case = (f"{op}({'s, x' if reflected else 'x, s'}) x={dx}{' 0-d' if zx else ''} "
                f"s={s!r}{' //' if op == 'floor_divide' else ''}")
    else:
        arrays = [_array(data, dx, zx), _array(data, dy, zy)]
        call = fn
        case = f"{op}(x, y) x={dx}{' 0-d' if zx else ''} y={dy}{' 0-d' if zy else ''}"
    with np.errstate(all="ignore"):
        ours = evaluate(frameworks.get("opsdk"), call, arrays, [False] * len(arrays), {}, 0,
                        False)
        if op == "pow" and "x, s" in case and s < 0 and dx not in ("float16", "float32",
                                                                      "float64"):
            check_no_internal_error(ours, case)
            return  # Paddle's integer power never returns for a negative exponent
        divisor = (s if "x, s" in case else arrays[0]) if s is not None else arrays[1]
        if op in ("remainder", "floor_divide", "divide") and not np.all(divisor):
            check_no_internal_error(ours, case)
            return  # Paddle's integer kernels die of SIGFPE on a zero divisor
        theirs = evaluate(frameworks.get("paddle"), call, arrays, [False] * len(arrays), {}, 0,
                          False)
    _check(ours, theirs, case)


@pytest.mark.parametrize("op", sorted(UNARY))
@pytest.mark.parametrize("dtype", ["bool", "int32", "int64", "float16", "float32", "float64"])
def test_unary_dtype_matches_paddle(op, dtype):
    arrays = [np.asarray([1, 2, 3], dtype=dtype) if dtype != "bool" else
              np.asarray([True, False, True])]
    with np.errstate(all="ignore"):
        ours = evaluate(frameworks.get("opsdk"), UNARY[op], arrays, [False], {}, 0, False)
        theirs = evaluate(frameworks.get("paddle"), UNARY[op], arrays, [False], {}, 0, False)
    _check(ours, theirs, f"{op}({dtype})")
