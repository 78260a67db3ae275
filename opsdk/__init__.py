"""opsdk: write, ship and verify custom differentiable operators.

``import opsdk as paddle`` runs Paddle-style autograd code: tensors, backward, opsdk.grad,
no_grad, PyLayer custom ops; op packs add ops under ``opsdk.ops``.
"""
import math as _math_module
from .version import __version__

from . import dtypes as _dtypes
from .autograd import (Function, PyLayer, PyLayerContext, enable_grad, grad, is_grad_enabled,
                       no_grad, set_grad_enabled)
from .device import CPUPlace, CUDAPlace, Place, get_device, set_device
from .dtypes import DType as dtype
from .dtypes import get_default_dtype, set_default_dtype
from .size import Size
# Paddle's dtype names, shown as Paddle shows them ('paddle.float32'); each stands for its NumPy dtype
(bool, int8, int16, int32, int64, uint8, float16, float32, float64, complex64,
 complex128) = (_dtypes.shown(name) for name in ("bool", "int8", "int16", "int32", "int64", "uint8",
                                                "float16", "float32", "float64", "complex64",
                                                "complex128"))
from .functional.creation import (arange, empty, empty_like, eye, from_dlpack, full, full_like,
                                  linspace, logspace, normal, ones, ones_like, rand, randint, randn,
                                  randperm, seed, to_dlpack, to_tensor, uniform, zeros,
                                  zeros_like)
from .functional.elementwise import (abs, add, allclose, cast, ceil, clip, cos, divide, equal,
                                     exp, floor, floor_divide, greater_equal, greater_than,
                                     isfinite, isinf, isnan, less_equal, less_than, log,
                                     logical_and, logical_not, logical_or, logical_xor, maximum,
                                     minimum, multiply, neg, not_equal, pow, reciprocal,
                                     remainder, round, rsqrt, sigmoid, sign, sin, sqrt, square,
                                     subtract, tanh, where)
from .functional.indexing import gather, gather_nd, index_select, masked_select, nonzero, one_hot
from .functional.linalg import bmm, dot, inner, matmul, mm, mv, outer
from .functional.reduction import (all, amax, amin, any, argmax, argmin, logsumexp, max, mean,
                                   min, std, sum, var)
# paddle.norm is paddle.linalg.norm: over two axes a matrix norm (the spectral norm by default)
from .functional.decompositions import norm
from .functional.shape import (broadcast_tensors, broadcast_to, chunk, concat, expand, expand_as,
                               flatten, flip, moveaxis, reshape, split, squeeze, stack, t, tile,
                               transpose, unbind, unsqueeze, unstack)
from .functional.along_axis import put_along_axis, take_along_axis
from .functional.cumulative import cumprod, cumprod_, cumsum, cumsum_, logcumsumexp
from .functional.diagonal import diag, diag_embed, diagflat, diagonal, trace
from .functional.einsum import einsum
from .functional.nan_reduction import count_nonzero, nanmean, nanmedian, nansum
from .functional.order_stats import kthvalue, median, mode, nanquantile, quantile
from .functional.products import cross, kron, prod
from .functional.rearrange import meshgrid, repeat_interleave, roll, rot90
from .functional.scatter import (index_add, index_add_, masked_fill, masked_fill_, scatter,
                                 scatter_, scatter_nd, scatter_nd_add)
from .functional.sorting import argsort, sort, topk
from .functional.triangular import tril, tril_, triu, triu_
from .autograd.record import clone
from .compat import install_aliases as _install_aliases
from .compat.modes import disable_static, enable_static, in_dynamic_mode
from .tensor import Tensor, is_tensor
from . import autograd as _autograd, tensor_methods as _tensor_methods
from .functional.elementwise import scale
from .functional.inplace import assign, fill_constant
from .functional.combined import addmm, diff, dist, lerp
from .functional.counting import bincount, histogram, increment, numel, rank, shape, unique
from .functional.logic import equal_all, isclose
from .functional.more_unary import expm1, frac, log1p, log2, log10, stanh, trunc
from .functional.trig import (acos, acosh, asin, asinh, atan, atanh, copysign, cosh, hypot,
                              ldexp, nan_to_num, sinh, tan)
from .functional.special import (digamma, erfinv, gammainc, gammaincc, gammaln, i0, lgamma,
                                 logit, multigammaln, polygamma)
from .functional.bitwise import (bitwise_and, bitwise_invert, bitwise_left_shift, bitwise_not,
                                 bitwise_or, bitwise_right_shift, bitwise_xor, gcd, lcm)
