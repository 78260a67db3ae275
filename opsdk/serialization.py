"""save / load: objects holding Tensors to and from disk, in Paddle's pickle layout.

A state dict ({name: Tensor}) is written as {name: ndarray} plus Paddle's
'StructuredToParameterName@@' table; Tensors elsewhere in nested lists, tuples and dicts are
written as (name, ndarray) pairs, as paddle.save does, so either library reads the other's
files of these kinds.
"""
import io
import os
import pickle

import numpy as np

from .errors import ArgumentTypeError, OpArgumentError
from .tensor import Tensor, _wrap

_NAMES_KEY = "StructuredToParameterName@@"


def _array(t):
    return np.array(t.numpy(), copy=True)


def _name(t, default):
    return getattr(t, "name", None) or default


def _pack(obj, counter):
    if isinstance(obj, Tensor):
        counter[0] += 1
        return (_name(obj, f"saved_tensor_{counter[0]}"), _array(obj))
    if isinstance(obj, dict):
        return {k: _pack(v, counter) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        packed = [_pack(v, counter) for v in obj]
        return packed if isinstance(obj, list) else tuple(packed)
    return obj


def _is_state_dict(obj):
    return isinstance(obj, dict) and obj and all(isinstance(v, Tensor) for v in obj.values())


def save(obj, path, protocol=4, **configs):
    """Write obj (a state dict, or nested lists/tuples/dicts holding Tensors) to path.

    Args:
        obj: what to save; Tensors are stored as NumPy arrays.
        path: a file path (parent directories are created) or a writable binary buffer.
        protocol: the pickle protocol, 2 to 4 (Paddle's range).

    Example:
        >>> opsdk.save(model.state_dict(), "model.pdparams")
        >>> model.set_state_dict(opsdk.load("model.pdparams"))
    """
    if not isinstance(protocol, int) or not 2 <= protocol <= 4:
        raise OpArgumentError(f"save: protocol must be 2, 3 or 4; got: {protocol!r}")
    if _is_state_dict(obj):
        data = {k: _array(v) for k, v in obj.items()}
        data[_NAMES_KEY] = {k: _name(v, k) for k, v in obj.items()}
    else:
        data = _pack(obj, [0])
    if isinstance(path, (str, os.PathLike)):
        folder = os.path.dirname(os.fspath(path))
        if folder:
            os.makedirs(folder, exist_ok=True)
        with open(path, "wb") as f:
            pickle.dump(data, f, protocol=protocol)
    elif isinstance(path, io.IOBase) or hasattr(path, "write"):
        pickle.dump(data, path, protocol=protocol)
    else:
        raise ArgumentTypeError(f"save: path must be a file path or a binary buffer; got: "
                                f"{type(path).__name__}")


def _tensor(array, name, return_numpy):
    if return_numpy:
        return array
    t = _wrap(np.array(array, copy=True))
    t.name = name
    return t


def _unpack(obj, return_numpy):
    if _is_packed_tensor(obj):
        return _tensor(obj[1], obj[0], return_numpy)
    if isinstance(obj, dict):
        return {k: _unpack(v, return_numpy) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        items = [_unpack(v, return_numpy) for v in obj]
        return items if isinstance(obj, list) else tuple(items)
    return obj


def load(path, return_numpy=False, **configs):
    """Read what save (or paddle.save) wrote; arrays come back as Tensors.

    Args:
        path: a file path or a readable binary buffer.
        return_numpy: give NumPy arrays instead of Tensors.

    Returns:
        The saved object, its arrays as Tensors (stop_gradient=True) named as when saved.
    """
    if isinstance(path, (str, os.PathLike)):
        if not os.path.exists(path):
            raise OpArgumentError(f"load: no file at {os.fspath(path)!r}")
        with open(path, "rb") as f:
            data = pickle.load(f)
    else:
        data = pickle.load(path)
    if isinstance(data, dict) and _NAMES_KEY in data:
        names = data.pop(_NAMES_KEY)
        return {k: _tensor(v, names.get(k, k), return_numpy) if isinstance(v, np.ndarray)
                else _unpack(v, return_numpy) for k, v in data.items()}
    if isinstance(data, dict) and not _holds_tensors(data):
        # a dict of plain arrays reads as a state dict (Tensors); where the saved dict held
        # Tensors too, its arrays stay arrays, as in Paddle
        return {k: _tensor(v, k, return_numpy) if isinstance(v, np.ndarray)
                else _unpack(v, return_numpy) for k, v in data.items()}
    return _unpack(data, return_numpy)


def _is_packed_tensor(obj):
    return (isinstance(obj, tuple) and len(obj) == 2 and isinstance(obj[0], str)
            and isinstance(obj[1], np.ndarray))


def _holds_tensors(obj):
    """Whether what save wrote holds a Tensor anywhere (its (name, array) pairs)."""
    if _is_packed_tensor(obj):
        return True
    if isinstance(obj, dict):
        return any(_holds_tensors(v) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return any(_holds_tensors(v) for v in obj)
    return False
