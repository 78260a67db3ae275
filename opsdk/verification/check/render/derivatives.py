"""What the HTML report plots for a failed gradient check: analytic against numeric derivatives.

For an elementwise op of one tensor input, both derivatives along the input's domain (a curve);
otherwise the per-element error of the Jacobian on a drawn sample (a heat map). For
gradgradcheck the function differentiated is the op's gradient (its first backward), so the
plot shows where the second derivative disagrees with the first one's numeric derivative.
"""
from dataclasses import dataclass

import numpy as np

from ....autograd import grad
from ....functional.creation import ones_like, to_tensor

_POINTS = 401
_MAX_SIDE = 256  # Jacobian rows / columns shown: samples are small, a page must stay light
_MAX_SAMPLES = 8  # samples whose Jacobians are compared for the heat map


@dataclass
class Curve:
    """Derivatives of an elementwise op along ``x``; ``worst`` indexes the largest disagreement."""

    x: np.ndarray
    analytic: np.ndarray
    numeric: np.ndarray
    worst: int
    argument: str
    order: int


@dataclass
class ErrorMap:
    """|analytic − numeric| per Jacobian element (rows: output elements, columns: input elements)."""

    errors: np.ndarray
    worst: tuple
    analytic: float
    numeric: float
    argument: str
    order: int
    input_shape: list
    output_shape: list
    sample: str = ""


def derivative_data(op, backend, dtype, check, seed=0, mode="fast"):
    """A Curve or an ErrorMap for one gradient check of ``op`` (an OpInfo) on ``backend``.

    Args:
        op: the registered op.
        backend: the backend whose kernels run (``use_backend``).
        dtype: the dtype the check ran in.
        check: ``"gradcheck"`` (first derivatives) or ``"gradgradcheck"`` (second).
        seed, mode: the run's, so the samples are the ones the check ran on (broadcast and
            non-contiguous variants included): the heat map shows the sample that errs most.

    Returns:
        Curve or ErrorMap.

    Raises:
        ValueError: the op has no float tensor input to differentiate.
    """
    from ....kernels import use_backend

    order = 2 if check == "gradgradcheck" else 1
    samples = _samples(op, dtype, seed, mode)
    label, args, kwargs = samples[0]
    positions = _float_positions(args)
    if not positions:
        raise ValueError(f"op '{op.qualname}' has no float tensor argument to differentiate")
    names = _argument_names(op, len(args))
    with use_backend(backend):
        if len(positions) == 1 and _elementwise(op, args, kwargs, positions[0], order):
            return _curve(op, args, kwargs, positions[0], names[positions[0]], order)
        maps = []
        for label, args, kwargs in samples[:_MAX_SAMPLES]:
            for p in _float_positions(args):
                try:
                    maps.append(_error_map(op, args, kwargs, p, names[p], order, label))
                except Exception:  # noqa: BLE001 - a sample whose backward breaks still leaves the others
                    continue
    if not maps:
        raise ValueError(f"op '{op.qualname}': no sample gives a Jacobian to plot")
    return max(maps, key=lambda m: m.errors.max())


def _samples(op, dtype, seed, mode):
    """[(label, args, kwargs)]: the samples `opsdk check` drew, else the op's own."""
    try:
        from ..drawing import draw_samples

        # the samples gradient checks run on (not the layouts, sizes and special points)
        return [(s.label, *s.make(requires=())) for s in draw_samples(op, dtype, seed, mode)
                if s.kind in ("own", "broadcast", "attribute")]
    except Exception:  # noqa: BLE001 - the checks' internals changed: the op's samples still plot
        return [(f"sample {i}", s.args, s.kwargs) for i, s in enumerate(op.samples(dtype, rng=seed))]


def _float_positions(args):
    from ....tensor import Tensor

    return [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.numpy().dtype.kind == "f"]


def _argument_names(op, count):
    import inspect

    try:
        names = list(inspect.signature(op.function.forward).parameters)[1:]
    except (TypeError, ValueError):
        names = []
    return [names[i] if i < len(names) else f"#{i}" for i in range(count)]


def _function(op, args, kwargs, position, order):
    """``f(t)``: the op's first float output (order 1), or its gradient w.r.t. ``t`` (order 2)."""
    def first_float(result):
        outputs = result if isinstance(result, (tuple, list)) else (result,)
        return next(o for o in outputs if o.numpy().dtype.kind == "f")

    def f(t):
        called = list(args)
        called[position] = t
        y = first_float(op(*called, **kwargs))
        if order == 1:
            return y
        (g,) = grad(y, t, grad_outputs=ones_like(y), create_graph=True)
        return g

    return f


def _leaf(values, dtype):
    t = to_tensor(np.asarray(values, dtype=dtype))
    t.stop_gradient = False
    return t


def _numeric(f, x, dtype):
    """Central differences of f at x, elementwise-ready: [(f(x + h e_j) - f(x - h e_j)) / 2h] by
    columns; evaluated in float64 when the op takes it, else in ``dtype`` with a wider step."""
    for work in ("float64", dtype):
        eps = np.finfo(work).eps
        h = eps ** (1 / 3) * np.maximum(1.0, np.abs(x))
        try:
            return _differences(f, x, h, work)
        except Exception:  # noqa: BLE001 - a kernel without float64: try the op's own dtype
            if work == dtype:
                raise
    raise AssertionError("unreachable")


