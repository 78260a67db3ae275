"""Unwritten outputs, check mode's kernel side: kernel output buffers start as a marked NaN, so
elements left unwritten are found.

While ``opsdk check`` runs, every kernel call allocates its ``empty`` / ``empty_like`` buffers
(NumPy's, CuPy's, and ``opsdk.kernels.empty_like``) filled with a quiet NaN carrying a payload
arithmetic never produces. After the call, an output element still holding that payload was
never written (a loop missing its tail, a block offset off by one, a write into a copy made
by ``reshape(-1)``); the kernel and the indices are recorded for the report.

Outside check mode nothing of this runs: plans (see kernel.py) are made without the wrapper.
It lives with the kernels, which consult it on every call; the verifier
(opsdk.verification.check) switches it on and reads the findings.
"""
import contextlib
import functools
import sys
import threading

import numpy

# quiet NaNs with a payload: x86 and CUDA arithmetic on them keeps it, fresh NaNs have none
_MARKS = {
    numpy.dtype("float64"): (numpy.uint64, 0x7FFDEAD5ADEAD5A5),
    numpy.dtype("float32"): (numpy.uint32, 0x7FDEAD5A),
    numpy.dtype("float16"): (numpy.uint16, 0x7E5A),
}
SHOWN = 8  # unwritten indices listed per output



class _State(threading.local):
    """Per thread: the findings, the depth of watched calls, the arrays found fully written.
    Defaults as class attributes: a thread-local lookup that misses raises inside, which costs
    more than the rest of a small call."""

    found = None
    depth = 0
    clean = None


_state = _State()
_active = False
_lock = threading.RLock()
_on_switch = []  # set_active calls each with its kernels: how kernels forget their plans


def active():
    """Whether check mode is on (kernel outputs NaN-filled and scanned)."""
    return _active


class Unwritten:
    """Elements of one kernel output that still hold the check-mode fill after the call
    (``backend`` None: the output of a Function's forward or backward, named by ``kernel``)."""

    def __init__(self, kernel, backend, output, shape, indices, count):
        self.kernel = kernel
        self.backend = backend
        self.output = output
        self.shape = shape
        self.indices = indices
        self.count = count

    def __str__(self):
        shown = ", ".join(str(list(i)) for i in self.indices)
        more = f", ... ({self.count} in all)" if self.count > len(self.indices) else ""
        size = int(numpy.prod(self.shape))
        if self.backend is None:  # a Function's own buffer
            who, why = self.kernel, ("check mode fills fresh numpy.empty buffers with NaN first; "
                                     "a mask or branch that leaves elements unset, relying on "
                                     "the memory being zero?")
        else:
            who = f"kernel '{self.kernel}' ({self.backend})"
            why = ("check mode fills kernel outputs with NaN first; a loop that misses its tail, "
                   "or a write into a copy such as reshape(-1) of a non-contiguous array?")
        return (f"{who} left {self.count} of {size} elements of "
                f"its output {self.output} (shape {list(self.shape)}) unwritten: {shown}{more} "
                f"({why})")


def _findings():
    found = _state.found
    if found is None:
        found = _state.found = []
    return found


def take_findings():
    """The Unwritten records since the last call (and forget them)."""
    found = _findings()
    taken = list(found)
    found.clear()
    return taken


def fill(array):
    """Fill a float array with the check-mode mark (other dtypes are left as they are)."""
    mark = _MARKS.get(array.dtype)
    if mark is not None and array.size:
        array.view(mark[0])[...] = mark[1]
    return array


def unwritten_mask(array):
    """Boolean mask of the elements of ``array`` that hold the mark (None for other dtypes)."""
    mark = _MARKS.get(array.dtype)
    if mark is None or not array.size:
        return None
    host = array if type(array) is numpy.ndarray else array.get()
    if not host.flags.c_contiguous and not host.flags.f_contiguous:
        host = host.copy()
    return host.view(mark[0]) == mark[1]



_fillers = {}  # id(original) -> (original, its NaN-filling wrapper), made once
_aliases = {}  # id(fn) -> (fn, names of its globals bound to an allocator), found once


def _filling(original):
    entry = _fillers.get(id(original))
    if entry is None or entry[0] is not original:
        @functools.wraps(original)
        def allocate(*args, **kwargs):
            return fill(original(*args, **kwargs))
        allocate._opsdk_original = original
        entry = _fillers[id(original)] = (original, allocate)
    return entry[1]


