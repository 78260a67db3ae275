"""record's flags for results no gradient reaches, compared with Paddle 3.3.1."""
import pytest

import opsdk
from helpers.frameworks import import_paddle

# integer results of an integer tensor that reports stop_gradient=False (a cast of a tensor
# that needs a gradient): Paddle reports False for every one of them
INT_RESULTS = {
    "plus_number": lambda P, c, w: c + 1,
    "minus_number": lambda P, c, w: c - 2,
    "times_number": lambda P, c, w: c * 3,
    "plus_tensor": lambda P, c, w: c + P.to_tensor([1, 1]),
    "sum": lambda P, c, w: P.sum(c),
    "prod": lambda P, c, w: P.prod(c),
    "prod_dtype": lambda P, c, w: P.prod(w, dtype="int64"),
    "cumsum_dtype": lambda P, c, w: P.cumsum(w, dtype="int64"),
    "reshape": lambda P, c, w: c.reshape([2, 1]),
}


def _flags(P, fn):
    w = P.to_tensor([1.5, 2.5], stop_gradient=False)
    c = P.cast(w, "int64")
    out = fn(P, c, w)
    return out.stop_gradient, out.is_leaf


@pytest.mark.parametrize("case", sorted(INT_RESULTS))
def test_integer_results_report_stop_gradient_as_paddle(case):
    want = _flags(import_paddle(), INT_RESULTS[case])
    assert _flags(opsdk, INT_RESULTS[case]) == want == (False, False)


def test_integer_results_of_constant_tensors_stop_gradient():
    c = opsdk.to_tensor([1, 2])
    assert (c + 1).stop_gradient and opsdk.sum(c).stop_gradient
    with opsdk.no_grad():
        w = opsdk.to_tensor([1.5], stop_gradient=False)
        assert (opsdk.cast(w, "int64") + 1).stop_gradient
