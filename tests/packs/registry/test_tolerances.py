"""Default tolerances per dtype and how an op's overrides resolve."""
import numpy as np
import pytest

from opsdk.errors import DTypeError
from opsdk.packs.registry.tolerances import DEFAULT_TOLERANCES, dtype_name, resolve_tolerance


def test_defaults_are_looser_for_narrower_floats():
    assert DEFAULT_TOLERANCES == {"float64": (1e-5, 1e-3), "float32": (1e-3, 1e-2),
                                  "float16": (1e-2, 5e-2)}


def test_dtype_names_are_canonical_whatever_the_spelling():
    assert dtype_name("paddle.float32") == dtype_name(np.float32) == dtype_name(np.dtype("f4")) == "float32"


def test_no_override_gives_the_default():
    assert resolve_tolerance(None, "float16", "rtol") == 5e-2


def test_float_override_applies_to_every_dtype():
    assert resolve_tolerance(0.5, "float64", "atol") == resolve_tolerance(0.5, "float16", "atol") == 0.5


def test_dict_override_applies_to_its_dtypes_only():
    override = {"float32": 0.25}
    assert resolve_tolerance(override, "float32", "atol") == 0.25
    assert resolve_tolerance(override, "float64", "atol") == 1e-5


def test_non_float_dtype_has_no_tolerance():
    with pytest.raises(DTypeError, match="no atol for dtype 'int64'"):
        resolve_tolerance(None, "int64", "atol")
