"""opsdk.nn.initializer: Paddle's parameter initializers. The random ones draw from the
generator opsdk.seed sets (common.py); Orthogonal, Dirac and Bilinear build structured weights
(structured.py); set_global_initializer picks what layers use when a ParamAttr names none
(global_init.py).

Example:
    >>> dirac = opsdk.nn.initializer.Dirac()
    >>> w = opsdk.create_parameter([2, 3, 3], "float32", default_initializer=dirac)
    >>> w.numpy()[:, :, 1].tolist()
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
"""
from .common import (Assign, Constant, ConstantInitializer, Initializer, KaimingNormal,
                     KaimingUniform, MSRAInitializer, Normal, NormalInitializer,
                     TruncatedNormal, Uniform, UniformInitializer, XavierInitializer,
                     XavierNormal, XavierUniform, calculate_gain, compute_fans)
from .global_init import set_global_initializer
from .structured import Bilinear, Dirac, Orthogonal

__all__ = ["Initializer", "Constant", "Assign", "Normal", "TruncatedNormal", "Uniform",
           "XavierUniform", "XavierNormal", "KaimingUniform", "KaimingNormal", "calculate_gain",
           "compute_fans", "Bilinear", "Orthogonal", "Dirac", "set_global_initializer"]
