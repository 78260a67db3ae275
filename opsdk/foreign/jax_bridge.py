"""JAX: the op as a pure function of JAX arrays (from the samples' memory, NumPy or CuPy, by
DLPack where it is contiguous), gradients of every order by ``jax.vjp`` of the level below,
each level compiled once (``jax.jit``) per callable, attributes and shapes.

JAX arrays are immutable and have no strides: an op cannot write its inputs or alias them, and
layouts cannot reach it (the layout check says so). float64 samples need JAX's 64-bit types,
which the bridge enables (``jax_enable_x64``) when it is first used. The op runs with its
inputs' device as JAX's default device (the CPU for the python backend, even where JAX has a
GPU), so arrays its code creates live where a user running it there has them.
"""
from contextlib import nullcontext

import jax
import numpy as np

from ..errors import StateError
from .device import arriving, device_array, is_device_array, on_device, warmed
from .graph import Graph, as_outputs, check_types

FRAMEWORK = "jax"
# compiled levels kept (the oldest dropped first): an op called with ever new attribute values
# must not grow memory without bound
_KEPT = 128
# what JAX raises when the op's code branches on a traced value or hands it to NumPy (a
# custom_vjp wrapping NumPy code, as fast-soft-sort's): such code runs eagerly
_UNTRACEABLE = (jax.errors.ConcretizationTypeError, jax.errors.TracerArrayConversionError,
                jax.errors.TracerBoolConversionError,
                jax.errors.TracerIntegerConversionError)


def _leaked_tracer(error):
    """Whether ``error`` is JAX's for a value traced in an earlier call used in this one."""
    return isinstance(error, jax.errors.UnexpectedTracerError) or (
        type(error) is TypeError and str(error).startswith("No constant handler for type")
        and "Tracer" in str(error))


def _kept_state(name, error):
    return StateError(
        f"foreign op '{name}' (jax) uses a value traced in an earlier call: its code keeps a JAX "
        f"array between calls (a cache, a global, an attribute), so what it returns depends on "
        f"earlier calls, not only on its arguments (under jax.jit the value kept is a tracer of "
        f"a finished trace; eager, it is the earlier call's array). expected: the function and "
        f"its fwd/bwd rules pure, computing every value from their arguments or residuals; "
        f"JAX said: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")


class _Level:
    """A level's pure function under ``jax.jit``; eager from the first call the op's code cannot
    be traced, as JAX users run such code. ``single``: the op returned one array, not a tuple.
    A tracer leaking from one call into another (state the op keeps) is a StateError naming
    the op."""

    def __init__(self, pure, single, name="?"):
        self.pure = pure
        self.jitted = jax.jit(pure)
        self._single = single
        self.name = name

    @property
    def single(self):
        return bool(self._single and self._single[0])

    def __call__(self, *args):
        try:
            if self.jitted is not None:
                try:
                    return self.jitted(*args)
                except _UNTRACEABLE:
                    self.jitted = None
            return self.pure(*args)
        except (jax.errors.UnexpectedTracerError, TypeError) as error:
            if _leaked_tracer(error):
                raise _kept_state(self.name, error) from error
            raise


def _key(*parts):
    """A cache key, or None where a part is unhashable (a list attribute: no cache, eager)."""
    try:
        hash(parts)
    except TypeError:
        return None
    return parts


