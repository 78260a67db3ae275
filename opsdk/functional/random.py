"""Random draws and fills of Paddle 3.3.1 beyond rand/randn/uniform/normal: the RNG state
(``manual_seed``, ``get_rng_state``, ``set_rng_state``), the ``*_like`` draws, ``bernoulli``,
``multinomial``, ``poisson``, ``binomial``, ``standard_gamma``, ``log_normal``, and the
in-place fills (``bernoulli_``, ``normal_``, ``log_normal_``, ``cauchy_``, ``geometric_``,
``exponential_``, ``random_``).

Every draw comes from opsdk's generator (``opsdk.seed`` makes it reproducible); NumPy's
streams are not Paddle's, so the values differ from Paddle's while shapes, dtypes, supports and
distributions match. The in-place fills advance ``inplace_version`` as Paddle's (which composes
several of them of in-place steps: ``bernoulli_`` 3, ``log_normal_`` 2, ``cauchy_`` 6,
``geometric_`` 3, ``exponential_`` 0) and, as Paddle, refuse a leaf that needs a gradient.
Where Paddle composes a fill of others, opsdk draws the same distribution: ``geometric_`` gives
Paddle's continuous ``log(u) / log1p(-p)`` (not rounded up to integers), and ``cauchy_`` is
Paddle's ``tan(pi * (n - 1/2)) * scale + loc`` of a standard *normal* n, as Paddle 3.3.1's is.
"""
import numpy as np

from ..autograd.record import record
from ..dtypes import convert_dtype, default_float, shown
from ..errors import ArgumentTypeError, DTypeError, OpArgumentError, ShapeError
from ..tensor import Tensor, _wrap, as_array
from . import creation, maths
from .inplace import _constant_like, inplace_method

_FLOATS = ("float16", "float32", "float64")


def _tensor(x, op, arg="x"):
    if not isinstance(x, Tensor):
        raise ArgumentTypeError(f"{op}: {arg} must be a Tensor; got: {type(x).__name__}")
    return x


def _float_tensor(x, op, arg="x"):
    _tensor(x, op, arg)
    if x._data.dtype.name not in _FLOATS:
        raise DTypeError(f"{op}: argument '{arg}' has an unsupported dtype; expected: one of "
                         f"{', '.join(_FLOATS)}; got: {x._data.dtype}")
    return x


def _rng():
    return creation.get_rng()


def _value(v):
    return v._data if isinstance(v, Tensor) else v


# -- the generator's state --------------------------------------------------------------------

def manual_seed(seed):
    """Seed opsdk's generator (as ``opsdk.seed``); returns it."""
    return creation.seed(seed)


def get_rng_state(device=None):
    """[the default generator's state], a list as Paddle's (one state per device)."""
    return [creation._generator.get_state()]


def set_rng_state(state_list, device=None):
    """Restore a state get_rng_state returned: the draws after it repeat."""
    if not isinstance(state_list, (list, tuple)) or len(state_list) != 1:
        raise OpArgumentError(f"set_rng_state: expected: the list get_rng_state returned (one "
                              f"state); got: {type(state_list).__name__}")
    creation._generator.set_state(state_list[0])


# -- new tensors ------------------------------------------------------------------------------

def _like_result(arr, device, requires_grad):
    t = creation._make(arr, device, True)
    t.stop_gradient = not requires_grad
    return t


def rand_like(input, name=None, *, dtype=None, device=None, requires_grad=False):
    """Uniform samples in [0, 1) of input's shape, in dtype (input's by default)."""
    _tensor(input, "rand_like", "input")
    dt = convert_dtype(dtype, op="rand_like") if dtype is not None else input._data.dtype
    if dt.name not in _FLOATS:
        raise DTypeError(f"rand_like: dtype must be a float dtype; got: {shown(dt)}")
    return _like_result(_rng().random(input._data.shape).astype(dt), device, requires_grad)


def randn_like(x, dtype=None, name=None, *, device=None, requires_grad=False):
    """Standard normal samples of x's shape, in dtype (x's by default)."""
    _tensor(x, "randn_like")
    dt = convert_dtype(dtype, op="randn_like") if dtype is not None else x._data.dtype
    if dt.name not in _FLOATS:
        raise DTypeError(f"randn_like: dtype must be a float dtype; got: {shown(dt)}")
    return _like_result(_rng().standard_normal(x._data.shape).astype(dt), device, requires_grad)


_RANDINT_DTYPES = ("bool", "float16", "float32", "float64", "int32", "int64")


