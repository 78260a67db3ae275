"""paddle.incubate.autograd: forward and reverse products and lazily evaluated Jacobians and
Hessians of a function (opsdk.autograd.functional holds them)."""
from ...autograd.functional import FunctionHessian as Hessian
from ...autograd.functional import FunctionJacobian as Jacobian
from ...autograd.functional import jvp, vjp

__all__ = ["vjp", "jvp", "Jacobian", "Hessian"]