def _differences(f, x, h, work):
    """Numeric Jacobian columns of f at x (flattened): J[:, j] = (f(x+h_j e_j) - f(x-h_j e_j)) / 2h_j."""
    flat = x.reshape(-1).astype(work)
    steps = h.reshape(-1).astype(work)
    columns = []
    for j in range(min(flat.size, _MAX_SIDE)):
        plus, minus = flat.copy(), flat.copy()
        plus[j] += steps[j]
        minus[j] -= steps[j]
        up = f(_leaf(plus.reshape(x.shape), work)).numpy().astype(np.float64).reshape(-1)
        down = f(_leaf(minus.reshape(x.shape), work)).numpy().astype(np.float64).reshape(-1)
        columns.append((up - down) / (2 * float(steps[j])))
    return np.stack(columns, axis=1)


def _analytic(f, x, dtype):
    """Analytic Jacobian of f at x (rows: output elements) from one backward per output element."""
    t = _leaf(x, dtype)
    y = f(t)
    size = int(np.prod(y.shape)) if y.shape else 1
    rows = []
    for i in range(min(size, _MAX_SIDE)):
        seed = np.zeros(size, dtype=y.numpy().dtype)
        seed[i] = 1
        (g,) = grad(y, t, grad_outputs=to_tensor(seed.reshape(y.shape)), retain_graph=True,
                          allow_unused=True)
        rows.append(np.zeros(x.size) if g is None else g.numpy().astype(np.float64).reshape(-1))
    return np.stack(rows)


def _elementwise(op, args, kwargs, position, order):
    """True when the output has the input's shape and each element depends on its own input only."""
    x = args[position].numpy()
    f = _function(op, args, kwargs, position, order)
    if list(f(_leaf(x, x.dtype)).shape) != list(x.shape) or x.size < 2:
        return False
    jacobian = _numeric(f, x, x.dtype.name)
    off = jacobian - np.diag(np.diag(jacobian)) if jacobian.shape[0] == jacobian.shape[1] else jacobian
    return bool(np.abs(off).max() <= 1e-6 * max(1.0, np.abs(jacobian).max()))


def _domain(op, args, position):
    spec = op.inputs[position] if op.inputs and position < len(op.inputs) else None
    if spec is not None:
        return spec.domain
    values = args[position].numpy()
    low, high = float(values.min()), float(values.max())
    pad = 0.1 * max(high - low, 1.0)
    return low - pad, high + pad


def _curve(op, args, kwargs, position, name, order):
    """Analytic and numeric derivative at _POINTS points of the domain, in chunks of the sample's shape."""
    x0 = args[position].numpy()
    low, high = _domain(op, args, position)
    xs = np.linspace(low, high, _POINTS)
    f = _function(op, args, kwargs, position, order)
    analytic, numeric = [], []
    for start in range(0, xs.size, x0.size):
        chunk = np.full(x0.size, (low + high) / 2)
        part = xs[start:start + x0.size]
        chunk[:part.size] = part
        chunk = chunk.reshape(x0.shape).astype(x0.dtype)
        analytic.append(_diagonal_analytic(f, chunk)[:part.size])
        numeric.append(_diagonal_numeric(f, chunk)[:part.size])
    analytic, numeric = np.concatenate(analytic), np.concatenate(numeric)
    worst = int(np.nanargmax(np.abs(analytic - numeric)))
    return Curve(xs, analytic, numeric, worst, name, order)


def _diagonal_analytic(f, x):
    """d f_i / d x_i for an elementwise f: one backward of sum(f)."""
    t = _leaf(x, x.dtype)
    (g,) = grad(f(t), t, allow_unused=True)
    return np.zeros(x.size) if g is None else g.numpy().astype(np.float64).reshape(-1)


def _diagonal_numeric(f, x):
    """Central differences of an elementwise f, every element stepped at once (float64 if it runs)."""
    for work in ("float64", x.dtype.name):
        h = np.finfo(work).eps ** (1 / 3) * np.maximum(1.0, np.abs(x.astype(np.float64)))
        try:
            up = f(_leaf(x.astype(work) + h.astype(work), work)).numpy().astype(np.float64)
            down = f(_leaf(x.astype(work) - h.astype(work), work)).numpy().astype(np.float64)
        except Exception:  # noqa: BLE001 - a kernel without float64: the op's own dtype
            if work == x.dtype.name:
                raise
            continue
        # the step actually taken, after rounding to the working dtype
        taken = ((x.astype(work) + h.astype(work)).astype(np.float64)
                 - (x.astype(work) - h.astype(work)).astype(np.float64))
        return ((up - down) / taken).reshape(-1)
    raise AssertionError("unreachable")


def _error_map(op, args, kwargs, position, name, order, label):
    x = np.ascontiguousarray(args[position].numpy())
    f = _function(op, args, kwargs, position, order)
    analytic = _analytic(f, x, x.dtype.name)
    numeric = _numeric(f, x, x.dtype.name)[: analytic.shape[0]]
    analytic = analytic[:, : numeric.shape[1]]
    errors = np.abs(analytic - numeric)
    worst = np.unravel_index(int(np.nanargmax(errors)), errors.shape)
    output_shape = list(np.shape(f(_leaf(x, x.dtype)).numpy()))
    return ErrorMap(errors, (int(worst[0]), int(worst[1])), float(analytic[worst]), float(numeric[worst]),
                    name, order, list(x.shape), output_shape, label)
