"""``opsdk.gradcheck``: the public name of the numerical gradient checker.

Its code lives in ``opsdk/verification/gradcheck/``; this module only re-exports that package's
public names (``gradcheck``, ``gradgradcheck``, ``check_gradients``, ...), also reached as
``opsdk.autograd.gradcheck``.
"""
from .verification.gradcheck import *  # noqa: F401,F403
from .verification.gradcheck import __all__  # noqa: F401
