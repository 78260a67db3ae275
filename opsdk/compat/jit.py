"""paddle.jit: ``to_static`` runs the function or Layer eagerly (opsdk has no graph compiler).

Paddle code decorated with ``@paddle.jit.to_static`` keeps working: the same Python runs in
dynamic-graph mode, with the same values and gradients and no compilation. ``jit.save`` /
``jit.load`` (inference-model export) are not supported.
"""
from ..errors import UnsupportedError


def to_static(function=None, input_spec=None, build_strategy=None, backend=None, **kwargs):
    """Return ``function`` (a callable or Layer) unchanged: it runs eagerly.

    Works as ``to_static(fn)``, ``@to_static`` and ``@to_static(input_spec=...)``; the
    compilation options are accepted and ignored.

    Example:
        >>> @opsdk.jit.to_static
        ... def f(x):
        ...     return x * x
        >>> f(opsdk.to_tensor([3.0])).item()
        9.0
    """
    if function is None:
        return lambda fn: fn
    return function


def not_to_static(function=None):
    """Paddle marks functions to keep out of conversion; with no conversion, a no-op."""
    return function if function is not None else (lambda fn: fn)


def ignore_module(modules):
    """Paddle skips these modules during conversion; with no conversion, a no-op."""


def enable_to_static(enable_to_static_bool):
    """Paddle switches conversion on or off globally; with no conversion, a no-op."""


def save(layer, path, input_spec=None, **configs):
    raise UnsupportedError("paddle.jit.save exports a static inference model; opsdk has no "
                           "static graphs. Save weights with opsdk.save(layer.state_dict(), "
                           "path) instead")


def load(path, **configs):
    raise UnsupportedError("paddle.jit.load loads a static inference model; opsdk has no "
                           "static graphs. Load weights with opsdk.load(path) and "
                           "layer.set_state_dict(...)")
