"""opsdk ops as native ops of PyTorch, JAX and PaddlePaddle.

``opsdk.interop.torch.op(name)``, ``opsdk.interop.jax.op(name)`` and
``opsdk.interop.paddle.op(name)`` turn a registered op into a native op of that framework (see
docs/interop.md). Each framework is an optional extra (``pip install opsdk[torch]``, ``[jax]``,
``[paddle]``) and is imported only when its submodule is first used.
"""
import importlib

FRAMEWORKS = ("torch", "jax", "paddle")


def __getattr__(name):
    if name in FRAMEWORKS:
        module = importlib.import_module(f"{__name__}.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'opsdk.interop' has no attribute {name!r}; expected: one of "
                         f"{', '.join(FRAMEWORKS)}")


def __dir__():
    return sorted(FRAMEWORKS)
