"""Run one op call in two frameworks and compare: values, first-order gradients through both
backward paths (Tensor.backward and grad), second-order gradients (create_graph)."""
import numpy as np

from . import frameworks

# errors opsdk may raise on bad input: its own (a clear message); anything else is a bug
from opsdk.errors import OpsdkError

_PADDLE_NO_KERNEL = ("kernel with key", "not registered", "NotFound", "doesn't have any grad op",
                     "Unavailable", "not support", "Unimplemented")


class Outcome:
    """What a framework produced for one case, as NumPy arrays (or the error it raised)."""

    def __init__(self):
        self.error = None
        self.stage = None
        self.values = []
        self.dtypes = []
        self.first = None
        self.first_backward = None
        self.second = None


def _outputs(fw, result):
    items = result if isinstance(result, (list, tuple)) else [result]
    return [t for t in items if fw.is_tensor(t)]


def _cotangent(rng, shape, dtype):
    # multiples of 1/4: exact in every float dtype, so both frameworks see the same numbers
    return (rng.integers(-6, 7, size=shape) / 4.0).astype(dtype)


def evaluate(fw, fn, arrays, diff, attrs, seed, second_order):
    """Run ``fn(m, *tensors, **attrs)`` in framework fw (see Outcome)."""
    out = Outcome()
    rng = np.random.default_rng(seed)
    try:
        out.stage = "forward"
        xs = [fw.tensor(a, d) for a, d in zip(arrays, diff)]
        ys = _outputs(fw, fn(fw.module, *xs, **attrs))
        out.values = [fw.array(y) for y in ys]
        out.dtypes = [str(v.dtype) for v in out.values]
        live = [y for y in ys if fw.needs_grad(y)]
        wanted = [x for x, d in zip(xs, diff) if d]
        if not live or not wanted:
            return out
        ws = [fw.tensor(_cotangent(rng, v.shape, v.dtype), False)
              for y, v in zip(ys, out.values) if fw.needs_grad(y)]
        us = [_cotangent(rng, np.shape(a), a.dtype) for a, d in zip(arrays, diff) if d]
        out.stage = "grad"
        firsts = fw.grad(live, wanted, ws, False)
        out.first = [None if g is None else fw.array(g) for g in firsts]
        out.stage = "backward"
        fw.backward(live, ws)
        out.first_backward = [None if fw.leaf_grad(x) is None else fw.array(fw.leaf_grad(x))
                              for x in wanted]
        if not second_order:
            return out
        out.stage = "second order"
        xs = [fw.tensor(a, d) for a, d in zip(arrays, diff)]
        wanted = [x for x, d in zip(xs, diff) if d]
        ys = [y for y in _outputs(fw, fn(fw.module, *xs, **attrs)) if fw.needs_grad(y)]
        firsts = fw.grad(ys, wanted, ws, True)
        terms = [(g * fw.tensor(u, False)).sum() for g, u in zip(firsts, us)
                 if g is not None and fw.needs_grad(g)]
        if not terms:
            out.second = [None] * len(wanted)
            return out
        total = terms[0]
        for t in terms[1:]:
            total = total + t
        seconds = fw.grad([total], wanted, [fw.tensor(np.ones((), fw.array(total).dtype), False)],
                          False)
        out.second = [None if g is None else fw.array(g) for g in seconds]
    except Exception as e:  # recorded; the comparison decides what it means
        out.error = e
    return out


def paddle_lacks_it(outcome):
    """True when Paddle raised for want of a kernel or a grad op (not comparable)."""
    return outcome.error is not None and any(s in str(outcome.error) for s in _PADDLE_NO_KERNEL)


def _tolerance(dtype, scale):
    if dtype == "float16":
        return 2e-3 * scale, 2e-3 * scale
    if dtype == "float32":
        return 3e-5 * scale, 3e-6 * scale
    return 1e-10 * scale, 1e-12 * scale


def assert_close(ours, theirs, what, dtype, scale=1.0, any_nan=False):
    """Arrays equal up to the dtype's tolerance; nan and +-inf exactly where the other has them
    (with ``any_nan``, a nan on either side matches anything: for special inputs where the
    references disagree on how nan flows)."""
    if ours is None or theirs is None:
        other = theirs if ours is None else ours
        assert other is None or not np.any(other), (
            f"{what}: one side has no gradient, the other {other!r}")
        return
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    assert ours.shape == theirs.shape, f"{what}: shape {list(ours.shape)} vs {list(theirs.shape)}"
    if ours.dtype.kind == "b" or theirs.dtype.kind in "biu":
        np.testing.assert_array_equal(ours, theirs, err_msg=what)
        return
    a, b = ours.astype(np.float64), theirs.astype(np.float64)
    if any_nan:
        either = np.isnan(a) | np.isnan(b)
        a, b = np.where(either, 0.0, a), np.where(either, 0.0, b)
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    assert (nan_a == nan_b).all(), f"{what}: nan at {np.argwhere(nan_a != nan_b).tolist()}\n" \
                                   f"ours   {a}\ntheirs {b}"
    inf_a, inf_b = np.isinf(a), np.isinf(b)
    bad = (inf_a | inf_b) & ~(nan_a | nan_b) & (a != b)
    assert not bad.any(), f"{what}: inf mismatch at {np.argwhere(bad).tolist()}\n" \
                          f"ours   {a}\ntheirs {b}"
    fin = ~(nan_a | inf_a | inf_b)
    rtol, atol = _tolerance(dtype, scale)
    mag = max(1.0, float(np.abs(b[fin]).max())) if fin.any() else 1.0
    np.testing.assert_allclose(a[fin], b[fin], rtol=rtol, atol=atol * mag, err_msg=what)


