"""Every CUDA kernel of an op against its python kernel, at sizes that find tail and block bugs.

The calls come from the op itself: its forward, backward and double backward run once on the
python backend on its own samples while every Kernel call is recorded. Each recorded call is
then replayed at other sizes (``sizes()``: 1, 7, 255, 256, 257, 4097 and one element past a full
grid of ``launch_1d``, 16385 on the simulator: one below and one above a block, a warp's odd
remainder, a tail past several blocks, a second pass of every grid-stride loop), in float32 and
float64, with contiguous and strided arrays, on the cuda backend (simulated or real) and on the python
backend; their outputs must agree to within ten times the python kernel's own float32 error
(measured against float64; a reduction over K elements at least sqrt(K) roundings of the
output's scale, for summation orders other than NumPy's), or to 1e-9 of the output's scale in
float64.

Resizing keeps the call's structure: every array dimension of one value (say the row length 5
shared by x[3, 5] and w[5]) becomes the new size together, so shapes stay consistent; calls
whose arrays all share one shape become one row of the size, of their recorded rank (an x and
its mask may be rows a kernel walks). Float values are drawn from the range the recorded array
spanned, integer ones are tiled from it (labels stay labels); an axis is never shrunk below the
values of an integer argument (token ids, a CSR row pointer: they index or bound it).
"""
from contextlib import contextmanager
from typing import NamedTuple

import numpy

SIZES = None  # the default: sizes()
BLOCK_SIZES = (1, 7, 255, 256, 257, 4097)
WARP = 32
# the sizes a strided case runs at (those of its contiguous twin's among them): a warp's odd
# remainder and one past a block of 256
STRIDED_SIZES = (7, 257)
DTYPES = ("float32", "float64")
LAYOUTS = ("contiguous", "strided")


def _grid_threads():
    """Threads of a full ``launch_1d`` grid: 32 blocks of 256 per multiprocessor."""
    from ..cuda import _device_max_grid

    return _device_max_grid() * 256


def sizes():
    """The sizes a call is replayed at: around a block of 256 (1, 7, 255, 256, 257), a tail past
    several blocks (4097), and one element past the threads of a full ``launch_1d`` grid (16385
    on the simulator's two multiprocessors), where every grid-stride loop takes a second pass."""
    return BLOCK_SIZES + (_grid_threads() + 1,)


