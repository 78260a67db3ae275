"""Registration: check everything a pack passes to ``register(...)`` and build the op's OpInfo."""
import inspect
import keyword
import math
import re
from collections.abc import Mapping
from numbers import Real

from ...errors import RegistrationError
from .opinfo import OpInfo
from .signature_checks import call_problems
from .spec_checks import spec_problems
from .verification_options import (VERIFICATION_OPTIONS, attr_range_problems, reference_problems,
                                   size_problems, verification_fields)
from .tolerances import VERIFIABLE_DTYPES, dtype_name

OPTIONS = ("name", "inputs", "attrs", "dtypes", "atol", "rtol", "double_backward", "kernels",
           "samples", "doc", "reference", "attr_ranges", "sizes") + VERIFICATION_OPTIONS
DEFAULT_DTYPES = ("float32", "float64")


def _got(value):
    text = repr(value)
    text = text if len(text) <= 60 else text[:57] + "..."
    return f"{type(value).__name__} {text}"


def _finite(value):
    """False when ``value`` is, or holds (a list, tuple or array of numbers), a NaN or an infinity."""
    if isinstance(value, bool):
        return True
    if isinstance(value, Real):
        return math.isfinite(value)
    if isinstance(value, complex):
        return math.isfinite(value.real) and math.isfinite(value.imag)
    if isinstance(value, (list, tuple)):
        return all(_finite(v) for v in value)
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    if kind in ("f", "c"):  # a NumPy (or CuPy) array or scalar of floats
        import numpy

        return bool(numpy.isfinite(numpy.asarray(value)).all())
    return True


def check_name(value, what):
    """Raise unless ``value`` works as a pack or op name: an identifier, not a keyword, not private."""
    if not isinstance(value, str) or not value.isidentifier() or keyword.iskeyword(value) \
            or value.startswith("_"):
        raise RegistrationError(f"{what} must be a Python identifier that is not a keyword and "
                                f"does not start with '_', e.g. 'swish'; got: {_got(value)}")


