"""Unique names for layers and parameters ("linear_0", "linear_0.w_0"), as Paddle generates."""
import itertools
import re
import threading

_lock = threading.Lock()
_counters = {}


def unique_name(prefix):
    """The next free name for prefix: prefix_0, prefix_1, ..."""
    with _lock:
        counter = _counters.get(prefix)
        if counter is None:
            counter = _counters[prefix] = itertools.count()
        return f"{prefix}_{next(counter)}"


def camel_to_snake(name):
    """'LayerList' -> 'layer_list' (Paddle's layer name scopes)."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()
