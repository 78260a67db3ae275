"""An op's signature as frameworks see it: which arguments are tensors, which are attributes
(and of what type), and how a call binds (tensors positional, attributes as keywords)."""
import inspect
from numbers import Integral, Real

import numpy as np

from ..errors import InteropError

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
_MISSING = inspect.Parameter.empty


def _forward_params(info):
    params = list(inspect.signature(info.function.forward).parameters.values())[1:]
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise InteropError(f"op '{info.qualname}' cannot be exported: its forward takes "
                               f"*{p.name}; expected: named parameters only (one per tensor or "
                               "attribute), so frameworks get a fixed signature")
    return params


def _is_tensor_value(value):
    from ..tensor import Tensor

    return isinstance(value, (Tensor, np.ndarray))


def _observed(info, params):
    """Values each parameter takes in the op's own verification samples, by name."""
    seen = {p.name: [] for p in params}
    if info.sample_fn is None:
        for p, _ in zip(params, info.inputs):
            seen[p.name].append(np.zeros(0))
        for key, value in info.attrs.items():
            seen.setdefault(key, []).append(value)
        return seen
    bound_sig = inspect.Signature(params)
    for sample in info.samples("float64", rng=0):
        bound = bound_sig.bind(*sample.args, **sample.kwargs).arguments
        for key, value in bound.items():
            seen[key].append(value)
    return seen


def attr_type(name, values, default, op):
    """The framework-neutral type of one attribute: 'bool', 'int', 'float', 'str', 'int[]' or
    'float[]', with '?' when None is allowed; from its default and the values samples give it."""
    values = [v for v in values if v is not None]
    if default is not _MISSING and default is not None:
        values.append(default)
    optional = default is None
    kinds = set()
    for v in values:
        if isinstance(v, (bool, np.bool_)):
            kinds.add("bool")
        elif isinstance(v, Integral):
            kinds.add("int")
        elif isinstance(v, Real):
            kinds.add("float")
        elif isinstance(v, str):
            kinds.add("str")
        elif isinstance(v, (list, tuple)) and all(isinstance(e, Integral) and not isinstance(e, bool) for e in v):
            kinds.add("int[]")
        elif isinstance(v, (list, tuple)) and all(isinstance(e, Real) for e in v):
            kinds.add("float[]")
        else:
            kinds.add(type(v).__name__)
    for wide, narrow in (("float", "int"), ("int[]", "int"), ("float[]", "float"),
                         ("float[]", "int[]")):
        if wide in kinds and narrow in kinds:
            kinds.discard(narrow)
    if len(kinds) != 1 or next(iter(kinds)) not in ("bool", "int", "float", "str", "int[]", "float[]"):
        got = ", ".join(sorted(kinds)) or "no value (no default and no sample sets it)"
        raise InteropError(f"op '{op}': attribute '{name}' has no type frameworks can declare; "
                           "expected: one of bool, int, float, str, a list of ints or floats "
                           f"(from its default or the op's samples); got: {got}")
    kind = next(iter(kinds))
    return kind + "?" if optional else kind