def _patch_targets(fn):
    """(namespace, name, original) for every ``empty``/``empty_like`` the adapter may call that
    no outer call (a Function's forward around its kernel) has patched already."""
    targets, originals = [], set()
    for module in (numpy, sys.modules.get("cupy")):
        if module is None:
            continue
        for name in ("empty", "empty_like"):
            value = getattr(module, name)
            original = getattr(value, "_opsdk_original", value)
            originals.add(id(original))
            if value is original:
                targets.append((module, name, value))
    # adapters that did `from numpy import empty_like` call their own global (which names
    # those are is found once per adapter: scanning a module's globals on every call is slow)
    scope = getattr(fn, "__globals__", {})
    entry = _aliases.get(id(fn))
    if entry is None or entry[0] is not fn:
        names = [n for n, v in list(scope.items())
                 if id(getattr(v, "_opsdk_original", v)) in originals]
        entry = _aliases[id(fn)] = (fn, names)
    for name in entry[1]:
        value = scope.get(name)
        if id(value) in originals:
            targets.append((scope, name, value))
    return targets


def _set(namespace, name, value):
    if isinstance(namespace, dict):
        namespace[name] = value
    else:
        setattr(namespace, name, value)


def _filled_call(fn, args, kwargs):
    """``fn(*args, **kwargs)`` with every ``empty``/``empty_like`` it may call NaN-filling."""
    with _lock:
        targets = _patch_targets(fn)
        for namespace, name, original in targets:
            _set(namespace, name, _filling(original))
        try:
            return fn(*args, **kwargs)
        finally:
            for namespace, name, original in targets:
                _set(namespace, name, original)


def watched(kernel_name, backend, fn):
    """``fn`` (an implementation or adapter) with its fresh buffers NaN-filled and its outputs scanned."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        if not _active:
            return fn(*args, **kwargs)
        with _outermost():
            result = _filled_call(fn, args, kwargs)
            _scan(kernel_name, backend, result)
        return result
    return run


def watched_method(label, fn):
    """A Function's ``forward`` or ``backward`` with its fresh ``numpy.empty`` buffers NaN-filled
    and the arrays of the Tensors it returns scanned (code that allocates outside a Kernel)."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        if not _active:
            return fn(*args, **kwargs)
        found = len(_findings())
        with _outermost():
            result = _filled_call(fn, args, kwargs)
            if len(_findings()) == found:  # a kernel inside already named what it left unwritten
                outputs = result if isinstance(result, (tuple, list)) else (result,)
                _scan(label, None, [getattr(o, "_data", None) for o in outputs])
        return result
    run._opsdk_watched = fn
    return run


@contextlib.contextmanager
def _outermost():
    """Within the outermost watched call of this thread, arrays found fully written are
    remembered: a Function's forward returning its kernel's output is not scanned twice (every
    element of that array was written when the kernel returned, and stays so)."""
    depth = _state.depth
    if depth == 0:
        _state.clean = {}
    _state.depth = depth + 1
    try:
        yield
    finally:
        _state.depth = depth
        if depth == 0:
            _state.clean = None


def _scan(kernel_name, backend, result):
    outputs = result if isinstance(result, (tuple, list)) else (result,)
    clean = _state.clean
    for k, out in enumerate(outputs):
        if not hasattr(out, "dtype") or not hasattr(out, "shape"):
            continue
        if clean is not None and clean.get(id(out)) is out:
            continue
        mask = unwritten_mask(out)
        if mask is None or not mask.any():
            if clean is not None and mask is not None:
                clean[id(out)] = out  # held, so its id names no other array meanwhile
            continue
        flat = numpy.flatnonzero(mask.reshape(-1))
        indices = [tuple(int(i) for i in numpy.unravel_index(f, mask.shape)) for f in flat[:SHOWN]]
        _findings().append(Unwritten(kernel_name, backend, k, tuple(out.shape), indices,
                                     int(flat.size)))


def set_active(on, kernels=()):
    """Turn check mode on or off; forgets the dispatch plans of every kernel so they are remade."""
    global _active
    _active = bool(on)
    for forget in _on_switch:
        forget(kernels)
    take_findings()


def on_switch(callback):
    """Call ``callback(kernels)`` whenever check mode turns on or off (kernel.py registers how its
    kernels forget their dispatch plans: this module never imports it back)."""
    _on_switch.append(callback)
