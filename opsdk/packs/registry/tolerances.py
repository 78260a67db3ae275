"""Default verification tolerances per dtype, and how an op's overrides resolve against them."""
from ...dtypes import convert_dtype
from ...errors import DTypeError

# (atol, rtol) per dtype the verifier can check; its keys are the dtypes an op may list.
DEFAULT_TOLERANCES = {
    "float64": (1e-5, 1e-3),
    "float32": (1e-3, 1e-2),
    "float16": (1e-2, 5e-2),
}

VERIFIABLE_DTYPES = tuple(DEFAULT_TOLERANCES)


def dtype_name(dtype):
    """The canonical name ('float32') of a dtype given as a name, 'paddle.float32', or NumPy dtype."""
    return convert_dtype(dtype).name


def resolve_tolerance(override, dtype, kind):
    """``kind`` ('atol' or 'rtol') in ``dtype``: the op's override (float or per dtype), else the default."""
    name = dtype_name(dtype)
    if isinstance(override, dict) and name in override:
        return float(override[name])
    if override is not None and not isinstance(override, dict):
        return float(override)
    if name not in DEFAULT_TOLERANCES:
        raise DTypeError(f"no {kind} for dtype '{name}': it is not verifiable; "
                         f"expected: one of {', '.join(VERIFIABLE_DTYPES)}; got: {name}")
    atol, rtol = DEFAULT_TOLERANCES[name]
    return atol if kind == "atol" else rtol
