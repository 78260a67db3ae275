"""torch operator schemas for an exported op and its gradient levels.

The op: ``(Tensor x, Tensor? weight=None, ..., *, float beta=1.5, ...) -> Tensor`` (tensors
positional, attributes keyword-only, several outputs as a tuple). Gradient level k:
``(Tensor[] cotangents, <the op's tensors>, *, <the op's attributes>) -> Tensor[]``.
"""
import math

_TYPES = {"bool": "bool", "int": "SymInt", "float": "float", "str": "str", "int[]": "SymInt[]",
          "float[]": "float[]"}


def _literal(value):
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    if isinstance(value, float) and not math.isfinite(value):
        return "inf" if value > 0 else "-inf"
    return repr(value) if isinstance(value, float) else str(int(value))


def _attrs(signature):
    parts = []
    for name in signature.attr_names:
        kind = signature.attr_types[name]
        optional = kind.endswith("?")
        text = _TYPES[kind.rstrip("?")] + ("?" if optional else "") + " " + name
        if name in signature.attr_defaults:
            text += "=" + _literal(signature.attr_defaults[name])
        parts.append(text)
    return parts


def _tensors(signature, defaults=True):
    # levels declare no defaults: torch drops arguments equal to their default before autograd
    # sees them, and a Tensor[] op's backward must then return exactly one grad per remaining one
    optional = "=None" if defaults else ""
    return [f"Tensor? {n}{optional}" if n in signature.optional else f"Tensor {n}"
            for n in signature.tensor_names]


def _join(positional, keyword):
    return "(" + ", ".join(positional + (["*"] + keyword if keyword else [])) + ")"


def op_schema(signature, n_outputs):
    """The schema of the exported op."""
    returns = "Tensor" if n_outputs == 1 else "(" + ", ".join(["Tensor"] * n_outputs) + ")"
    return _join(_tensors(signature), _attrs(signature)) + " -> " + returns


def level_schema(signature):
    """The schema of every gradient level of the op."""
    return _join(["Tensor[] cotangents"] + _tensors(signature, defaults=False),
                 _attrs(signature)) + " -> Tensor[]"
