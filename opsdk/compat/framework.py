"""paddle.framework: the public names Paddle code imports from it, backed by opsdk's own.

Flags (``set_flags`` / ``get_flags``) are accepted for the names listed in ``FLAGS`` and
recorded; opsdk's behaviour does not depend on them. Paddle's internals reached through
``paddle.framework`` (``core``, ``_dygraph_tracer``, ...) are not provided.
"""
import numpy as np

from ..autograd import grad, no_grad
from ..device import CPUPlace, CUDAPlace
from ..dtypes import DType as dtype
from ..dtypes import get_default_dtype, set_default_dtype
from ..errors import ArgumentTypeError, OpArgumentError
from ..functional.creation import seed
from ..nn.param_attr import ParamAttr
from ..nn.parameter import Parameter
from ..serialization import load, save
from .modes import disable_static, enable_static, in_dynamic_mode


# the flags Paddle code sets most often, with Paddle's defaults; no opsdk behaviour reads them
FLAGS = {
    "FLAGS_call_stack_level": 1,
    "FLAGS_sort_sum_gradient": False,
    "FLAGS_retain_grad_for_all_tensor": False,
    "FLAGS_check_nan_inf": False,
    "FLAGS_check_nan_inf_level": 0,
    "FLAGS_cudnn_deterministic": False,
    "FLAGS_embedding_deterministic": 0,
    "FLAGS_use_mkldnn": False,
    "FLAGS_enable_pir_api": True,
    "FLAGS_set_to_1d": False,
    "FLAGS_use_stride_kernel": True,
    "FLAGS_eager_delete_tensor_gb": 0.0,
    "FLAGS_fraction_of_gpu_memory_to_use": 0.5,
    "FLAGS_allocator_strategy": "auto_growth",
}
_values = dict(FLAGS)


def _known(name, op):
    if name not in FLAGS:
        raise OpArgumentError(f"{op}: unknown flag {name!r}; expected one of: "
                              f"{', '.join(sorted(FLAGS))}")


def set_flags(flags):
    """Record flag values (a dict of 'FLAGS_...' names); they do not change opsdk's behaviour.

    Example:
        >>> opsdk.framework.set_flags({"FLAGS_call_stack_level": 3})
        >>> opsdk.framework.get_flags("FLAGS_call_stack_level")
        {'FLAGS_call_stack_level': 3}
    """
    if not isinstance(flags, dict):
        raise ArgumentTypeError(f"set_flags: flags must be a dict; got: {type(flags).__name__}")
    for name in flags:
        _known(name, "set_flags")
    _values.update(flags)


def get_flags(flags):
    """{name: value} for a flag name or a list of them."""
    names = [flags] if isinstance(flags, str) else list(flags)
    for name in names:
        _known(name, "get_flags")
    return {name: _values[name] for name in names}


def in_dynamic_or_pir_mode():
    """True: opsdk only has the dynamic-graph mode."""
    return True


def in_pir_mode():
    """False: opsdk has no static graphs (PIR or otherwise)."""
    return False


def use_pir_api():
    """False: no static-graph program is ever built, so no PIR API is in use."""
    return False


def is_parameter(var):
    """Whether var is a Parameter."""
    return isinstance(var, Parameter)


def is_persistable(var):
    """Whether var is saved with a state dict (parameters and persistable buffers)."""
    return bool(getattr(var, "persistable", False))


__all__ = ["ParamAttr", "CPUPlace", "CUDAPlace", "Parameter", "dtype", "get_default_dtype",
           "set_default_dtype", "no_grad", "grad", "seed", "in_dynamic_mode",
           "in_dynamic_or_pir_mode", "in_pir_mode", "use_pir_api", "get_flags", "set_flags",
           "disable_static", "enable_static", "save", "load", "is_parameter", "is_persistable"]
