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
    """'LayerList' -> 'layer_list', 'LSTMCell' -> 'lstm_cell' (Paddle's layer name scopes: a
    capitalised word after anything starts a word, then so does a capital after a lower-case
    letter, not after a digit: 'Conv2D' -> 'conv2d')."""
    words = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", words).lower()
