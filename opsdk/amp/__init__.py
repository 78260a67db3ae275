"""opsdk.amp: automatic mixed precision (auto_cast, GradScaler), as Paddle's paddle.amp."""
from .auto_cast import amp_guard, auto_cast, is_auto_cast_enabled
from .grad_scaler import AmpScaler, GradScaler
from .matmul import autocast_matmul


def decorate(models, optimizers=None, level="O1", dtype="float16", master_weight=None,
             save_dtype=None, master_grad=False, excluded_layers=None):
    """O1 needs no model changes: returns (models, optimizers) as given (O2 is not supported).
    master_grad and excluded_layers are O2's (float32 gradients, layers kept in float32): under
    O1, Paddle's too, they change nothing."""
    from ..errors import OpArgumentError
    if level != "O1":
        raise OpArgumentError(f"amp.decorate: only level 'O1' is supported on NumPy; got: "
                              f"{level!r}")
    return models if optimizers is None else (models, optimizers)


def is_float16_supported(device=None):
    return True


def is_bfloat16_supported(device=None):
    return False


__all__ = ["auto_cast", "amp_guard", "GradScaler", "AmpScaler", "autocast_matmul", "decorate",
           "is_auto_cast_enabled", "is_float16_supported", "is_bfloat16_supported"]


def is_autocast_enabled(device_type=None):
    """Whether an auto_cast context is on in this thread (Paddle 3's spelling)."""
    return is_auto_cast_enabled()


def get_autocast_dtype(device_type=None):
    """The dtype auto_cast casts to: 'float16' (bfloat16 has no NumPy dtype)."""
    return "float16"


get_autocast_cpu_dtype = get_autocast_gpu_dtype = get_autocast_dtype
__all__ += ["is_autocast_enabled", "get_autocast_dtype", "get_autocast_cpu_dtype",
            "get_autocast_gpu_dtype"]


def autocast(device_type=None, dtype="float16", enabled=True, cache_enabled=True):
    """Paddle's PyTorch-style spelling of auto_cast (device_type and cache_enabled unused, as
    in Paddle)."""
    return auto_cast(enable=enabled, dtype=dtype)


__all__ += ["autocast"]
