"""``opsdk.check``: the public name of the op verifier behind ``opsdk check``.

Its code lives in ``opsdk/verification/check/``; this module only re-exports that package's
public names, so ``from opsdk.check import plan_cases, run_checks, select_ops`` keeps working.
"""
from .verification.check import *  # noqa: F401,F403
from .verification.check import __all__  # noqa: F401
