"""Verification: every tool that checks an op's maths and its behaviour, in one place.

- ``check/``: the op verifier behind ``opsdk check`` (every registered op x backend x dtype x
  sample x check; public as ``opsdk.check``; the pytest face is ``opsdk.testing``).
- ``gradcheck/``: the numerical gradient checker, numeric against analytic Jacobians (public as
  ``opsdk.gradcheck``, and ``opsdk.autograd.gradcheck`` / ``gradgradcheck``).
- ``frameworks/``: ``opsdk check --framework``, ops exported by ``opsdk.interop`` verified with
  torch's, JAX's and Paddle's own checkers (the one part above ``opsdk.interop``).

Check mode's kernel side (kernel outputs NaN-filled so unwritten elements are found) lives with
the kernels, which consult it on every call: ``opsdk.kernels.unwritten``. This package imports
nothing itself.
"""
