"""``paddle.tensor``: Paddle's package of tensor functions (``paddle.tensor.math.add``), which
Paddle 3 also made callable (``paddle.tensor([1, 2])`` makes a tensor, as torch.tensor does).

opsdk's ``opsdk.tensor`` is the module of the Tensor class; ``install`` gives it both faces:
calling it makes a tensor, and ``opsdk.tensor.math`` (``creation``, ``search``, ...) is a
namespace whose names are opsdk's own functions (top level first, then ``opsdk.linalg``).
"""
import sys
import types

# the submodules of Paddle 3.3.1's paddle.tensor package that hold public functions
SUBMODULES = ("array", "attribute", "creation", "einsum", "linalg", "logic", "manipulation",
              "math", "ops", "random", "search", "stat", "to_string")


_LOOKUP = []  # opsdk's package: its top level, then its linalg, hold a function's name


class _Functions(types.SimpleNamespace):
    """paddle.tensor.<submodule>: opsdk's function of each name asked for."""

    def __init__(self, name):
        super().__init__()
        self.__name__ = f"opsdk.tensor.{name}"

    def __getattr__(self, name):
        for where in (_LOOKUP[0], _LOOKUP[0].linalg):
            found = getattr(where, name, None)
            if found is not None and not name.startswith("_"):
                return found
        raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")


class _TensorModule(types.ModuleType):
    def __call__(self, data, dtype=None, device=None, requires_grad=False, pin_memory=False):
        """A new tensor holding a copy of data (Paddle 3's ``paddle.tensor(...)``)."""
        from .functional.creation import to_tensor
        return to_tensor(data, dtype, place=device, stop_gradient=not requires_grad)

    def __getattr__(self, name):
        if name in SUBMODULES:
            namespace = _Functions(name)
            setattr(self, name, namespace)
            return namespace
        raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")


def install(package):
    """Give opsdk.tensor both faces; its submodule names look names up in ``package`` (opsdk,
    which passes itself, so that this module does not import it back)."""
    _LOOKUP[:] = [package]
    sys.modules["opsdk.tensor"].__class__ = _TensorModule
