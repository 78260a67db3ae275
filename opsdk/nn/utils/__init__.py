"""opsdk.nn.utils: gradient clipping helpers that work on param.grad in place, parameters to
and from one vector, and the weight reparameterisations weight_norm and spectral_norm."""
from .clip_grad_norm_ import clip_grad_norm_
from .clip_grad_value_ import clip_grad_value_

__all__ = ["clip_grad_norm_", "clip_grad_value_"]
from .parameters_vector import parameters_to_vector, vector_to_parameters

__all__ += ["parameters_to_vector", "vector_to_parameters"]
from .spectral_norm import spectral_norm
from .weight_norm import remove_weight_norm, weight_norm

__all__ += ["weight_norm", "remove_weight_norm", "spectral_norm"]
