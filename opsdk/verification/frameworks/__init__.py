"""``opsdk check --framework``: exported ops verified with each framework's own tools.

torch: ``torch.library.opcheck`` (every test_util), ``torch.autograd.gradcheck`` and, where the
op declares double backward, ``gradgradcheck``, on the op as returned and through
``torch.ops.<pack>.<op>``. JAX: ``jax.test_util.check_grads`` under ``jax.jit`` (reverse mode,
second order where declared) and ``jax.vmap`` against a loop. Paddle: forward and gradients
(second order where declared) against opsdk, and a numeric directional derivative.
"""
from .outcome import Outcome
from .runner import render, verify

__all__ = ["Outcome", "verify", "render"]
