"""opsdk.nn.utils: gradient clipping helpers that work on param.grad in place."""
from .clip_grad_norm_ import clip_grad_norm_
from .clip_grad_value_ import clip_grad_value_

__all__ = ["clip_grad_norm_", "clip_grad_value_"]
from .parameters_vector import parameters_to_vector, vector_to_parameters

__all__ += ["parameters_to_vector", "vector_to_parameters"]
