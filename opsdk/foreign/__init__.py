"""Ops written in torch, JAX or Paddle, verified where they are: ``opsdk.foreign_op(...)``
makes a framework's differentiable callable an op ``opsdk check`` runs every check on, with
values and gradients computed by the framework (docs/verifying-foreign-ops.md)."""
from .declare import ForeignOp, foreign_op

__all__ = ["foreign_op", "ForeignOp"]
