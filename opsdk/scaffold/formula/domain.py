"""Where a formula is verified: the first candidate domain on which it and its derivatives are finite."""
import math

from ...errors import FormulaError

CANDIDATES = ((-3.0, 3.0), (0.1, 3.0), (-0.9, 0.9), (1.1, 3.0), (-3.0, -0.1))
_POINTS = 97  # per input: a grid with both ends and 0 (where it lies inside), and points between
# and along each input a line this fine, the others held at a few values: a pole between grid
# points (tan at pi/2) still shows there, as a second derivative far beyond _LARGEST
_LINE = 4001
_HELD = 4
_LARGEST = 1e8  # beyond this, finite differences in gradcheck lose their digits


def _grid(low, high):
    import numpy

    points = numpy.linspace(low, high, _POINTS)
    if low < 0 < high:
        points = numpy.append(points, 0.0)
    return points


def finite_on(functions, n_inputs, attrs, low, high):
    """Whether value, grad and grad2 are finite (and not huge) on a grid over the domain and on
    fine lines along each input."""
    import numpy

    from ...kernels.elementwise import maths_of

    value, grad, grad2 = functions
    grid = _grid(low, high)
    # every input over the grid, each against the others' grid points (a product for two inputs)
    rng = numpy.random.default_rng(0)
    mesh = numpy.meshgrid(*([grid] * n_inputs), indexing="ij") if n_inputs <= 2 else \
        [rng.uniform(low, high, 4096) for _ in range(n_inputs)]
    pieces = [[a.ravel() for a in mesh]]
    line = numpy.linspace(low, high, _LINE)
    for i in range(n_inputs):
        for held in rng.uniform(low, high, (_HELD if n_inputs > 1 else 1, n_inputs)):
            pieces.append([line if j == i else numpy.full(_LINE, held[j]) for j in range(n_inputs)])
    arrays = [numpy.concatenate(column) for column in zip(*pieces)]
    m = maths_of(arrays[0])
    # NumPy scalars: x / beta at beta = 0 is inf (judged below), not Python's ZeroDivisionError
    attrs = {name: numpy.float64(v) for name, v in attrs.items()}
    with numpy.errstate(all="ignore"):
        try:
            results = [value(m, *arrays, **attrs), *grad(m, *arrays, **attrs)]
            slopes, curvatures = grad2(m, *arrays, **attrs)
        except ArithmeticError:  # a constant part overflows, or divides by zero, in Python arithmetic
            return False
        results += [*slopes, *(h for row in curvatures for h in row)]
    for result in results:
        values = numpy.broadcast_to(numpy.asarray(result, dtype=numpy.float64), arrays[0].shape)
        if not numpy.all(numpy.isfinite(values)) or numpy.max(numpy.abs(values)) > _LARGEST:
            return False
    return True


def choose_domain(functions, formula, domain=None):
    """The domain to verify the op on: ``domain`` if given (checked), else the first candidate that works.

    Raises:
        FormulaError: the given domain, or every candidate, has points where the formula or a
            derivative is not finite.
    """
    n_inputs = len(formula.inputs)
    if domain is not None:
        low, high = (float(v) for v in domain)
        if not (math.isfinite(low) and math.isfinite(high) and low < high):
            raise FormulaError(f"--domain {low},{high} is not an interval; expected: LOW,HIGH with "
                               f"LOW < HIGH, both finite; got: {low},{high}")
        if not finite_on(functions, n_inputs, formula.attrs, low, high):
            raise FormulaError(f"formula {formula.text!r} or a derivative is not finite somewhere on "
                               f"--domain {low},{high} (attributes {formula.attrs or 'none'}); "
                               f"expected: a domain where all are finite; got: {low},{high}")
        return low, high
    for low, high in CANDIDATES:
        if finite_on(functions, n_inputs, formula.attrs, low, high):
            return low, high
    tried = ", ".join(f"[{lo}, {hi}]" for lo, hi in CANDIDATES)
    attrs = ", ".join(f"{name}={value!r}" for name, value in formula.attrs.items())
    with_attrs = f" with attributes {attrs}" if attrs else ""
    raise FormulaError(f"formula {formula.text!r}: no domain found where it and its derivatives are "
                       f"finite{with_attrs} (tried {tried}); expected: --domain LOW,HIGH where they are"
                       f"{' (or other --attr values)' if attrs else ''}; got: none")
