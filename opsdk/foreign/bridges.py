"""The bridge of each framework, imported on first use (each framework is an optional extra)."""
from ..interop._require import require

FRAMEWORKS = ("torch", "jax", "paddle")
_bridges = {}


def bridge(framework):
    """The framework's Bridge; FrameworkNotInstalledError naming the extra when it is missing."""
    if framework not in _bridges:
        require(framework)
        if framework == "torch":
            from .torch_bridge import Bridge
        elif framework == "jax":
            from .jax_bridge import Bridge
        else:
            from .paddle_bridge import Bridge
        _bridges[framework] = Bridge()
    return _bridges[framework]