def randint_like(x, low=0, high=None, dtype=None, name=None):
    """Integers drawn uniformly from [low, high) (from [0, low) when high is None), of x's
    shape, in dtype (x's by default)."""
    _tensor(x, "randint_like")
    if high is None:
        low, high = 0, low
    if not int(low) < int(high):
        raise OpArgumentError(f"randint_like: expected: low < high; got: low={low}, "
                              f"high={high}")
    dt = convert_dtype(dtype, op="randint_like") if dtype is not None else x._data.dtype
    if dt.name not in _RANDINT_DTYPES:
        raise DTypeError(f"randint_like: dtype must be one of {', '.join(_RANDINT_DTYPES)}; "
                         f"got: {shown(dt)}")
    return _wrap(_rng().integers(int(low), int(high), x._data.shape).astype(dt))


def bernoulli(x, p=None, name=None):
    """1 with probability x (or p, for every element, when given), else 0; x's dtype, no
    gradient."""
    _float_tensor(x, "bernoulli")
    probs = x._data if p is None else np.full(x._data.shape, float(p))
    if np.any((probs < 0) | (probs > 1)):
        raise OpArgumentError("bernoulli: every probability must be in [0, 1]")
    return _wrap((_rng().random(x._data.shape) < probs).astype(x._data.dtype))


def multinomial(x, num_samples=1, replacement=False, name=None, *, out=None):
    """num_samples category indices (int64) drawn with the weights in x's last axis (1-D: one
    distribution, 2-D: one per row); without replacement each category at most once."""
    _float_tensor(x, "multinomial")
    w = np.asarray(x._data, np.float64)
    if w.ndim not in (1, 2):
        raise ShapeError(f"multinomial: the number of dimensions of the input probability "
                         f"distribution should be 1 or 2; got: {w.ndim}")
    if np.any(w < 0) or not np.all(np.isfinite(w)):
        raise OpArgumentError("multinomial: the weights must be finite and >= 0")
    rows = w.reshape(-1, w.shape[-1])
    n = int(num_samples)
    res = np.empty((rows.shape[0], n), np.int64)
    for i, row in enumerate(rows):
        total = row.sum()
        if total <= 0:
            raise OpArgumentError("multinomial: the weights of a distribution sum to 0")
        if not replacement and np.count_nonzero(row) < n:
            raise OpArgumentError(f"multinomial: when replacement is False, num_samples "
                                  f"({n}) must not exceed the non-zero categories "
                                  f"({np.count_nonzero(row)})")
        res[i] = _rng().choice(row.size, n, replace=bool(replacement), p=row / total)
    return _wrap(res.reshape(*w.shape[:-1], n))


def log_normal(mean=1.0, std=2.0, shape=None, name=None):
    """exp of normal samples N(mean, std^2): of shape, or of mean's / std's broadcast shape
    when either is a Tensor; the default float dtype (a Tensor's dtype)."""
    tensors = [v for v in (mean, std) if isinstance(v, Tensor)]
    if shape is None and not tensors:
        raise OpArgumentError("log_normal: shape is required when mean and std are numbers")
    dt = tensors[0]._data.dtype if tensors else default_float()
    if shape is not None:
        dims = creation._shape_list(shape, "log_normal")
    else:
        dims = np.broadcast_shapes(*(np.shape(_value(v)) for v in (mean, std)))
    if np.any(np.asarray(_value(std)) < 0):
        raise OpArgumentError("log_normal: std must not be negative")
    draw = _rng().normal(_value(mean), _value(std), dims)
    return _wrap(as_array(np.exp(draw).astype(dt)))


def poisson(x, name=None):
    """Poisson samples with rates x, of x's dtype; the gradient to x is 0 (as Paddle's)."""
    _float_tensor(x, "poisson")
    if np.any(x._data < 0):
        raise OpArgumentError("poisson: the rates must be >= 0")
    arr = _rng().poisson(np.asarray(x._data, np.float64)).astype(x._data.dtype)
    return record("poisson", arr, (x,), _ZERO)


_ZERO = (lambda g: maths.zeros_like(g),)


def binomial(count, prob, name=None):
    """Binomial samples (int64): successes in count trials of probability prob (broadcast)."""
    _tensor(count, "binomial", "count")
    _float_tensor(prob, "binomial", "prob")
    n, p = np.broadcast_arrays(np.asarray(count._data), np.asarray(prob._data, np.float64))
    if np.any(n < 0) or np.any((p < 0) | (p > 1)):
        raise OpArgumentError("binomial: expected: count >= 0 and prob in [0, 1]")
    return _wrap(_rng().binomial(n.astype(np.int64), p).astype(np.int64))