def default_op_name(function):
    """'FusedSwiGLU' -> 'fused_swi_glu': the op name used when ``register`` gets no ``name``."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", function.__name__)
    return words.lower()


class _Checker:
    """Raises RegistrationError prefixed with the pack and op the problem belongs to."""

    def __init__(self, pack, op):
        self.where = f"pack '{pack}', op '{op}'"

    def fail(self, message):
        raise RegistrationError(f"{self.where}: {message}")

    def function(self, function):
        from ...autograd.function import PyLayer

        expected = ("expected: a subclass of opsdk.Function (PyLayer) with staticmethods forward "
                    "and backward")
        if not isinstance(function, type) or not issubclass(function, PyLayer):
            self.fail(f"the Function must be a PyLayer subclass; {expected}; got: {_got(function)}")
        for method in ("forward", "backward"):
            own = inspect.getattr_static(function, method, None)
            if own is None or own is inspect.getattr_static(PyLayer, method, None) \
                    or not callable(getattr(function, method)):
                self.fail(f"{function.__name__} does not define {method}(ctx, ...); {expected}")

    def inputs(self, inputs):
        if inputs is None:
            return ()
        if not isinstance(inputs, (list, tuple)):
            self.fail(f"inputs must be a list of TensorSpec, one per tensor argument; "
                      f"got: {_got(inputs)}")
        for i, spec in enumerate(inputs):
            for field, problem in spec_problems(spec):
                self.fail(f"inputs[{i}]{'.' + field if field else ''} {problem}")
        return tuple(inputs)

    def attrs(self, attrs):
        if attrs is None:
            return {}
        if not isinstance(attrs, Mapping) or not all(isinstance(k, str) for k in attrs):
            self.fail(f"attrs must be a dict of keyword arguments by name; got: {_got(attrs)}")
        for name, value in attrs.items():
            if not _finite(value):
                # the op is verified at this value: NaN or inf there makes every check meaningless
                # (finite differences of NaN are NaN, and the report blames the gradient)
                self.fail(f"attrs[{name!r}] is not finite; expected: a finite value, at which opsdk "
                          f"check verifies the op; got: {_got(value)}")
        return dict(attrs)

    def dtypes(self, dtypes):
        if not isinstance(dtypes, (list, tuple)) or not dtypes:
            self.fail(f"dtypes must be a non-empty tuple of dtype names, e.g. ('float32', 'float64'); "
                      f"got: {_got(dtypes)}")
        names = []
        for i, dtype in enumerate(dtypes):
            try:
                name = dtype_name(dtype)
            except (TypeError, ValueError):
                name = None
            if name not in VERIFIABLE_DTYPES:
                self.fail(f"dtypes[{i}] is not a verifiable dtype; expected: one of "
                          f"{', '.join(VERIFIABLE_DTYPES)}; got: {_got(dtype)}")
            if name not in names:
                names.append(name)
        return tuple(names)

    def tolerance(self, kind, value, dtypes):
        def check(number, label):
            if not isinstance(number, Real) or isinstance(number, bool) or not math.isfinite(number) \
                    or number < 0:
                self.fail(f"{label} must be a finite number >= 0; got: {_got(number)}")
            return float(number)

        if value is None:
            return None
        if not isinstance(value, Mapping):
            return check(value, kind)
        resolved = {}
        for key, number in value.items():
            try:
                name = dtype_name(key)
            except (TypeError, ValueError):
                name = None
            if name not in dtypes:
                self.fail(f"{kind} has an entry for {key!r}, a dtype the op is not verified in; "
                          f"expected: keys among dtypes {dtypes}; got: {_got(key)}")
            resolved[name] = check(number, f"{kind}[{key!r}]")
        return resolved

    def kernels(self, kernels):
        if not isinstance(kernels, (list, tuple)):
            self.fail(f"kernels must be a tuple of opsdk.kernels.Kernel; got: {_got(kernels)}")
        if kernels:
            from ...kernels import Kernel

            for i, kernel in enumerate(kernels):
                if not isinstance(kernel, Kernel):
                    self.fail(f"kernels[{i}] must be an opsdk.kernels.Kernel; got: {_got(kernel)}")
        return tuple(kernels)

    def reference(self, reference, n_inputs, attrs, from_specs):
        for problem in reference_problems(reference, n_inputs, attrs, from_specs):
            self.fail(problem)
        return reference

    def attr_ranges(self, ranges, function, attrs):
        for problem in attr_range_problems(ranges, function, attrs):
            self.fail(problem)
        return {name: tuple(float(b) for b in bounds) for name, bounds in (ranges or {}).items()}

    def sizes(self, sizes):
        for problem in size_problems(sizes):
            self.fail(problem)
        return tuple(int(s) for s in sizes or ())

    def samples(self, samples):
        if samples is None:
            return None
        if not callable(samples):
            self.fail(f"samples must be a callable samples(rng, dtype) -> iterable of Sample; "
                      f"got: {_got(samples)}")
        try:
            inspect.signature(samples).bind(None, None)
        except TypeError:
            self.fail(f"samples must accept (rng, dtype); got: {samples!r} with signature "
                      f"{inspect.signature(samples)}")
        except ValueError:
            pass  # builtins without a readable signature are given the benefit of the doubt
        return samples


def build_opinfo(pack, pack_version, distribution, function, options):
    """Check one ``register(function, **options)`` call of ``pack`` and return its OpInfo.

    Raises:
        RegistrationError: naming the pack, the op, the argument, what was expected and what came.
    """
    name = options.get("name")
    if name is None:
        name = default_op_name(function) if isinstance(function, type) \
            else getattr(function, "__name__", "?")
    check = _Checker(pack, name)
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        import difflib  # only a bad registration pays for it

        close = difflib.get_close_matches(unknown[0], OPTIONS, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        check.fail(f"register() got unknown argument '{unknown[0]}'{hint}; expected: "
                   f"{', '.join(OPTIONS)}")
    check.function(function)
    check_name(name, f"{check.where}: the op name")
    inputs = check.inputs(options.get("inputs"))
    attrs = check.attrs(options.get("attrs"))
    samples = check.samples(options.get("samples"))
    if samples is None and not inputs:
        check.fail("needs something to verify it on; expected: inputs=[TensorSpec(...), ...] or "
                   "samples=callable(rng, dtype); got: neither")
    if samples is not None and (inputs or attrs):
        check.fail("got samples= with inputs= or attrs=; expected: samples alone (its Samples "
                   "carry their own kwargs), or inputs with attrs")
    if samples is None:
        for problem in call_problems(function, len(inputs), attrs):
            check.fail(problem)
    dtypes = check.dtypes(DEFAULT_DTYPES if options.get("dtypes") is None else options["dtypes"])
    double_backward = options.get("double_backward", False)
    if not isinstance(double_backward, bool):
        check.fail(f"double_backward must be True or False; got: {_got(double_backward)}")
    doc = options.get("doc")
    if doc is None:
        doc = inspect.cleandoc(function.__dict__.get("__doc__") or "")
    elif not isinstance(doc, str):
        check.fail(f"doc must be a str; got: {_got(doc)}")
    return OpInfo(
        name=name, pack=pack, pack_version=pack_version, distribution=distribution,
        function=function, doc=doc, inputs=inputs, attrs=attrs, dtypes=dtypes,
        atol=check.tolerance("atol", options.get("atol"), dtypes),
        rtol=check.tolerance("rtol", options.get("rtol"), dtypes),
        double_backward=double_backward,
        kernels=check.kernels(() if options.get("kernels") is None else options["kernels"]),
        samples=samples, reference=check.reference(options.get("reference"), len(inputs), attrs,
                                                   samples is None),
        attr_ranges=check.attr_ranges(options.get("attr_ranges"), function, attrs),
        sizes=check.sizes(options.get("sizes")), **verification_fields(check.fail, options))