class Bridge:
    """What the generated Functions ask of JAX."""

    framework = FRAMEWORK

    def __init__(self):
        # without it a float64 sample silently becomes float32 inside JAX
        jax.config.update("jax_enable_x64", True)
        self._levels = {}  # key -> _Level: the verifier calls each level hundreds of times

    def _level(self, key, make, name):
        if key is None:
            return _Level(*make(), name)
        if key not in self._levels:
            if len(self._levels) >= _KEPT:
                del self._levels[next(iter(self._levels))]
            self._levels[key] = _Level(*make(), name)
        return self._levels[key]

    def gpu_status(self):
        """``(True, '')`` when JAX has a GPU backend with a device here, else ``(False, why)``."""
        try:
            found = jax.devices("gpu")
        except Exception as error:  # noqa: BLE001 - JAX's RuntimeError: no such backend
            first = str(error).splitlines()[0] if str(error) else type(error).__name__
            # "Unknown backend" says no more than this; a plugin that failed to start says why
            why = "" if first.startswith("Unknown backend") else f": {first}"
            return False, f"jax {jax.__version__} has no GPU backend (jax[cuda12] has one){why}"
        if not found:
            return False, f"jax {jax.__version__} finds no GPU device"
        return warmed("jax", lambda: jax.device_put(np.zeros(1), found[0]).block_until_ready())

    def from_device(self, array):
        """A JAX array over a contiguous device array's memory (DLPack: no copy)."""
        return jax.dlpack.from_dlpack(array)

    def tensor(self, array, requires_grad=False):
        """A JAX array over ``array``'s memory, a NumPy or a device array, where it is
        contiguous (JAX arrays have no strides: a copy otherwise)."""
        if is_device_array(array):
            if not array.flags.c_contiguous:
                array = array.copy()  # C order, on the device
            try:
                return self.from_device(array)
            except Exception:  # noqa: BLE001 - memory JAX refuses (alignment): a fresh copy
                return self.from_device(array.copy())
        if not isinstance(array, np.ndarray):
            return array
        if array.flags.c_contiguous and array.flags.aligned:
            try:
                return jax.dlpack.from_dlpack(array)
            except Exception:  # noqa: BLE001 - a dtype or alignment DLPack refuses: copy below
                pass
        return jax.device_put(array, jax.devices("cpu")[0])

    @staticmethod
    def _on_device_of(leaves):
        """JAX's default device set to the device of the first input array while the op runs."""
        for leaf in leaves:
            if isinstance(leaf, jax.Array):
                return jax.default_device(next(iter(leaf.devices())))
        return nullcontext()

    def call(self, fn, arrays, diff, attrs, name):
        def make():
            single = []

            def pure(*xs):
                outputs, one = as_outputs(fn(*xs, **attrs), FRAMEWORK, name)
                single[:] = [one]
                return tuple(outputs)

            return pure, single

        key = _key(fn, tuple(sorted(attrs.items())), tuple(diff))
        level = self._level(key, make, name)
        leaves = [self.tensor(a) for a in arrays]
        with self._on_device_of(leaves):
            outputs = level(*leaves)
        check_types(outputs, jax.Array, "a JAX array", FRAMEWORK, name)
        return Graph(leaves, diff, outputs, level.single, state=(level, key),
                     device=on_device(arrays))

    def array(self, output, index, device=False):
        """A writable copy, NumPy or on the device when ``device`` (JAX's buffers are read-only
        and never alias an input)."""
        if device:
            return device_array(output, index, FRAMEWORK).copy()
        return np.array(output)

    def vjp(self, graph, given, cotangents, create):
        """The VJP of the level below as a pure function of its leaves and the cotangents."""
        (f, parent), n, wrt = graph.state, len(graph.leaves), graph.diff_leaves

        def make():
            def pullback(*args):
                xs, cts = list(args[:n]), args[n:]

                def at(*moved):
                    full = list(xs)
                    for i, value in zip(wrt, moved):
                        full[i] = value
                    outputs = f(*full)
                    return tuple(outputs[i] for i in given)

                _, pull = jax.vjp(at, *[xs[i] for i in wrt])
                return tuple(pull(tuple(cts)))

            return pullback, []

        key = None if parent is None else (parent, tuple(given))
        level = self._level(key, make, f.name)
        seeds = [self.tensor(arriving(c)) for c in cotangents]
        with self._on_device_of(graph.leaves):
            grads = level(*graph.leaves, *seeds)
        return Graph(graph.leaves + seeds, graph.diff + [True] * len(seeds), list(grads),
                     state=(level, key), device=graph.device)