def case_sizes(case):
    """The sizes of one case, at the least work that shows what each must: an elementwise call
    ends one element past a full grid; a call growing one axis of a larger array ends where the
    array first holds more elements than a full grid, and more rows than a full grid of warps
    (row kernels, a warp or a block per row, take their second pass from 513 or 65 rows on): 3277
    rows of 5, 513 of 37, in place of 4097 (the rows a warp each dominate the simulator's time);
    5462 rows of 3, without 4097 too.
    A strided case runs at 7 and 257 only: a kernel handed a view goes wrong at any size, and the
    tails and grid passes are the contiguous case's to find."""
    if case.axis == "all":
        found = sizes()
    else:
        arrays = [a for a in _arrays(case.pattern) if a.ndim]
        main = max(arrays, key=lambda a: a.size) if arrays else None
        if main is None:
            found = BLOCK_SIZES
        else:
            grows = main.shape[-1] if case.axis == "last" else main.shape[0]
            others = max(1, main.size // max(1, grows))
            grid = _grid_threads()
            past = max(grid // WARP, grid // others) + 1
            # past 4097, that size is itself the tail past several blocks 4097 was there for
            found = tuple(s for s in BLOCK_SIZES if s < min(past, BLOCK_SIZES[-1])) + (past,)
    if case.layout == "strided":
        return tuple(s for s in found if s in STRIDED_SIZES)
    return found


class Recorded(NamedTuple):
    """One kernel call seen while the op ran: the kernel, its (NumPy) arguments, its outputs' shapes."""

    kernel: object
    args: tuple
    kwargs: dict
    outputs: tuple = ()

    @property
    def signature(self):
        def shape(v):
            return (tuple(v.shape), v.dtype.kind) if isinstance(v, numpy.ndarray) else repr(v)
        return (self.kernel.name, tuple(shape(a) for a in self.args),
                tuple(sorted((k, shape(v)) for k, v in self.kwargs.items())))


class Case(NamedTuple):
    """One kernel on one recorded call pattern, in one dtype and layout, growing one axis."""

    kernel: object
    pattern: Recorded
    dtype: str
    layout: str
    axis: str  # "all" (elementwise: one row of the size), "last" or "first" (that axis grows)

    @property
    def label(self):
        """``nn.softmax_fwd[float32-strided-2x3x4-axis=1-last]``: what pytest shows."""
        arrays = [a for a in (*self.pattern.args, *self.pattern.kwargs.values()) if isinstance(a, numpy.ndarray)]
        main = max(arrays, key=lambda a: a.size) if arrays else None
        shape = "x".join(map(str, main.shape)) if main is not None and main.ndim else "scalar"
        params = "-".join(f"{k}={v}" for k, v in self.pattern.kwargs.items() if not isinstance(v, numpy.ndarray))
        parts = [self.dtype, self.layout, shape] + ([params] if params else []) + \
            ([] if self.axis == "all" else [f"grow-{self.axis}"])
        return f"{self.kernel.name}[{'-'.join(parts)}]"


@contextmanager
def recording():
    """Every Kernel call made inside the block, with NumPy copies of its array arguments."""
    from ..kernel import Kernel

    calls, original_call, original_run = [], Kernel.__call__, Kernel.run

    def copy(v):
        return numpy.array(v) if isinstance(v, numpy.ndarray) else v

    def seen(kernel, args, kwargs, result):
        results = result if isinstance(result, (tuple, list)) else (result,)
        shapes = tuple(tuple(getattr(r, "shape", ())) for r in results)
        calls.append(Recorded(kernel, tuple(map(copy, args)), {k: copy(v) for k, v in kwargs.items()}, shapes))
        return result

    def call(self, /, *args, **kwargs):
        return seen(self, args, kwargs, original_call(self, *args, **kwargs))

    def run(self, backend, /, *args, **kwargs):
        return seen(self, args, kwargs, original_run(self, backend, *args, **kwargs))

    Kernel.__call__, Kernel.run = call, run
    try:
        yield calls
    finally:
        Kernel.__call__, Kernel.run = original_call, original_run




def growing_axes(pattern):
    """("all",) when the call is elementwise (its arrays resized as one 1-D length), else the axes
    that grow: ("last", "first")."""
    arrays = [a for a in _arrays(pattern) if a.ndim]
    along_an_axis = any(k in ("axis", "dim", "axes") for k in pattern.kwargs)
    shapes = {a.shape for a in arrays} | set(pattern.outputs)
    return ("all",) if len(shapes) <= 1 and not along_an_axis else ("last", "first")


# -- resizing ------------------------------------------------------------------------------------

def _arrays(pattern):
    return [v for v in (*pattern.args, *pattern.kwargs.values()) if isinstance(v, numpy.ndarray)]


def _indexes_past(arrays, size):
    """Whether an integer array's values reach ``size``: indices or offsets into the axis being
    resized would then point past it (an embedding's token ids, a CSR row pointer), so the
    smaller call means nothing (the python kernel may still slice it silently)."""
    return any(a.dtype.kind in "iu" and a.size and int(a.max()) >= size for a in arrays)


def resized_shapes(pattern, size, axis):
    """{id of each recorded array: its shape at ``size``} (None when no consistent resize fits)."""
    arrays = [a for a in _arrays(pattern) if a.ndim]
    if not arrays:
        return None
    if axis == "all":
        if size < max(a.size for a in arrays) and _indexes_past(arrays, size):
            return None
        # every array the same shape, of its recorded rank: one row of `size` (an x and its mask
        # of one 2-D shape may be rows a kernel walks, which a 1-D array would not be)
        return {id(a): (1,) * (a.ndim - 1) + (size,) for a in arrays}
    main = max(arrays, key=lambda a: a.size)
    grows = main.shape[-1] if axis == "last" else main.shape[0]
    if grows == 1 or list(main.shape).count(grows) > 1:
        return None  # the dimension is not one axis: resizing it would change the call's meaning
    if size < grows and _indexes_past(arrays, size):
        return None
    mapping = {grows: size}
    shapes = {id(a): tuple(mapping.get(d, d) for d in a.shape) for a in arrays}
    if max(int(numpy.prod(s)) for s in shapes.values()) > max(1 << 18, 4 * size):
        return None
    return shapes


def _draw(recorded, shape, dtype, rng):
    """An array of ``shape`` with values like ``recorded``'s (its float range; its integers tiled)."""
    if recorded.dtype.kind in "iub":
        flat = recorded.reshape(-1)
        return numpy.resize(flat if flat.size else numpy.zeros(1, recorded.dtype), shape).astype(recorded.dtype)
    low, high = (float(recorded.min()), float(recorded.max())) if recorded.size else (-1.0, 1.0)
    if low == high:
        return numpy.full(shape, low, dtype)
    return rng.uniform(low, high, size=shape).astype(dtype)


def arguments(case, size, seed=0):
    """The case's (args, kwargs) at ``size`` as NumPy arrays, or None when it cannot be resized."""
    shapes = resized_shapes(case.pattern, size, case.axis)
    if shapes is None:
        return None
    rng = numpy.random.default_rng([seed, size, case.dtype == "float64"])

    def build(v):
        if not isinstance(v, numpy.ndarray):
            return v
        shape = shapes.get(id(v), v.shape)
        dtype = case.dtype if v.dtype.kind == "f" else v.dtype
        return _draw(v, shape, dtype, rng)

    return tuple(map(build, case.pattern.args)), {k: build(v) for k, v in case.pattern.kwargs.items()}


def _strided(values, xp):
    """The values in a non-contiguous array: every other element of a buffer twice as big."""
    if values.ndim == 0 or values.size == 0:
        return xp.asarray(values)
    big = xp.zeros(tuple(2 * s for s in values.shape), dtype=values.dtype)
    view = big[tuple(slice(None, None, 2) for _ in values.shape)]
    view[...] = xp.asarray(values)
    return view


def _placed(args, kwargs, xp, layout):
    def place(v):
        if not isinstance(v, numpy.ndarray):
            return v
        return _strided(v, xp) if layout == "strided" else xp.asarray(v)
    return tuple(map(place, args)), {k: place(v) for k, v in kwargs.items()}


# -- comparing -------------------------------------------------------------------------------------

def _host(result):
    if isinstance(result, (tuple, list)):
        return [_host(r) for r in result]
    if hasattr(result, "get") and not isinstance(result, numpy.ndarray):
        return result.get()
    return numpy.asarray(result)


def _flat(result):
    return [numpy.asarray(r) for r in result] if isinstance(result, list) else [numpy.asarray(result)]


def _disagreement(got, want, ref, dtype, reduced=1):
    """Why ``got`` (cuda) differs from ``want`` (python, same dtype) given the float64 ``ref``, or ''.

    ``reduced``: how many input elements go into one output element (1 for elementwise); a float32
    reduction summed in another order than NumPy's (atomics, a grid-stride loop) drifts by about
    sqrt(reduced) roundings of the result, which float32 allows. The float64 run's tolerance stays
    tight, so a dropped or doubled element is caught there.
    """
    if got.shape != want.shape:
        return f"shape {got.shape}, python {want.shape}"
    if got.dtype != want.dtype:
        return f"dtype {got.dtype}, python {want.dtype}"
    if got.dtype.kind not in "fc":
        bad = numpy.flatnonzero(got.reshape(-1) != want.reshape(-1))
        return f"{bad.size} elements differ (first at {bad[0]})" if bad.size else ""
    g, w, r = (a.astype(numpy.float64).reshape(-1) for a in (got, want, ref))
    nan_g, nan_w = numpy.isnan(g), numpy.isnan(w)
    if (nan_g != nan_w).any():
        i = int(numpy.flatnonzero(nan_g != nan_w)[0])
        return f"NaN where python has none, or the reverse: element {i} is {g[i]!r}, python {w[i]!r}"
    finite = ~nan_w
    if not finite.any():
        return ""
    g, w, r = g[finite], w[finite], r[finite]
    inf = numpy.isinf(w) | numpy.isinf(g)
    if (g[inf] != w[inf]).any():
        i = int(numpy.flatnonzero(inf)[numpy.flatnonzero(g[inf] != w[inf])[0]])
        return f"infinities differ: element {i} is {g[i]!r}, python {w[i]!r}"
    g, w, r = g[~inf], w[~inf], r[~inf]
    if not g.size:
        return ""
    scale = max(float(numpy.abs(r).max()), numpy.finfo(numpy.float64).tiny)
    err = numpy.abs(g - r)
    own = float(numpy.abs(w - r).max())
    eps32 = numpy.finfo(numpy.float32).eps
    allowed = 1e-9 * scale if dtype == "float64" else max(10 * own, max(4.0, reduced ** 0.5) * eps32 * scale)
    worst = int(numpy.argmax(err))
    if err[worst] <= allowed:
        return ""
    return (f"max |cuda - float64| = {err[worst]:.3g} at element {worst} (cuda {g[worst]!r}, python "
            f"{w[worst]!r}, float64 {r[worst]!r}); allowed {allowed:.3g} (python's own error {own:.3g}, "
            f"output scale {scale:.3g})")


def run_case(case, sizes=SIZES, seed=0):
    """[(size, why)] of the sizes where the kernel's cuda and python implementations disagree.

    Errors the cuda run raises (a simulator diagnosis, a mistyped argument) are the answer.
    Sizes the call pattern cannot be resized to are left out. ``sizes`` None: ``case_sizes(case)``.
    """
    failures = []
    for size in sizes or case_sizes(case):
        why = run_size(case, size, seed)
        if why:
            failures.append((size, why))
    return failures


def run_size(case, size, seed=0):
    """'' when the implementations agree at ``size`` (None when it does not apply), else why not."""
    import sys

    built = arguments(case, size, seed)
    if built is None:
        return None
    args, kwargs = built
    kernel = case.kernel
    host_args, host_kwargs = _placed(args, kwargs, numpy, case.layout)
    try:
        want = _flat(_host(kernel.run("python", *host_args, **host_kwargs)))
    except Exception:
        return None  # the resized call means nothing to the kernel (an axis that no longer exists)
    ref = _flat(_host(kernel.run("python", *map(_upcast, args), **{k: _upcast(v) for k, v in kwargs.items()})))
    placed_args, placed_kwargs = _placed(args, kwargs, sys.modules["cupy"], case.layout)
    try:
        with _launches() as launches:
            got = _flat(_host(kernel.run("cuda", *placed_args, **placed_kwargs)))
    except Exception as error:  # the diagnosis is the result
        return f"{type(error).__name__}: {error}"
    shapes = ", ".join(f"{a.dtype}{list(a.shape)}" for a in args if isinstance(a, numpy.ndarray))
    if len(got) != len(want):
        return f"on ({shapes}): cuda returned {len(got)} outputs, python {len(want)}"
    largest = max((a.size for a in args if isinstance(a, numpy.ndarray)), default=1)
    problems = [f"output {k}: {why}" for k, (g, w, r) in enumerate(zip(got, want, ref))
                if (why := _disagreement(g, w, r, case.dtype, max(1, largest // max(1, g.size))))]
    if not problems:
        return ""
    return f"cuda disagrees with python on ({shapes}{_kw_text(kwargs)}): " + "; ".join(problems) + _views_note(launches)


@contextmanager
def _launches():
    """The simulator's LaunchRecords of the block (none on a real GPU)."""
    from . import active, recording

    if not active():
        yield []
        return
    with recording() as found:
        yield found


def _views_note(launches):
    """Why a strided view handed to a kernel may explain a disagreement, or ''."""
    seen = [(r.kernel, v) for r in launches for v in r.views]
    if not seen:
        return ""
    kernel, (name, shape, strides) = seen[0]
    return (f" (note: kernel '{kernel}' was given argument '{name}' as a non-contiguous view, shape "
            f"{tuple(shape)}, strides {tuple(strides)}: a kernel gets only its data pointer and reads the "
            f"memory in storage order; pass a contiguous copy, or the strides)")


def _upcast(v):
    return v.astype(numpy.float64) if isinstance(v, numpy.ndarray) and v.dtype.kind == "f" else v


def _kw_text(kwargs):
    text = ", ".join(f"{k}={v!r}" for k, v in kwargs.items() if not isinstance(v, numpy.ndarray))
    return f", {text}" if text else ""