from .functional.select_fill import index_fill, masked_scatter, renorm
from .functional.manipulation import (atleast_1d, atleast_2d, atleast_3d, block_diag,
                                      column_stack, dsplit, dstack, hsplit, hstack,
                                      matrix_transpose, narrow, ravel, reverse, row_stack,
                                      slice, strided_slice, swapaxes, swapdims, take,
                                      take_along_dim, tensor_split, unflatten, unfold, view_as,
                                      vsplit, vstack)
from .functional.placement import (diagonal_scatter, index_put, index_put_, index_sample,
                                   multiplex, scatter_add, scatter_add_, scatter_reduce,
                                   select_scatter, slice_scatter)
from .functional.generated import (cartesian_prod, combinations, range, tril_indices,
                                   triu_indices, vander)
from .functional.tensor_info import is_empty, is_floating_point, is_integer
from .functional.arithmetic import add_n, fmax, fmin
from .functional.more_maths import (deg2rad, frexp, heaviside, i0e, i1, i1e, isin, isneginf,
                                    isposinf, logaddexp, nextafter, positive, rad2deg, sgn,
                                    signbit, sinc)
from .functional.scan_search import (argwhere, bucketize, cummax, cummin, histogram_bin_edges,
                                     msort, searchsorted, unique_consecutive)
from .functional.more_linalg import (baddbmm, cdist, cumulative_trapezoid, ger, pdist,
                                     tensordot, trapezoid, vecdot)
from .functional.conversion import (as_tensor, asarray, broadcast_shape, broadcast_shapes,
                                    finfo, from_numpy, iinfo, reduce_as, set_printoptions,
                                    tolist, view)
from .functional.creation import Generator
from .functional.more_ops import crop, histogramdd
from .compat.torch_style import create_parameter as _create_parameter, softmax
from .functional.storage import TYPED as _TYPED, as_strided, typed_factory as _typed_factory
globals().update({_name: _typed_factory(_name, _dt) for _name, _dt in _TYPED.items()})
from .functional.random import (bernoulli, bernoulli_, binomial, cauchy_, geometric_,
                                get_rng_state, log_normal, log_normal_, manual_seed,
                                multinomial, normal_, poisson, rand_like, randint_like,
                                randn_like, set_rng_state, standard_gamma)

# Paddle's PyTorch-style dtype names (paddle.float is paddle.float32); `float` hides the
# builtin in this module, which calls none below
float, double, half = float32, float64, float16

# Paddle's constants (paddle.newaxis is None, as NumPy's)
e, pi, inf, nan, newaxis = (_math_module.e, _math_module.pi, _math_module.inf,
                           _math_module.nan, None)

# Paddle's other names for the same ops (paddle.cat is paddle.concat, ...)
globals().update(_tensor_methods.paddle_aliases(globals()))

# paddle.tanh_(x), paddle.add_(x, y), ...: the in-place Tensor methods as functions
globals().update(_tensor_methods.module_inplace_functions())

# paddle.tensor([1, 2]) makes a tensor; paddle.tensor.math.add is paddle.add
import sys as _sys  # noqa: E402
from . import tensor_module as _tensor_module  # noqa: E402
_tensor_module.install(_sys.modules[__name__])


def _erf_method(x, name=None):
    # the built-in pack's op (kernels, the registry) loads when first called
    from .packs.builtin.erf import erf
    return erf(x)


_tensor_methods.provide(erf=_erf_method)
_tensor_methods.provide(softmax=softmax, create_parameter=_create_parameter)
# paddle.erf_(x), paddle.expm1_(x): Paddle has these at the top level only
erf_ = _tensor_methods.inplace_function(_erf_method, "erf_")
expm1_ = _tensor_methods.inplace_function(expm1, "expm1_")


def _gradcheck(name):
    # the gradient checks (opsdk.gradcheck, a layer above autograd) load when first asked for
    def load():
        from .verification import gradcheck
        return getattr(gradcheck, name)
    return load


_autograd.from_above.update(gradcheck=_gradcheck("gradcheck"),
                            gradgradcheck=_gradcheck("gradgradcheck"))

# opsdk.framework, opsdk.static, opsdk.jit, opsdk.distributed: Paddle's namespaces, in compat/
_install_aliases()

# Paddle 3.3.1's later keywords (out=, alpha=, rounding_mode=, device=, requires_grad=, ...)
from .functional.gaussian import standard_normal
_tensor_methods.install_paddle_kwargs(globals())

