"""Every function and Tensor method given 0-d tensors returns tensors that hold arrays: NumPy
hands back scalars (np.int32, np.bool_) for 0-d ufunc results, and a Tensor around a scalar
breaks numpy() and printing (batch 1217 met it in the bitwise ops)."""
import inspect
import warnings

import numpy as np
import pytest

import opsdk

# names with effects beyond their result (files, global state) or that wait for input
_SKIP = {"save", "load", "seed", "manual_seed", "grad", "no_grad", "enable_grad",
         "set_grad_enabled", "tensor", "backward", "register_hook", "apply", "apply_"}


def _callables(owner):
    for name in sorted(dir(owner)):
        f = getattr(owner, name, None)
        if (name.startswith("_") or not callable(f) or inspect.isclass(f) or name in _SKIP
                or name.startswith(("set_", "enable_", "disable_", "get_"))):
            continue
        yield name, f


def _not_an_array(data):
    # a NumPy scalar in place of an array (a GPU array, from x.cuda() under the simulator, is fine)
    return isinstance(data, np.generic) or not (
        isinstance(data, np.ndarray) or hasattr(data, "__cuda_array_interface__"))


def _results(r):
    return r if isinstance(r, (list, tuple)) else [r]


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
def test_functions_and_methods_of_0d_tensors_return_arrays_not_scalars(dtype):
    value = np.array(True if dtype == "bool" else 3).astype(dtype)
    wrapped, called = [], 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        calls = [(f"opsdk.{n}", f, 0) for n, f in _callables(opsdk)]
        calls += [(f"Tensor.{n}", f, 1) for n, f in _callables(opsdk.Tensor)
                  if not n.endswith("_")]  # in-place methods would change the operand
        for name, f, is_method in calls:
            for extra in (0, 1):
                x = opsdk.to_tensor(value)
                args = (x,) * (1 + extra)
                try:
                    r = f(*args)
                except Exception:  # noqa: BLE001 -- not every name takes these arguments
                    continue
                called += 1
                wrapped += [f"{name}{'(x, x)' if extra else '(x)'}: {type(t._data).__name__}"
                            for t in _results(r)
                            if isinstance(t, opsdk.Tensor) and _not_an_array(t._data)]
    assert called > 200
    assert not wrapped, "\n".join(wrapped)
