"""opsdk.autograd.gradcheck / gradgradcheck (the implementation lives in opsdk.gradcheck)."""
from ..gradcheck import check_gradients, gradcheck, gradgradcheck

__all__ = ["gradcheck", "gradgradcheck", "check_gradients"]