def check_no_internal_error(outcome, case):
    """opsdk may refuse bad input, but only with its own errors (a clear message)."""
    e = outcome.error
    if e is not None and not isinstance(e, OpsdkError):
        raise AssertionError(f"{case}: opsdk raised {type(e).__name__} (not an opsdk error) "
                             f"in {outcome.stage}: {e}") from e


def compare(ours, theirs, case, dtype, scale=1.0, input_shapes=None, stages=None,
            any_nan=False):
    """Compare opsdk's Outcome with a reference framework's (see the module docstring).

    ``input_shapes``: the differentiated inputs' shapes; every gradient of opsdk must have its
    input's shape, and a reference gradient of another shape (a Paddle bug with size-0 dims)
    is not compared. ``stages``: which of "values", "grad", "backward", "second order" to
    compare (all by default). Returns "compared", "both raised" or "skip" (the reference lacks
    a kernel for the case).
    """
    if stages is None:
        stages = ("values", "grad", "backward", "second order")
    check_no_internal_error(ours, case)
    if theirs.error is not None and theirs.stage == "forward":
        if paddle_lacks_it(theirs):
            return "skip"
        if ours.error is not None:
            return "both raised"
        raise AssertionError(f"{case}: the reference raised {type(theirs.error).__name__}: "
                             f"{str(theirs.error)[:300]}; opsdk returned "
                             f"{[v.tolist() for v in ours.values]}")
    if ours.error is not None:
        if theirs.error is not None and (ours.stage == theirs.stage
                                         or paddle_lacks_it(theirs)):
            return "both raised"
        raise AssertionError(f"{case}: opsdk raised in {ours.stage}: "
                             f"{type(ours.error).__name__}: {ours.error}; the reference did not")
    assert len(ours.values) == len(theirs.values), f"{case}: number of outputs"
    if "values" in stages:
        assert ours.dtypes == theirs.dtypes, f"{case}: dtypes {ours.dtypes} vs {theirs.dtypes}"
        for k, (a, b) in enumerate(zip(ours.values, theirs.values)):
            assert_close(a, b, f"{case}: output {k}", ours.dtypes[k], scale, any_nan)
    for label, mine, ref in (("grad", ours.first, theirs.first),
                             ("backward", ours.first_backward, theirs.first_backward),
                             ("second order", ours.second, theirs.second)):
        if mine is not None and input_shapes is not None:
            for j, (a, shp) in enumerate(zip(mine, input_shapes)):
                assert a is None or tuple(np.shape(a)) == tuple(shp), (
                    f"{case}: {label} of input {j} has shape {list(np.shape(a))}, the input "
                    f"{list(shp)}")
        if ref is None or label not in stages:
            continue  # the reference stopped before this stage (no kernel) or was not asked
        assert mine is not None, f"{case}: opsdk gave no {label} result"
        for j, (a, b) in enumerate(zip(mine, ref)):
            if b is not None and input_shapes is not None and \
                    tuple(np.shape(b)) != tuple(input_shapes[j]):
                continue  # the reference's own shape bug
            assert_close(a, b, f"{case}: {label} of input {j}", dtype,
                         scale * (10 if label == "second order" else 1), any_nan)
    # both backward paths of opsdk agree with each other
    if ours.first is not None and ours.first_backward is not None:
        for j, (a, b) in enumerate(zip(ours.first, ours.first_backward)):
            assert_close(a, b, f"{case}: grad vs backward of input {j}", dtype, scale)
    return "compared"


def compare_second_order(ours, theirs, case, dtype, scale=1.0, any_nan=False):
    """Only the second-order gradients (the reference is torch, where Paddle has none)."""
    check_no_internal_error(ours, case)
    if theirs.second is None or ours.second is None:
        return "skip"
    for j, (a, b) in enumerate(zip(ours.second, theirs.second)):
        assert_close(a, b, f"{case}: second order of input {j} (vs torch)", dtype, scale * 10,
                     any_nan)
    return "compared"


def _close_mask(a, b, dtype, scale):
    """Elementwise: a matches b (nan where nan, equal infs, close finite numbers)."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    rtol, atol = _tolerance(dtype, scale)
    with np.errstate(all="ignore"):
        close = np.abs(a - b) <= atol * np.maximum(1.0, np.abs(b)) + rtol * np.abs(b)
    return (np.isnan(a) & np.isnan(b)) | (a == b) | close


def compare_either(ours, first, second, case, dtype, scale=1.0):
    """At special inputs: every number of opsdk's must match one of the two references there
    (Paddle's kernels and PyTorch's differ in how inf and nan flow, element by element)."""
    check_no_internal_error(ours, case)
    for label in ("values", "first", "first_backward", "second"):
        mine, a, b = (getattr(o, label) for o in (ours, first, second))
        if mine is None or a is None or b is None:
            continue
        for j, (m, x, y) in enumerate(zip(mine, a, b)):
            if m is None or x is None or y is None or np.shape(m) != np.shape(x) or \
                    np.shape(m) != np.shape(y):
                continue
            sc = scale * (10 if label == "second" else 1)
            ok = _close_mask(m, x, dtype, sc) | _close_mask(m, y, dtype, sc)
            assert ok.all(), (f"{case}: {label} {j} matches neither Paddle nor torch at "
                              f"{np.argwhere(~ok).tolist()}\nours   {m}\npaddle {x}\ntorch  {y}")
    return "compared"