class OpSignature:
    """The tensor parameters and attributes of one op's forward, and how calls bind to them.

    Tensor parameters are the ones the op's input specs or samples fill with tensors (an
    optional one defaults to None); every other parameter is an attribute with a type.
    """

    def __init__(self, info):
        self.info = info
        self.qualname = info.qualname
        params = _forward_params(info)
        self.params = params
        seen = _observed(info, params)
        tensors, attrs = [], []
        for p in params:
            if any(_is_tensor_value(v) for v in seen.get(p.name, ())):
                tensors.append(p)
            else:
                attrs.append(p)
        self.tensor_names = tuple(p.name for p in tensors)
        self.optional = frozenset(p.name for p in tensors if p.default is None)
        self.attr_names = tuple(p.name for p in attrs)
        self.attr_defaults = {p.name: p.default for p in attrs if p.default is not _MISSING}
        self.attr_types = {p.name: attr_type(p.name, seen.get(p.name, ()), p.default, self.qualname)
                           for p in attrs}
        self._lists = tuple(n for n, t in self.attr_types.items() if t.startswith(("int[]", "float[]")))
        index = {n: i for i, n in enumerate(self.tensor_names)}
        # where each forward parameter's value comes from: (True, tensor index) or (False, name)
        self._positional = tuple((p.name in index, index.get(p.name, p.name))
                                 for p in params if p.kind in _POSITIONAL)
        self._keyword_only = tuple(p.name for p in params if p.kind not in _POSITIONAL)

    def bind(self, args, kwargs, is_tensor):
        """(tensors, attrs): one entry per tensor parameter (None where absent), and the
        attributes with defaults filled in. Positional arguments fill the tensor parameters in
        order; attributes are keywords (a tensor parameter may be a keyword too)."""
        if len(args) == len(self.tensor_names) and all(k in self.attr_defaults for k in kwargs) \
                and all(is_tensor(a) for a in args) and len(self.attr_defaults) == len(self.attr_names):
            # the common call: every tensor positional, attributes with defaults as keywords
            attrs = dict(self.attr_defaults)
            attrs.update(kwargs)
            if not any(is_tensor(v) for v in kwargs.values()):
                return list(args), attrs
        op = self.qualname
        unknown = [k for k in kwargs if k not in self.tensor_names and k not in self.attr_names]
        if unknown:
            raise InteropError(f"{op}: unexpected keyword argument '{unknown[0]}'; expected: "
                               f"tensors {list(self.tensor_names)} and attributes "
                               f"{list(self.attr_names)}")
        free = [n for n in self.tensor_names if n not in kwargs]
        if len(args) > len(free):
            raise InteropError(f"{op}: too many positional arguments; expected: at most "
                               f"{len(free)} tensors {free} (attributes "
                               f"{list(self.attr_names)} go as keywords); got: {len(args)}")
        values = dict(zip(free, args))
        values.update((k, v) for k, v in kwargs.items() if k in self.tensor_names)
        tensors = []
        for name in self.tensor_names:
            value = values.get(name)
            if value is None and name not in self.optional:
                raise InteropError(f"{op}: missing tensor argument '{name}'")
            if value is not None and not is_tensor(value):
                raise InteropError(f"{op}: argument '{name}' must be a tensor; got: "
                                   f"{type(value).__name__} (attributes "
                                   f"{list(self.attr_names)} go as keywords)")
            tensors.append(value)
        attrs = dict(self.attr_defaults)
        attrs.update((k, v) for k, v in kwargs.items() if k in self.attr_names)
        missing = [n for n in self.attr_names if n not in attrs]
        if missing:
            raise InteropError(f"{op}: missing attribute '{missing[0]}' (a keyword argument)")
        for name, value in attrs.items():
            if is_tensor(value):
                raise InteropError(f"{op}: attribute '{name}' must be a "
                                   f"{self.attr_types[name]}, not a tensor")
        return tensors, attrs

    def complete(self, tensors, attrs):
        """What torch's dispatcher hands a kernel, with the arguments it drops for equalling
        their defaults put back: (tensors, attrs)."""
        tensors = list(tensors) + [None] * (len(self.tensor_names) - len(tensors))
        if len(attrs) == len(self.attr_names):
            return tensors, attrs
        full = dict(self.attr_defaults)
        full.update(attrs)
        return tensors, full

    def declared(self, attrs):
        """The attributes as their declared types hold them: a lone number given for a list
        attribute (``normalized_shape=5``) becomes a one-element list."""
        if not self._lists:
            return attrs
        out = dict(attrs)
        for name in self._lists:
            if isinstance(out.get(name), Real):
                out[name] = [out[name]]
        return out

    def bind_sample(self, sample):
        """(tensors, attrs) of one verification Sample, bound as the forward binds it."""
        from ..tensor import Tensor

        bound = inspect.Signature(self.params).bind(*sample.args, **sample.kwargs)
        bound.apply_defaults()
        values = bound.arguments
        tensors = [values.get(n) for n in self.tensor_names]
        for name, t in zip(self.tensor_names, tensors):
            if t is not None and not isinstance(t, Tensor):
                raise InteropError(f"op '{self.qualname}': sample argument '{name}' must be a "
                                   f"Tensor; got: {type(t).__name__}")
        return tensors, {n: values[n] for n in self.attr_names if n in values}

    def call(self, tensors, attrs):
        """(args, kwargs) for the Function's forward, in its parameter order."""
        args = tuple([tensors[key] if is_tensor else attrs[key] for is_tensor, key in self._positional])
        if not self._keyword_only:
            return args, {}
        return args, {name: attrs[name] for name in self._keyword_only if name in attrs}
