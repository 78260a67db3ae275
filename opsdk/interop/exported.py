"""What every framework adapter needs to know about one op: its signature, how many outputs it
has, the shapes and dtypes of those outputs for given inputs, and its levels of gradients."""
import numpy as np

from ..errors import InteropError
from . import direct
from .levels import Levels
from .signature import OpSignature


def freeze(value):
    """A hashable form of an attribute value (lists become tuples), for cache keys."""
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    return value


class Exported:
    """One registered op, seen by a framework adapter.

    ``n_outputs`` and the float outputs come from running the op once on its first
    verification sample when it is exported; ``output_meta`` runs it on zeros of the given
    shapes and dtypes (never on the caller's data), which is how fake tensors, JAX's abstract
    evaluation and compile learn the output shapes.
    """

    def __init__(self, info):
        self.info = info
        self.qualname = info.qualname
        self.signature = OpSignature(info)
        self._meta_cache = {}
        tensors, attrs = self.signature.bind_sample(info.samples("float64", rng=0)[0])
        metas = [None if t is None else (tuple(t.shape), t.dtype) for t in tensors]
        outputs, self.single = self._probe(metas, attrs)
        self.n_outputs = len(outputs)

    def levels(self, attrs):
        """The Levels of a call with these attributes."""
        sig = self.signature
        return Levels(self.info.function, self.qualname, lambda tensors: sig.call(tensors, attrs))

    def output_meta(self, metas, attrs):
        """[(shape, dtype)] of the outputs for inputs of these (shape, dtype)s (None: absent)."""
        key = (tuple(metas), freeze(attrs))
        cached = self._meta_cache.get(key)
        if cached is None:
            cached = self._meta_cache[key] = self._probe(metas, attrs)[0]
            self.check_outputs(len(cached))
        return cached

    def _probe(self, metas, attrs):
        arrays = [None if m is None else np.zeros(m[0], dtype=m[1]) for m in metas]
        tensors = direct.wrap_inputs(arrays, [False] * len(arrays))
        args, kwargs = self.signature.call(tensors, attrs)
        state = direct.forward(self.info.function, self.qualname, args, kwargs)
        return [(tuple(o.array.shape), o.array.dtype) for o in state.outputs], state.single

    def float_outputs(self, metas, attrs):
        """Indices of the float outputs for these inputs (the ones that get gradients)."""
        return [i for i, (_, dtype) in enumerate(self.output_meta(metas, attrs))
                if np.dtype(dtype).kind == "f"]

    def check_outputs(self, count):
        """Raise unless a call produced the number of outputs the exported op declares."""
        if count != self.n_outputs:
            raise InteropError(f"op '{self.qualname}' returned {count} outputs for these "
                               f"arguments; expected: {self.n_outputs}, as for its first "
                               "sample (frameworks need a fixed number of outputs)")

