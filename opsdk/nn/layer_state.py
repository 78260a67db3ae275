"""Layer.state_dict / set_state_dict / to: saving, restoring and moving a layer tree's tensors."""
import warnings
from collections import OrderedDict

import numpy as np

from ..dtypes import convert_dtype
from ..errors import OpsdkWarning
from ..tensor import Tensor


def _entries(layer, include_sublayers, prefix):
    """(structured name, tensor) for parameters and persistable buffers of the tree. As in
    Paddle, a tensor or layer held under two names is listed under each (the recurrent layers'
    weight_ih_l0 is also 0.cell.weight_ih)."""
    layers = (layer.named_sublayers(prefix, include_self=True, remove_duplicate=False)
              if include_sublayers else [(prefix, layer)])
    for lname, sub in layers:
        for key, p in sub._parameters.items():
            if p is not None:
                yield lname + ("." if lname else "") + key, p
        for key, b in sub._buffers.items():
            if b is not None and key not in sub._non_persistable_buffer_names:
                yield lname + ("." if lname else "") + key, b


def state_dict(layer, destination, include_sublayers, prefix):
    out = OrderedDict() if destination is None else destination
    for name, t in _entries(layer, include_sublayers, prefix.rstrip(".")):
        out[name] = t
    return out


def _values(v):
    if isinstance(v, Tensor):
        return v.numpy()
    return np.asarray(v)


def set_state_dict(layer, state, use_structured_name):
    missing = []
    used = set()
    for name, t in _entries(layer, True, ""):
        key = name if use_structured_name else (t.name or name)
        if key not in state:
            missing.append(key)
            continue
        v = _values(state[key])
        if tuple(v.shape) != tuple(t.array.shape):
            # as Paddle: a warning, the entry is skipped and reported missing and unexpected
            warnings.warn(f"set_state_dict: skipped '{key}', which has the wrong shape; "
                          f"expected: {list(t.array.shape)}; got: {list(v.shape)}",
                          OpsdkWarning, stacklevel=3)
            missing.append(key)
            continue
        used.add(key)
        if type(t.array) is np.ndarray:
            t.array[...] = v.astype(t.array.dtype, copy=False)
        else:
            from ..device import array_module
            t.array[...] = array_module(t.array).asarray(v.astype(t.array.dtype, copy=False))
        t._version += 1
    unexpected = [k for k in state if k not in used]
    return missing, unexpected


def move_to(layer, device, dtype):
    from .. import device as _device
    place = None if device is None else _device.parse_place(device)
    dt = None if dtype is None else convert_dtype(dtype, op="Layer.to")
    tensors = list(layer.parameters()) + list(layer.buffers())
    for t in tensors:
        data = t.array
        if place is not None:
            data = _device.move_to(data, place)
        if dt is not None and data.dtype.kind == "f":
            data = data.astype(dt)
        if data is not t.array:
            t.array = data
            t._version += 1
            t.grad = None