def standard_gamma(x, name=None):
    """Gamma(x, 1) samples of x's dtype (no gradient)."""
    _float_tensor(x, "standard_gamma")
    if np.any(x._data <= 0):
        raise OpArgumentError("standard_gamma: the shapes (alpha) must be > 0")
    return _wrap(_rng().standard_gamma(np.asarray(x._data, np.float64)).astype(x._data.dtype))


# -- in-place fills ---------------------------------------------------------------------------

_FILLS = {}


def _fill(x, arr, name, writes):
    """x's values replaced by arr (no gradient to the old ones), advancing x's version by
    writes as Paddle's composition of the fill does."""
    method = _FILLS.get((name, writes))
    if method is None:
        method = _FILLS[name, writes] = inplace_method(_constant_like, name, reads_input=False,
                                                       writes=max(writes, 1))
    out = method(x, np.asarray(arr).astype(x._data.dtype))
    if writes == 0:  # Paddle's exponential_ leaves inplace_version as it was
        owner = x if x._base is None else x._base
        owner._version -= 1
    return out


def bernoulli_(x, p=0.5, name=None):
    """x filled, in place, with 1 with probability p (a number or a Tensor broadcast to x),
    else 0."""
    _float_tensor(x, "bernoulli_")
    u = _rng().random(x._data.shape)
    pv = np.broadcast_to(np.asarray(_value(p), np.float64), x._data.shape)
    return _fill(x, (u < pv), "bernoulli_", 3)


def normal_(x, mean=0.0, std=1.0, name=None):
    """x filled, in place, with N(mean, std^2) samples."""
    _tensor(x, "normal_")
    return _fill(x, _rng().normal(mean, std, x._data.shape), "normal_", 1)


def log_normal_(x, mean=1.0, std=2.0, name=None):
    """x filled, in place, with exp of N(mean, std^2) samples."""
    _float_tensor(x, "log_normal_")
    return _fill(x, np.exp(_rng().normal(mean, std, x._data.shape)), "log_normal_", 2)


def cauchy_(x, loc=0, scale=1, name=None):
    """x filled, in place, as Paddle 3.3.1's cauchy_: tan(pi * (n - 0.5)) * scale + loc of
    standard normal n (Paddle draws n with normal_)."""
    _float_tensor(x, "cauchy_")
    n = _rng().standard_normal(x._data.shape).astype(x._data.dtype)
    arr = np.tan((n - 0.5) * np.pi) * _value(scale) + _value(loc)
    return _fill(x, arr, "cauchy_", 6)


def geometric_(x, probs, name=None):
    """x filled, in place, with log(u) / log1p(-probs) of u uniform in (0, 1] (Paddle's:
    continuous, not rounded)."""
    _float_tensor(x, "geometric_")
    dt = x._data.dtype
    u = _rng().uniform(float(np.finfo(dt).tiny), 1.0, x._data.shape).astype(dt)
    return _fill(x, np.log(u) / np.log1p(-np.asarray(_value(probs), dt)), "geometric_", 3)


def exponential_(x, lam=1.0, name=None):
    """x filled, in place, with Exponential(lam) samples."""
    _float_tensor(x, "exponential_")
    if not float(lam) > 0:
        raise OpArgumentError(f"exponential_: lam must be > 0; got: {lam}")
    return _fill(x, _rng().exponential(1.0 / float(lam), x._data.shape), "exponential_", 0)


_MANTISSA = {"float16": 11, "float32": 24, "float64": 53}


def random_(x, from_=0, to=None, *, generator=None):
    """x filled, in place, with integers uniform in [from_, to); one argument is ``to``; none
    gives [0, 2^mantissa] for floats, [0, the dtype's max) for integers (Paddle's)."""
    _tensor(x, "random_")
    dt = x._data.dtype
    if to is None:
        if from_ == 0:
            to = 2 ** _MANTISSA[dt.name] if dt.name in _MANTISSA else (
                2 if dt.kind == "b" else int(np.iinfo(dt).max))
        else:
            from_, to = 0, from_
    if from_ >= to:
        raise OpArgumentError(f"random_ expects 'from' to be less than 'to', but got "
                              f"from={from_} >= to={to}")
    return _fill(x, _rng().integers(int(from_), int(to), x._data.shape), "random_", 1)
