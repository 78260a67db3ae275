"""paddle.incubate, the part opsdk answers for: ``opsdk.incubate.autograd`` (jvp, vjp and the
Jacobian and Hessian of a function)."""
from . import autograd  # noqa: F401  (light: the functions live in opsdk.autograd)

__all__ = ["autograd"]
