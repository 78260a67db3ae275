"""What weight_norm and spectral_norm check before they reparameterise a layer's parameter."""
from ...errors import OpArgumentError, StateError


def check_reparameterisable(layer, name, hook_class, op):
    """``name`` is a parameter of layer, and no hook_class hook is already on it."""
    if any(isinstance(h, hook_class) and h.name == name
           for h in layer._forward_pre_hooks.values()):
        raise StateError(f"{op}: {name!r} already has a {op} hook; expected: one per parameter")
    if name not in layer._parameters:
        raise OpArgumentError(f"{op}: name: expected: a parameter of {type(layer).__name__} "
                              f"({list(layer._parameters)}); got: {name!r}")