_LAZY = {
    # check, gradcheck (verification/), plugins, registry, hookspecs, ops (packs/): public names
    # of modules that only re-export where the code lives
    "nn": ".nn", "optimizer": ".optimizer", "amp": ".amp", "ops": ".ops", "plugins": ".plugins",
    "registry": ".registry",
    "kernels": ".kernels", "testing": ".testing", "check": ".check", "hookspecs": ".hookspecs",
    "errors": ".errors", "gradcheck": ".gradcheck", "regularizer": ".regularizer",
    "interop": ".interop", "linalg": ".linalg", "metric": ".metric", "io": ".io",
    # Paddle's namespaces, in opsdk/compat (their public names resolve there: compat.ALIASES)
    "framework": ".framework", "distributed": ".distributed", "jit": ".jit", "static": ".static",
    "incubate": ".incubate",
}


def __getattr__(name):
    # heavy or optional parts load on first use, so `import opsdk` stays fast
    if name in _LAZY:
        import importlib
        mod = importlib.import_module(_LAZY[name], __name__)
        globals()[name] = mod
        return mod
    if name in _LAZY_ATTRS:
        import importlib
        modname, attr = _LAZY_ATTRS[name]
        value = getattr(importlib.import_module(modname, __name__), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'opsdk' has no attribute {name!r}")


_LAZY_ATTRS = {
    "create_parameter": (".nn.parameter", "create_parameter"),
    "recompute": (".nn.recompute", "recompute"),
    "hookimpl": (".packs.hookspecs", "hookimpl"),
    "TensorSpec": (".packs.registry", "TensorSpec"),
    "foreign_op": (".foreign", "foreign_op"),
    "list_ops": (".packs.loading", "list_ops"),
    "Sample": (".packs.registry", "Sample"),
    "erf": (".packs.builtin.erf", "erf"),
    "ParamAttr": (".nn.param_attr", "ParamAttr"),
    "register_pack": (".packs.loading", "register_pack"),
    "unregister_pack": (".packs.loading", "unregister_pack"),
    "gaussian": (".functional.gaussian", "gaussian"),
    "standard_normal": (".functional.gaussian", "standard_normal"),
    "save": (".serialization", "save"),
    "load": (".serialization", "load"),
    "get_flags": (".framework", "get_flags"),
    "set_flags": (".framework", "set_flags"),
    "inverse": (".functional.linalg", "inv"),
    "cholesky": (".functional.decompositions", "cholesky"),
    "eigvalsh": (".functional.decompositions", "eigvalsh"),
    "atan2": (".functional.angles", "atan2"),
    "conv1d": (".nn.functional.conv", "conv1d"),
    "conv2d": (".nn.functional.conv", "conv2d"),
    "conv3d": (".nn.functional.conv_extra", "conv3d"),
    "adaptive_avg_pool1d": (".nn.functional.pooling", "adaptive_avg_pool1d"),
    "group_norm": (".nn.functional.norm", "group_norm"),
    "layer_norm": (".nn.functional.norm", "layer_norm"),
    "autocast": (".amp", "autocast"),
    "is_autocast_enabled": (".amp", "is_autocast_enabled"),
    "get_autocast_dtype": (".amp", "get_autocast_dtype"),
    "get_autocast_cpu_dtype": (".amp", "get_autocast_cpu_dtype"),
    "get_autocast_gpu_dtype": (".amp", "get_autocast_gpu_dtype"),
}


# paddle.is_compiled_with_cuda and its siblings, as on paddle.device
from .device_queries import (is_compiled_with_cinn, is_compiled_with_cuda,  # noqa: E402
                             is_compiled_with_custom_device, is_compiled_with_distribute,
                             is_compiled_with_ipu, is_compiled_with_rocm, is_compiled_with_xpu)

# paddle.device's names that need more than the places (rng state, typed tensors), from above
from . import device_namespace as _device_namespace  # noqa: E402
_device_namespace.install(globals())


def _install_cuda_simulator_if_asked():
    """OPSDK_CUDA_SIM=1 (or =auto, without a GPU): the cuda backend runs on the CPU simulator
    (nothing is compiled yet)."""
    from .env import setting

    value = setting("OPSDK_CUDA_SIM")
    if value is not None:
        from .kernels import cudasim

        cudasim.install() if value != "auto" else cudasim.install_unless_a_gpu()


_install_cuda_simulator_if_asked()
