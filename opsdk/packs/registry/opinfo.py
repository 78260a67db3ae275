"""OpInfo: a registered op, its Function plus everything needed to call, list and verify it."""
import numpy as np

from ...errors import SampleError
from ...tensor import Tensor as _Tensor
from .sampling import sample_from_specs, tensors_in
from .specs import Sample
from .tolerances import dtype_name, resolve_tolerance

# python always works, so it leads; the rest follow in the order a CPU/GPU run prefers them
_BACKEND_ORDER = ("python", "c", "cuda")


class OpInfo:
    """A registered op. Built by registration (which validated every field); call it like the op.

    Example::

        op = opsdk.ops.get("mypack.swish")
        y = op(x, beta=1.5)                  # Swish.apply(x, beta=1.5)
        op.atol("float32"), op.backends      # (0.001, ('python', 'c'))
    """

    def __init__(self, *, name, pack, pack_version, distribution, function, doc, inputs, attrs,
                 dtypes, atol, rtol, double_backward, kernels, samples, reference=None,
                 attr_ranges=None, sizes=(), max_size=None, cost=None, ties="first",
                 accumulation="wide"):
        self.name = name
        self.pack = pack
        self.pack_version = pack_version
        self.distribution = distribution
        self.function = function
        self.doc = doc
        self.__doc__ = doc
        self.inputs = inputs
        self.attrs = attrs
        self.dtypes = dtypes
        self.double_backward = double_backward
        self.kernels = kernels
        self.sample_fn = samples
        self._atol = atol
        self._rtol = rtol
        self._slots = None  # (positions, names) of tensor arguments, found on the first call that needs them
        # the same maths written with core opsdk ops; `opsdk check` compares against its autograd
        self.reference = reference
        # {attribute: (low, high)}: where the verifier may move a float attribute
        self.attr_ranges = dict(attr_ranges or {})
        # sizes the verifier derives for compiled backends besides its defaults
        self.sizes = tuple(sizes)
        # the largest size a derived dimension may take, and how the op's work grows with one
        # (a Cost): the verifier derives no size that would cost more (docs/verifying.md)
        self.max_size = max_size
        self.cost = cost
        # how exact ties are resolved: 'first'/'last' (every backend as python), or 'any'
        self.ties = ties
        # 'wide': sums accumulate wider than a float32 input ('dtype': in the input's dtype)
        self.accumulation = accumulation

    @property
    def qualname(self):
        """The op's unique name, ``<pack>.<name>``."""
        return f"{self.pack}.{self.name}"

    @property
    def summary(self):
        """The first line of the op's docstring ('' when it has none)."""
        return self.doc.strip().splitlines()[0] if self.doc.strip() else ""

    @property
    def backends(self):
        """Every backend some kernel of the op implements; always includes 'python'."""
        names = {"python"}
        for kernel in self.kernels:
            names.update(kernel.backends)
        known = [b for b in _BACKEND_ORDER if b in names]
        return tuple(known + sorted(names - set(_BACKEND_ORDER)))

    def atol(self, dtype):
        """Absolute tolerance the op is verified with in ``dtype`` (its override or the default)."""
        return resolve_tolerance(self._atol, dtype, "atol")

    def rtol(self, dtype):
        """Relative tolerance the op is verified with in ``dtype`` (its override or the default)."""
        return resolve_tolerance(self._rtol, dtype, "rtol")

    def tolerance(self, dtype):
        """``(atol, rtol)`` for ``dtype``."""
        return self.atol(dtype), self.rtol(dtype)

    def declared_tolerance(self, dtype):
        """``(atol, rtol)`` the op itself declared for ``dtype`` (None for each it left default).

        The verifier derives its tolerances from the numerics; a declared one loosens them, and
        the report says so.
        """
        name = dtype_name(dtype)

        def declared(value):
            if isinstance(value, dict):
                return value.get(name)
            return value

        return declared(self._atol), declared(self._rtol)

    def samples(self, dtype, rng=None, place=None):
        """Inputs to verify the op on in ``dtype``: a list of Sample(args, kwargs) holding Tensors.

        Args:
            dtype: the dtype under test, e.g. ``"float64"``.
            rng: a ``numpy.random.Generator``, a seed, or None for a fresh one.
            place: where the tensors live (default: the CPU).

        Returns:
            list of Sample; drawn from the op's ``samples`` callable when it has one, else one
            Sample from its input specs and attrs.

        Example::

            [s.args[0].shape for s in op.samples("float64", rng=0)]   # [[3, 4]]
        """
        rng = np.random.default_rng(rng)
        name = dtype_name(dtype)
        if self.sample_fn is None:
            return [sample_from_specs(self.inputs, self.attrs, name, rng, place)]
        drawn = self.sample_fn(rng, name)
        try:
            drawn = list(drawn)
        except TypeError:
            raise SampleError(f"op '{self.qualname}': samples(rng, dtype) must return an iterable "
                              f"of Sample; got: {type(drawn).__name__}") from None
        for i, sample in enumerate(drawn):
            if not isinstance(sample, Sample) or not isinstance(sample.args, tuple) \
                    or not isinstance(sample.kwargs, dict):
                raise SampleError(f"op '{self.qualname}': samples(rng, dtype) item {i} must be "
                                  f"Sample(args=tuple, kwargs=dict); got: {sample!r:.80}")
        if not drawn:
            raise SampleError(f"op '{self.qualname}': samples(rng, '{name}') returned no samples; "
                              "expected: at least one Sample")
        return [tensors_in(s, place) for s in drawn]

    def __call__(self, /, *args, **kwargs):
        for value in args:
            if type(value) is not _Tensor:
                return self._call_converted(args, kwargs)
        if kwargs:
            return self._call_converted(args, kwargs)
        return self.function.apply(*args)

    def _call_converted(self, args, kwargs):
        """Call with lists, arrays and numbers at tensor arguments made Tensors (as core ops do)."""
        from .arguments import converted, tensor_slots

        if self._slots is None:
            self._slots = tensor_slots(self)
        args, kwargs = converted(self, self._slots, args, kwargs)
        return self.function.apply(*args, **kwargs)

    def __repr__(self):
        version = f" {self.pack_version}" if self.pack_version else ""
        return f"<op {self.qualname} ({self.pack}{version}): {self.function.__name__}>"
